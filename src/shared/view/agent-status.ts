// An agent's status and the spans it spent waiting (queued, or on a permission request), which the
// timeline draws: entering a waiting status opens a span, leaving it closes the span.
import type { AgentStatus } from '../events'
import type { AgentState, WaitKind } from './session-state'

function waitKindOf(status: AgentStatus): WaitKind | null {
  return status === 'queued' ? 'queued' : status === 'waiting_permission' ? 'permission' : null
}

export function closeWaits(a: AgentState, ts: number): void {
  if (a.waits.some((w) => w.end === null)) a.waits = a.waits.map((w) => (w.end === null ? { ...w, end: ts } : w))
}

export function setStatus(a: AgentState, status: AgentStatus, ts: number): void {
  if (a.status === status) return
  closeWaits(a, ts)
  const kind = waitKindOf(status)
  if (kind) a.waits.push({ kind, start: ts, end: null })
  a.status = status
}
