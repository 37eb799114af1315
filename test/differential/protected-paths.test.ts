// Differential: writes to protected paths. In acceptEdits, Claude Code and Fanout refuse the same sensitive
// files and write the same ordinary ones; in bypassPermissions Claude Code writes them and Fanout still asks
// (headless: refuses), a difference on purpose (docs/claude-code-differences.md).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { reply } from '../../src/main/runtime/model/scripted/reply'
import { claudeCode } from './claude-code'
import { cleanupRuns, runSide, type Scenario, type Side } from './harness'

const cc = claudeCode()
const PROTECTED = [
  '.husky/pre-commit',
  '.claude/hooks/guard.sh',
  '.git/hooks/pre-commit',
  '.vscode/tasks.json',
  '.envrc',
  '.mcp.json',
  '.idea/x.xml',
  '.devcontainer/devcontainer.json',
  '.CLAUDE/settings.json'
]
const ORDINARY = ['.gitattributes', '.github/workflows/ci.yml', 'src/ok.ts']
const TARGETS = [...PROTECTED, ...ORDINARY]

function scenario(mode: string): Scenario {
  return {
    files: { 'src/a.ts': 'x\n', '.husky/pre-commit': 'old\n' },
    // One Write per call made so far (Claude Code adds reminder turns of its own, so turns are not calls).
    respond: (req) => {
      const calls = (req.messages as Array<{ role: string }>).filter((m) => m.role === 'assistant').length
      const t = TARGETS[calls]
      return t ? reply.toolUse('Write', { file_path: t, content: 'pwned\n' }, { id: `toolu_w${calls}` }) : reply.text('done')
    },
    prompt: 'write the files',
    args: ['--permission-mode', mode, '--output-format', 'json'],
    // Claude Code refuses bypass mode to root outside a sandbox it knows of.
    env: { IS_SANDBOX: '1' }
  }
}

const written = async (side: Side, mode: string) => {
  const out = await runSide(side, scenario(mode))
  return Object.fromEntries(TARGETS.map((t) => [t, existsSync(join(out.project, t)) && readFileSync(join(out.project, t), 'utf8') === 'pwned\n']))
}

afterAll(cleanupRuns)

describe.skipIf(cc.skip !== undefined)(`protected paths against Claude Code ${cc.skip ?? ''}`, () => {
  it('acceptEdits: the same sensitive files refused, the same ordinary ones written', async () => {
    const [claude, fanout] = await Promise.all([written('claude-code', 'acceptEdits'), written('fanout', 'acceptEdits')])
    for (const t of PROTECTED) expect(fanout[t], t).toBe(false)
    for (const t of ORDINARY) expect(fanout[t], t).toBe(true)
    expect(fanout).toEqual(claude)
  }, 300_000)

  it('bypassPermissions: Fanout still refuses them (Claude Code writes them), ordinary files are written by both', async () => {
    const [claude, fanout] = await Promise.all([written('claude-code', 'bypassPermissions'), written('fanout', 'bypassPermissions')])
    for (const t of PROTECTED) expect(fanout[t], t).toBe(false)
    for (const t of ORDINARY) expect([claude[t], fanout[t]], t).toEqual([true, true])
    expect(claude['.husky/pre-commit']).toBe(true)
  }, 300_000)
})
