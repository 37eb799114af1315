// After a crash, a follow-up prompt to a reopened session: the main agent learns which of its subagents
// were cut off (they will never report), once, and the person does not see that note as their words.
import { afterEach, describe, expect, it } from 'vitest'
import { applyEvents } from '../../../../shared/view/reducer'
import { emptyEventsState } from '../../../../shared/view/session-state'
import { reply } from '../../model/scripted'
import { agentReached, closeFixtures, latch, makeFixture } from '../testing/session-fixture'
import { heldUntil, mainAgent, scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

describe('subagents a crash cut off', () => {
  it('are named to the main agent with the next prompt, as not running, and only once', async () => {
    const hold = latch()
    const f = await makeFixture([
      // Never answers: the crash comes first.
      scriptedAgent('mapper', 'Map the callers', [heldUntil(hold, reply.text('unreachable'))]),
      mainAgent(
        [
          reply.toolUse('Agent', { description: 'Map callers', prompt: 'Map the callers', run_in_background: true }),
          reply.text('It is mapping in the background.')
        ],
        (req) => reply.text(`seen: ${req.lastUserText}`)
      )
    ])
    const { session: s1, events: events1 } = await f.newSession()
    await s1.run('Map the parser callers.')
    const mapper = await agentReached(s1, events1, 'Map callers', 'turn_start')
    // The crash: a copy of what is on disk, whose writer is gone.
    const crashed = await f.crashCopy(s1)
    hold.open()

    const { session: s2, events: events2 } = await f.openSession(s1.sessionId, crashed)
    const first = await s2.run('What did it find?')
    expect(first.result).toContain('What did it find?')
    expect(first.result).toContain(`${mapper.id} (general-purpose: Map callers)`)
    expect(first.result).toMatch(/Not running, so no report will come from them:\n- \w+ \(general-purpose: Map callers\): it was not restarted/)
    // The prompt stays the run's label and the person's words; the note is not shown as theirs.
    const start = events2.find((e) => e.type === 'agent_start' && e.parentAgentId === null)!
    expect(start).toMatchObject({ description: 'What did it find?' })
    const view = applyEvents(emptyEventsState(), events2).sessions[s2.sessionId]
    const said = view.items[s2.mainAgentId].filter((i) => i.kind === 'user').map((i) => (i.kind === 'user' ? i.text : ''))
    expect(said).toEqual(['What did it find?'])

    const second = await s2.run('Anything else?')
    expect(second.result).toBe('seen: Anything else?')
  })
})
