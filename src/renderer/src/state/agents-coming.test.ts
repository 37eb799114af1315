// The overview lays out a fan-out for every agent its Agent calls are about to start, not only those started.
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { applyEvents } from '../../../shared/view/reducer'
import { emptyEventsState } from '../../../shared/view/session-state'
import { agentsComing } from './selectors'

const S = 's1'

describe('agentsComing', () => {
  it('counts Agent calls whose agent has not started, and none once each started or its call failed', () => {
    const clock = manualClock()
    const main = agentEvents(S, 'main', clock)
    const sub = (id: string) => agentEvents(S, id, clock, { agentId: 'main', toolUseId: `tu-${id}` })
    const calls: AgentEvent[] = ['a', 'b', 'c', 'd'].flatMap((id) => [
      main.toolStart(`tu-${id}`, 'Agent'),
      main.toolRun(`tu-${id}`, 'Agent', { description: id, prompt: id })
    ])
    let state = applyEvents(emptyEventsState(), [main.start(), main.toolStart('tu-read', 'Read'), ...calls])
    expect(agentsComing(state.sessions[S])).toBe(4)
    state = applyEvents(state, [sub('a').start(), sub('b').start()])
    expect(agentsComing(state.sessions[S])).toBe(2)
    state = applyEvents(state, [main.toolEnd('tu-c', 'Agent', 'refused', { isError: true }), sub('d').start()])
    expect(agentsComing(state.sessions[S])).toBe(0)
    expect(agentsComing(undefined)).toBe(0)
  })
})
