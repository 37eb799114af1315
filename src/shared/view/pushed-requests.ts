// Requests of a session whose history this window does not hold, as its host pushes them with the
// session's row: the permission queue lists and answers them without opening the session.
import type { AgentStartEvent, PermissionRequestEvent } from '../events'
import { settleRequest } from './permission-reducer'
import { applyEvents } from './reducer'
import { SessionDraft } from './session-draft'
import type { EventsState } from './session-state'

/**
 * Keeps a session to the requests its host says wait: new ones queued with the agents that ask (those not
 * known yet), ones no longer waiting (answered elsewhere, their agent gone) taken off. Returns `state` itself
 * when nothing changes.
 */
export function syncPushedRequests(
  state: EventsState,
  sessionId: string,
  pushed: { requests: PermissionRequestEvent[]; agents: AgentStartEvent[] } | undefined,
  ts: number
): EventsState {
  const session = state.sessions[sessionId]
  const waiting = new Set(pushed?.requests.map((r) => r.requestId))
  const fresh = pushed?.requests.filter((r) => !session?.permissions[r.requestId]) ?? []
  const gone = (session?.permissionQueue ?? []).filter((id) => !waiting.has(id))
  if (!fresh.length && !gone.length) return state
  let next = fresh.length ? applyEvents(state, [...(pushed?.agents ?? []).filter((a) => !session?.agents[a.agentId]), ...fresh]) : state
  if (gone.length) {
    const d = new SessionDraft(next.sessions[sessionId])
    for (const id of gone) settleRequest(d, id, ts)
    next = { ...next, sessions: { ...next.sessions, [sessionId]: d.finish() } }
  }
  return next
}
