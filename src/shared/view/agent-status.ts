// An agent's status and the spans it spent waiting (queued, on a permission request, on the model), which
// the timeline draws: entering a waiting status opens a span, leaving it closes the span. Waiting on the
// model is not a status (the agent is running): model-wait.ts opens and closes those spans.
import type { AgentStatus } from '../events'
import type { AgentState, WaitKind, WaitSpan } from './session-state'

function waitKindOf(status: AgentStatus): WaitKind | null {
  return status === 'queued' ? 'queued' : status === 'waiting_permission' ? 'permission' : null
}

/** What the agent waits on now: its last span, when still open. */
export function openWait(a: Pick<AgentState, 'waits'>): WaitSpan | undefined {
  const last = a.waits[a.waits.length - 1]
  return last && last.end === null ? last : undefined
}

export function closeWaits(a: AgentState, ts: number): void {
  // Open spans are at the end (a span opens after the one before it closed): look there only, so a long
  // run's hundreds of closed model waits are not scanned at every status change.
  let i = a.waits.length - 1
  while (i >= 0 && a.waits[i].end === null) i--
  if (i === a.waits.length - 1) return
  a.waits = [...a.waits.slice(0, i + 1), ...a.waits.slice(i + 1).map((w) => ({ ...w, end: Math.max(w.start, ts) }))]
}

export function setStatus(a: AgentState, status: AgentStatus, ts: number): void {
  if (a.status === status) return
  closeWaits(a, ts)
  const kind = waitKindOf(status)
  if (kind) a.waits.push({ kind, start: ts, end: null })
  a.status = status
}
