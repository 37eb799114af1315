// Nested spawns under every concurrency cap: a parent waiting on its foreground children gives them its
// slot, so a 5x5x5 tree (155 subagents) finishes whatever the cap, and never more agents run than it allows.
import { afterEach, describe, expect, it } from 'vitest'
import { closeFixtures, ends, makeFixture, starts } from '../testing/session-fixture'
import { spawnTreeScript as treeScript } from '../testing/spawn-tree-script'

afterEach(closeFixtures)

describe('a 5x5x5 spawn tree', () => {
  it('finishes under every concurrency cap from 1 to 20, never running more subagents than the cap', { timeout: 300_000 }, async () => {
    for (let cap = 1; cap <= 20; cap++) {
      let peak = 0
      const f = await makeFixture({ respond: treeScript() }, { limits: { maxConcurrent: cap }, dataDir: undefined })
      // Slots held (a parent waiting on its children holds none), as every event sees them.
      f.session.subscribe(() => (peak = Math.max(peak, f.session.gate.slots.running)))
      const result = await f.session.run('Split the work three levels deep.')
      await f.session.idle()
      expect(result, `cap ${cap}`).toMatchObject({ status: 'completed', result: '5 of 5 answered' })
      expect(
        starts(f.events).filter((e) => e.depth > 0),
        `cap ${cap}`
      ).toHaveLength(5 + 25 + 125)
      expect(
        ends(f.events).filter((e) => e.status !== 'completed'),
        `cap ${cap}`
      ).toEqual([])
      expect(peak, `cap ${cap}`).toBeLessThanOrEqual(cap)
      expect(f.session.unfinished(), `cap ${cap}`).toEqual([])
      await closeFixtures()
    }
  })
})
