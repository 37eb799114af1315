// Two processes racing for one session: after a crash, two `fanout run --resume` started together; exactly
// one runs it (and finishes it), the other refuses naming the first, and no agent runs twice. And the
// 5x5x5 spawn tree through the real CLI: it finishes under the tightest cap, exit 0, never a silent exit.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { startScriptedServer } from '../../src/main/runtime/model/scripted'
import { spawnTreeScript } from '../../src/main/runtime/orchestration/testing/spawn-tree-script'
import { cliProject, ensureCliBundle, runCli } from '../support/cli'
import { endCrashTest, inspect, killGroup, sessionIds, startCrashTest, startRun, until } from '../support/crash-kit'

beforeAll(() => ensureCliBundle(), 120_000)

describe('two processes, one session', () => {
  it('of two --resume started together after a crash, exactly one runs the session', { timeout: 180_000 }, async () => {
    const { p, script, server } = await startCrashTest(undefined, { blockTool: true })
    try {
      const first = startRun(p, server.url, ['-p', 'Fan out over the project.'])
      await until('worker-5 in its Bash call', () => existsSync(p.marker('tool')), first)
      killGroup(first)
      await first.done
      script.killed = true
      p.release()
      const [sessionId] = sessionIds(p)
      const a = startRun(p, server.url, ['--resume', sessionId, '-p', 'Continue.'])
      const b = startRun(p, server.url, ['--resume', sessionId, '-p', 'Continue.'])
      const outs = await Promise.all([a.done, b.done])
      const won = outs.filter((o) => o.code === 0)
      const refused = outs.filter((o) => o.code === 1)
      expect(won, outs.map((o) => o.stderr).join('\n')).toHaveLength(1)
      expect(refused).toHaveLength(1)
      const winner = won[0] === outs[0] ? a : b
      expect(refused[0].stderr).toBe(
        `fanout run: Session ${sessionId} is being run by fanout run (pid ${winner.child.pid}) since ${/since (\d\d:\d\d:\d\d)/.exec(refused[0].stderr)?.[1]}. Wait for it to finish or stop it there.\n`
      )
      expect(refused[0].stdout).toBe('')
      expect(JSON.parse(won[0].stdout).result).toBe('reports=16 dups=0 ack=1')
      const final = await inspect(p, sessionId, { afterKill: false })
      expect(final.runTwice).toEqual([])
      expect(final.twice).toEqual([])
      expect(final.lost).toEqual([])
    } finally {
      await endCrashTest(p, script, server)
    }
  })
})

describe('a 5x5x5 spawn tree through fanout run', () => {
  for (const cap of [1, 2, 20]) {
    it(`finishes with exit 0 and 155 subagents under a cap of ${cap}`, { timeout: 180_000 }, async () => {
      const { project, dataDir, env } = cliProject('fanout-tree-', {})
      mkdirSync(dataDir, { recursive: true })
      writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ limits: { maxConcurrent: cap } }))
      const server = await startScriptedServer({ respond: spawnTreeScript() })
      try {
        const r = await runCli(['run', '-p', 'Split the work three levels deep.', '--cwd', project, '--output-format', 'json'], {
          env: env(server.url),
          timeoutMs: 150_000
        })
        expect(r.stderr).toBe('')
        expect(r.code).toBe(0)
        const out = JSON.parse(r.stdout)
        expect(out).toMatchObject({ result: '5 of 5 answered', is_error: false, subagent_stats: { spawned: 155, completed: 155, failed: 0, max_depth: 3 } })
      } finally {
        await server.close()
      }
    })
  }
})
