// A reply as it streams: text and thinking deltas grow the agent's last item from `streamFrom` on, the
// end of a turn settles them, and an error that will be retried drops what its failed attempt streamed.
import type { ErrorEvent } from '../events'
import { endStream } from './inbox-reducer'
import type { SessionDraft } from './session-draft'
import type { AgentState } from './session-state'
import { pushItem } from './transcript-items'

export function beginStream(d: SessionDraft, a: AgentState): void {
  if (a.streamFrom === null) a.streamFrom = d.peekItems(a.id).length
}

export function appendDelta(d: SessionDraft, agentId: string, kind: 'text' | 'thinking', text: string, ts: number): void {
  // The agent is written only when a stream or an item begins; a delta that extends the last item
  // changes that item alone.
  if (d.peekAgent(agentId).streamFrom === null) beginStream(d, d.agent(agentId))
  const streamFrom = d.peekAgent(agentId).streamFrom!
  const items = d.peekItems(agentId)
  const last = items[items.length - 1]
  if (last && last.kind === kind && last.streaming && items.length - 1 >= streamFrom) {
    d.replaceItem(agentId, items.length - 1, { ...last, text: last.text + text })
  } else pushItem(d, d.agent(agentId), { kind, text, ts, streaming: true })
}

/** Marks the current turn's streamed text as final (a turn ended, or a stop cut the stream short). */
export function settleStreaming(d: SessionDraft, a: AgentState): void {
  // Streaming items exist only from `streamFrom` on (every delta opens the stream first), so only that
  // tail is scanned: scanning the whole transcript made each turn of a long replay cost O(items).
  if (a.streamFrom === null) return
  const items = d.peekItems(a.id)
  for (let i = items.length - 1; i >= a.streamFrom; i--) {
    const it = items[i]
    if ((it.kind === 'text' || it.kind === 'thinking') && it.streaming) d.replaceItem(a.id, i, { ...it, streaming: false })
    else if (it.kind === 'user') break
  }
  endStream(d, a)
}

export function agentError(d: SessionDraft, a: AgentState, e: ErrorEvent): void {
  // A notice (the Bash sandbox is unavailable, …) stops nothing: the agent has not failed, only been told.
  if (e.notice) return pushItem(d, a, { kind: 'notice', text: e.message, ts: e.ts })
  a.lastError = { message: e.message, retrying: e.retrying, ts: e.ts }
  if (e.retrying) {
    // The failed attempt's deltas are void: drop what was streamed for it.
    if (a.streamFrom !== null) {
      const dropped = d.items(a.id).splice(a.streamFrom)
      for (const it of dropped) {
        if (it.kind === 'tool' && d.peekTool(it.toolUseId)?.status === 'streaming') {
          d.deleteTool(it.toolUseId)
          a.toolIds = a.toolIds.filter((id) => id !== it.toolUseId)
        }
      }
      endStream(d, a)
    }
    const items = d.peekItems(a.id)
    const last = items[items.length - 1]
    if (last?.kind === 'error' && last.retrying) d.replaceItem(a.id, items.length - 1, { ...last, message: e.message, ts: e.ts })
    else {
      resolveRetry(d, a)
      pushItem(d, a, { kind: 'error', message: e.message, retrying: true, ts: e.ts })
      a.retryKey = d.peekItems(a.id).at(-1)!.key
    }
    return
  }
  // The final failure takes the place of "Retrying…": one message, the one that is true now.
  resolveRetry(d, a)
  a.error = e.message
  pushItem(d, a, { kind: 'error', message: e.message, retrying: false, ts: e.ts })
}

/**
 * The call a retry notice was about is over — it answered (a `usage` event), failed for good, or its
 * agent ended — so "Retrying in 4 s (attempt 2 of 9)" is no longer true: the notice goes.
 */
export function resolveRetry(d: SessionDraft, a: AgentState): void {
  if (a.retryKey === undefined) return
  const items = d.peekItems(a.id)
  // Near the end: only the retried call's own output (and deliveries) follow it.
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i].key !== a.retryKey) continue
    d.items(a.id).splice(i, 1)
    if (a.streamFrom !== null && a.streamFrom > i) a.streamFrom--
    break
  }
  a.retryKey = undefined
  if (a.lastError?.retrying) a.lastError = undefined
}
