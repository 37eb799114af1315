// The view of one agent as events fold into it, for the view model's tests: the main agent of session `s`,
// its events built on a manual clock, and `apply` folding some more and returning the agent as it reads now.
import type { AgentEvent } from '../events'
import { applyEvents } from '../view/reducer'
import { emptyEventsState, type EventsState } from '../view/session-state'
import { agentEvents, manualClock } from './event-builder'

export function mainAgentFold() {
  const clock = manualClock()
  const main = agentEvents('s', 'main', clock)
  let state: EventsState = emptyEventsState()
  const apply = (...events: AgentEvent[]) => {
    state = applyEvents(state, events)
    return state.sessions.s.agents.main
  }
  return { clock, main, apply }
}
