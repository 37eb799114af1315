// Nested spawns under every concurrency cap: a parent waiting on its foreground children gives them its
// slot, so a 5x5x5 tree (155 subagents) finishes whatever the cap, and never more agents run than it allows.
import { afterEach, describe, expect, it } from 'vitest'
import type { ParsedRequest } from '../model/scripted'
import { reply, scriptByAgent } from '../model/scripted'
import { closeFixtures, ends, makeFixture, starts } from './testing/session-fixture'

afterEach(closeFixtures)

const WIDTH = 5

/** Every agent above the leaves starts WIDTH children at once, then reports how many answered. */
function treeScript() {
  const spawnAll = (req: ParsedRequest, prefix: string) =>
    reply.toolUses(Array.from({ length: WIDTH }, (_, i) => ({ name: 'Agent', input: { description: `${prefix}${i}`, prompt: `Task ${prefix}${i}`, subagent_type: 'general-purpose' } })))
  const report = (req: ParsedRequest) => reply.text(`${req.toolResults.filter((r) => !r.isError).length} of ${req.toolResults.length} answered`)
  const level = (req: ParsedRequest) => /^Task (\d*)$/.exec(req.firstUserText)?.[1] ?? null
  return scriptByAgent([
    {
      name: 'subagent',
      match: (req) => level(req) !== null,
      turns: [
        (req) => {
          const path = level(req)!
          return path.length < 3 ? spawnAll(req, path) : reply.text(`leaf ${path} done`)
        },
        (req) => report(req)
      ]
    },
    { name: 'main', match: 'lead agent in Fanout', turns: [(req) => spawnAll(req, ''), report] }
  ])
}

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
      expect(starts(f.events).filter((e) => e.depth > 0), `cap ${cap}`).toHaveLength(5 + 25 + 125)
      expect(ends(f.events).filter((e) => e.status !== 'completed'), `cap ${cap}`).toEqual([])
      expect(peak, `cap ${cap}`).toBeLessThanOrEqual(cap)
      expect(f.session.unfinished(), `cap ${cap}`).toEqual([])
      await closeFixtures()
    }
  })
})
