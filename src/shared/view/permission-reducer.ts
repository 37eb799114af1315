// Permission requests: queued when asked, marked with the answer (or expired, when their agent ended or
// nobody is left to answer) and taken off the queue; the requesting agent waits while any of its own wait.
import type { PermissionChoice } from '../permission-answer'
import type { PermissionRequestEvent, PermissionResponseEvent } from '../events'
import { setStatus } from './agent-status'
import { SessionDraft } from './session-draft'
import type { AgentState, EventsState } from './session-state'
import { pushItem } from './transcript-items'

export function permissionRequest(d: SessionDraft, e: PermissionRequestEvent): void {
  if (d.state.permissions[e.requestId]) return
  d.putPermission({
    requestId: e.requestId,
    sessionId: e.sessionId,
    agentId: e.agentId,
    requestingAgentId: e.requestingAgentId,
    toolName: e.toolName,
    toolUseId: e.toolUseId,
    input: e.input,
    reason: e.reason,
    suggestedRules: e.suggestedRules ?? [],
    ...(e.commandParts ? { commandParts: e.commandParts } : {}),
    ...(e.previousText !== undefined ? { previousText: e.previousText } : {}),
    ts: e.ts
  })
  d.queue().push(e.requestId)
  const requester = d.hasAgent(e.requestingAgentId) ? d.agent(e.requestingAgentId) : null
  if (requester) setStatus(requester, 'waiting_permission', e.ts)
  if (e.toolUseId && d.hasTool(e.toolUseId)) d.tool(e.toolUseId).permissionRequestId = e.requestId
}

export function expirePermission(d: SessionDraft, requestId: string, ts: number, decision?: PermissionChoice): void {
  const p = d.permission(requestId)
  if (!p) return
  p.decision = decision ?? 'expired'
  p.respondedAt = ts
  const q = d.queue()
  const i = q.indexOf(requestId)
  if (i !== -1) q.splice(i, 1)
  if (p.toolUseId && d.hasTool(p.toolUseId) && d.peekTool(p.toolUseId)!.permissionRequestId === requestId) d.tool(p.toolUseId).permissionRequestId = undefined
}

export function permissionResponse(d: SessionDraft, e: PermissionResponseEvent): void {
  const p = d.state.permissions[e.requestId]
  if (!p) return
  const requester = settleRequest(d, e.requestId, e.ts, e.decision)
  // What the person said goes with the answer, in the record and the conversation (a replay shows it too).
  const answered = e.feedback ? d.permission(e.requestId) : undefined
  if (answered) answered.feedback = e.feedback
  const said = e.feedback ? ` — you said: “${e.feedback}”` : ''
  if (requester && e.decision === 'deny')
    pushItem(d, requester, { kind: 'notice', text: `Denied ${p.toolName}${e.reason ? `: ${e.reason}` : ''}${said}`, ts: e.ts })
  else if (requester && said) pushItem(d, requester, { kind: 'notice', text: `Allowed ${p.toolName}${said}`, ts: e.ts })
}

/** Takes a request off the queue (answered, or gone unseen) and lets its agent run once none of its own waits; returns that agent if known. */
export function settleRequest(d: SessionDraft, requestId: string, ts: number, decision?: PermissionChoice): AgentState | null {
  const p = d.state.permissions[requestId]
  if (!p) return null
  expirePermission(d, requestId, ts, decision)
  if (!d.hasAgent(p.requestingAgentId)) return null
  const stillWaiting = d.state.permissionQueue.some((id) => d.state.permissions[id].requestingAgentId === p.requestingAgentId)
  const requester = d.agent(p.requestingAgentId)
  if (!stillWaiting && requester.status === 'waiting_permission') setStatus(requester, 'running', ts)
  return requester
}

/**
 * A session replayed after its writer went away (restart, crash) can hold requests nobody can answer
 * any more: mark them expired so the queue shows only what is really waiting.
 */
export function expireWaitingRequests(state: EventsState, sessionId: string, ts: number): EventsState {
  const session = state.sessions[sessionId]
  if (!session?.permissionQueue.length) return state
  const d = new SessionDraft(session)
  for (const id of [...session.permissionQueue]) expirePermission(d, id, ts)
  for (const id of session.agentOrder) if (session.agents[id].status === 'waiting_permission') setStatus(d.agent(id), 'running', ts)
  return { ...state, sessions: { ...state.sessions, [sessionId]: d.finish() } }
}
