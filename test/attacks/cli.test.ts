// The plan-mode attacks through `fanout run` itself (the bundled CLI, which loads the sandbox from
// node_modules): the exec and overwrite attempts are denied, a read-only command runs in the sandbox.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startScriptedModel } from '../../src/main/runtime/model/scripted'
import { reply } from '../../src/main/runtime/model/scripted/reply'
import { cliProject, ensureCliBundle, runCli } from '../support/cli'

describe('fanout run in plan mode', () => {
  it('denies git grep -O, sort -uo and sort --out=, and runs ls in the read-only sandbox', async () => {
    ensureCliBundle()
    const p = cliProject('fanout-attack-cli-', { 'README.md': 'keep me word\n' })
    const commands = [`git grep -O'touch pwned' word`, 'sort -uo README.md /dev/null', 'sort --out=NEW.txt README.md', 'ls; echo listed']
    const model = await startScriptedModel({
      respond: (req) => (commands[req.turn] ? reply.toolUse('Bash', { command: commands[req.turn] }) : reply.text('done'))
    })
    try {
      const r = await runCli(['run', '-p', 'look', '--permission-mode', 'plan', '--cwd', p.project], { env: p.env(model.server.url) })
      expect(r.code).toBe(0)
      const results = model.server.requests.slice(1).map((q) => q.toolResults[0]?.content ?? '')
      expect(results[0]).toContain('not available in plan mode')
      expect(results[1]).toContain('not available in plan mode')
      expect(results[2]).toContain('not available in plan mode')
      expect(results[3]).toContain('listed')
      expect(readFileSync(join(p.project, 'README.md'), 'utf8')).toBe('keep me word\n')
      expect(existsSync(join(p.project, 'pwned')) || existsSync(join(p.project, 'NEW.txt'))).toBe(false)
      expect(r.stderr).not.toContain('sandbox is unavailable')
    } finally {
      await model.close()
    }
  }, 60_000)
})
