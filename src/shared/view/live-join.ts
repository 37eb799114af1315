// Joining a reopened session to the live events that arrived while its view was on its way: the view
// holds some of them already. A live session's view says up to which seq it holds events (sessions.open
// `upTo`); a stored one can only be compared by time.
import type { AgentEvent } from '../events'
import type { SessionState } from './session-state'

export function eventsAfter(held: readonly AgentEvent[], view: Pick<SessionState, 'lastEventTs'>, upTo: number | undefined): AgentEvent[] {
  if (upTo === undefined) return held.filter((e) => e.ts > view.lastEventTs)
  // An event without a seq never reaches a transcript (the host's word that a run could not start).
  return held.filter((e) => e.seq === undefined || e.seq > upTo)
}
