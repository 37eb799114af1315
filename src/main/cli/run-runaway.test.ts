// `fanout run` with a model that spawns on every turn of every agent, under the default limits: the run stops
// by itself, says why (the session's spawn limit), and exits non-zero — it never runs on until it is killed.
import { describe, expect, it } from 'vitest'
import { cliProject, runCli, useCliServers } from '../../../test/support/cli'
import { alwaysSpawn } from '../runtime/orchestration/testing/always-spawn-script'

const serve = useCliServers()

describe('fanout run with an always-spawning model', () => {
  it('stops by itself at the spawn limit, names it, and exits 1', { timeout: 240_000 }, async () => {
    const { project, env } = cliProject('fanout-runaway-', { 'readme.txt': 'Project readme.\n' })
    const server = await serve({ respond: alwaysSpawn, recordRequests: false })
    const r = await runCli(['run', '-p', 'Spawn forever.', '--cwd', project, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], {
      env: env(server.url)
    })
    expect(r.code, r.stderr).toBe(1)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ is_error: true, limit: 'spawn_limit' })
    expect(out.error ?? out.result).toMatch(/kept starting subagents after its limit of 200 was reached/)
    expect(out.subagent_stats.spawned).toBe(200)
    expect(out.subagent_stats.refused.session_limit).toBeGreaterThanOrEqual(20)
  })
})
