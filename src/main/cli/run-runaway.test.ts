// `fanout run` with a model that spawns on every turn of every agent, under the default limits: the run stops
// by itself, says why (the session's spawn limit), and exits non-zero — it never runs on until it is killed.
import { describe, expect, it } from 'vitest'
import { cliProject, runCli, useCliServers } from '../../../test/support/cli'
import { reply, type ParsedRequest } from '../runtime/model/scripted'

const serve = useCliServers()

function alwaysSpawn(req: ParsedRequest) {
  if (!req.toolNames.includes('Agent')) return reply.text(`leaf: ${req.firstUserText}`)
  const n = req.turn
  return reply.toolUses([
    { name: 'Agent', input: { description: `bg ${n}a`, prompt: `Spawn more ${n}a`, run_in_background: true } },
    { name: 'Agent', input: { description: `bg ${n}b`, prompt: `Spawn more ${n}b`, run_in_background: true } },
    { name: 'Agent', input: { description: `fg ${n}`, prompt: `Spawn more ${n}c` } },
    { name: 'Glob', input: { pattern: '*' } }
  ])
}

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
