// A model that always spawns (every turn of every agent starts more agents, in the background and in the
// foreground, and keeps trying once the limits refuse) is stopped by the limits and the runaway guards:
// the run ends, every agent with a status and a reason, and memory and transcripts stay bounded.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { alwaysSpawn } from '../testing/always-spawn-script'
import { closeFixtures, ends, makeFixture, starts } from '../testing/session-fixture'
import { SPAWN_REFUSALS_BEFORE_STOP } from '../runs/limits'

afterEach(closeFixtures)

const MB = 1024 * 1024

describe('an always-spawn run', () => {
  it('ends, every agent with a status and a reason, with memory and transcripts bounded', { timeout: 300_000 }, async () => {
    const f = await makeFixture({ respond: alwaysSpawn, recordRequests: false })
    global.gc?.()
    const rssBefore = process.memoryUsage().rss
    const result = await f.session.run('Spawn forever.')
    await f.session.idle()
    await f.session.flush()
    const rssGrowth = process.memoryUsage().rss - rssBefore
    const dir = join(f.dataDir, 'sessions', f.session.sessionId)
    const bytes = (d: string): number =>
      readdirSync(d, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? bytes(join(d, e.name)) : statSync(join(d, e.name)).size), 0)
    const onDisk = bytes(dir)
    const spawned = starts(f.events).filter((e) => e.depth > 0)
    const unique = new Set(spawned.map((e) => e.agentId))
    const endsByLimit = ends(f.events).filter((e) => e.limit)
    console.log(
      `always-spawn: ${unique.size} subagents, ${f.events.filter((e) => e.type === 'turn_start').length} turns, ${f.events.length} events, ${(onDisk / MB).toFixed(1)} MB on disk, RSS grew ${(rssGrowth / MB).toFixed(0)} MB; ended by a limit: ${endsByLimit.length} (${[...new Set(endsByLimit.map((e) => e.limit))].join(', ')})`
    )
    // The count cap held, nothing is left running, and every run that ended said how.
    expect(unique.size).toBeLessThanOrEqual(200)
    expect(f.session.unfinished()).toEqual([])
    for (const e of ends(f.events)) if (e.status !== 'completed') expect(e.error, `${e.agentId} ended ${e.status}`).toBeTruthy()
    // It stopped by itself, for a reason it names: the session's spawn budget, then the spawning kept on.
    expect(f.session.gate.totalSpawned).toBe(200)
    expect(f.session.gate.refused.session_limit).toBeGreaterThanOrEqual(SPAWN_REFUSALS_BEFORE_STOP)
    expect(endsByLimit.some((e) => e.limit === 'spawn_limit')).toBe(true)
    const lastMain = ends(f.events)
      .filter((e) => e.agentId === f.session.mainAgentId)
      .pop()!
    expect(f.session.lastResult ?? result).toMatchObject({ status: 'failed' })
    expect(lastMain.error).toMatch(/kept starting subagents after its limit of 200 was reached/)
    // Bounded work: every agent makes at most a few calls after the limit, not its 200-turn ceiling.
    const turns = f.events.filter((e) => e.type === 'turn_start').length
    expect(turns).toBeLessThan(2_000)
    expect(onDisk).toBeLessThan(60 * MB)
    expect(rssGrowth).toBeLessThan(600 * MB)
  })
})
