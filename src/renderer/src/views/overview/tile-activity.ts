// What a tile says an agent is doing now, in order of what matters to the person: a permission it waits on,
// the model it waits on, the tool it runs (or is writing the call for), the text it is writing, or — ended —
// its result or what went wrong.
import { waitingForModelSince } from '../../../../shared/view/model-wait'
import type { AgentState, PermissionState, ToolCall, TranscriptItem } from '../../../../shared/view/session-state'
import { plainPreview, plainTail } from '../../lib/plain-preview'
import { toolSummary } from '../../lib/tool-summary'

export type Activity =
  | { kind: 'permission'; tool: string; summary: string }
  | { kind: 'model' }
  | { kind: 'queued'; why: string }
  | { kind: 'tool'; tool: string; summary: string; running: boolean }
  | { kind: 'text'; text: string; thinking: boolean }
  | { kind: 'result'; text: string; error: boolean }
  | { kind: 'note'; text: string; warn: boolean }
  | { kind: 'idle' }

/**
 * Why a queued agent waits, for people: for a free agent slot (before it starts), or for the API's rate
 * limits (model/rate-limiter.ts says why in the status detail).
 */
export function queuedWhy(a: Pick<AgentState, 'statusDetail'>): string {
  const d = a.statusDetail
  return d && !/agent slots/.test(d) ? `Queued: ${d}…` : 'Waiting for a free slot…'
}

/** How much of the newest text a tile keeps at most: about four lines of its widest form. */
export const TEXT_TAIL = 220

export function tileActivity(
  a: AgentState,
  last: TranscriptItem | undefined,
  lastTool: ToolCall | undefined,
  current: ToolCall | undefined,
  request: PermissionState | undefined,
  /** How much of the newest text to keep (tileTextChars): what the tile can show, and a line more. */
  textChars = TEXT_TAIL
): Activity {
  if (request) return { kind: 'permission', tool: request.toolName, summary: toolSummary(request.toolName, request.input) }
  if (a.status === 'queued') return { kind: 'queued', why: queuedWhy(a) }
  if (a.endedAt !== null) {
    const error = a.status === 'failed' || a.status === 'interrupted' || a.status === 'max_turns'
    const text = (error ? (a.error ?? a.statusDetail) : undefined) ?? a.result ?? ''
    return { kind: 'result', text: plainPreview(text, 240), error: error && !!(a.error ?? a.statusDetail) }
  }
  if (waitingForModelSince(a) !== null) return { kind: 'model' }
  if (current) return { kind: 'tool', tool: current.name, summary: toolSummary(current.name, current.input, current.inputJson), running: true }
  if (last?.kind === 'tool' && lastTool && (lastTool.status === 'streaming' || lastTool.status === 'pending' || lastTool.status === 'running'))
    return {
      kind: 'tool',
      tool: lastTool.name,
      summary: toolSummary(lastTool.name, lastTool.input, lastTool.inputJson),
      running: lastTool.status === 'running'
    }
  if (last?.kind === 'text' || last?.kind === 'thinking') return { kind: 'text', text: plainTail(last.text, textChars), thinking: last.kind === 'thinking' }
  if (last?.kind === 'tool' && lastTool)
    return { kind: 'tool', tool: lastTool.name, summary: toolSummary(lastTool.name, lastTool.input, lastTool.inputJson), running: false }
  // A retry under way, a notice (the sandbox is unavailable), a message it received: said as they are.
  if (last?.kind === 'error') return { kind: 'note', text: last.message, warn: true }
  if (last?.kind === 'notice') return { kind: 'note', text: last.text, warn: false }
  if (last?.kind === 'inbox') return { kind: 'note', text: `Message from ${last.fromName ?? last.from}`, warn: false }
  return { kind: 'idle' }
}

/**
 * How many characters of the newest text fill a tile of this size, with a line to spare: the tile shows
 * only its last whole lines (bottom-aligned, the older ones clipped above), so text beyond that is laid out
 * at every delta for nothing — at 64 tiles a frame, most of a frame's layout. Counted at 4 px a character,
 * below the average width of words and spaces at the tile's 11-12 px, so the text always wraps to more
 * lines than the tile shows and its cut start ("…") stays out of sight. Sizes as the tile's CSS
 * (overview.css: border, padding, head and figures, line height).
 */
export function tileTextChars(width: number, rowHeight: number, compact: boolean): number {
  const inner = rowHeight - 2 - (compact ? 7 : 11)
  const lineHeight = compact ? 15 : 16
  const lines = Math.max(1, Math.floor((inner - (compact ? 33 : 38)) / lineHeight))
  const perLine = Math.ceil(Math.max(0, width - 2 - (compact ? 16 : 20)) / 4)
  return Math.max(40, Math.min(TEXT_TAIL, (lines + 1) * perLine))
}
