// The transcript file format, as this Fanout writes it: a versioned header line, then one AgentEvent per
// line (schema.ts says what each version's lines must be; migrations.ts how older ones are read).
// Consecutive streaming deltas of one agent may be folded into one line when written; a reader sees
// exactly the same text, in fewer, larger events.
//
// Appending to an older file: the recorder appends to a transcript whatever version its header names,
// and never rewrites it. That is safe while every migration only fills in what older lines lack (v1 -> v2
// adds `seq` where missing; today's lines always carry it), so lines written now are valid lines of every
// older version, and a reader migrates the whole file alike. It keeps a session's files append-only:
// a crash mid-migration cannot lose history, and a process following the session (the app, read-only)
// never sees a file replaced under it. A migration that changes what a line means must instead rewrite
// the file (atomic-file.ts, under the session's lock) before the first append.
import type { AgentEvent } from '../../../../shared/events'
import { TRANSCRIPT_VERSION } from './migrations'

export { TRANSCRIPT_VERSION }

export interface TranscriptHeader {
  type: 'header'
  version: number
  agentId: string
  sessionId: string
  parentAgentId: string | null
  /** Milliseconds since the epoch, like event timestamps. */
  createdAt: number
}

export function makeHeader(event: Pick<AgentEvent, 'agentId' | 'sessionId' | 'parentAgentId' | 'ts'>): TranscriptHeader {
  return {
    type: 'header',
    version: TRANSCRIPT_VERSION,
    agentId: event.agentId,
    sessionId: event.sessionId,
    parentAgentId: event.parentAgentId,
    createdAt: event.ts
  }
}

/**
 * Folds `next` into `prev` when both are deltas of the same stream (text, thinking, or one tool call's
 * input JSON) of the same agent. The merged event keeps `prev`'s timestamp (when the stream started).
 * Never mutates an event it did not make: the same event objects also go to the UI.
 */
export function mergeDeltas(prev: AgentEvent, next: AgentEvent): AgentEvent | null {
  if (prev.type !== next.type || prev.agentId !== next.agentId) return null
  if (prev.type === 'tool_input_delta' && next.type === 'tool_input_delta' && prev.toolUseId !== next.toolUseId) return null
  if (prev.type !== 'text_delta' && prev.type !== 'thinking_delta' && prev.type !== 'tool_input_delta') return null
  // The merged line keeps its first delta's time and takes its last one's place in the stream (seq); it
  // remembers its first one's (firstSeq), so a replay knows the moments inside it the live view saw.
  // The first merge copies (the event itself is shared with the bus's other listeners); later merges grow
  // that copy in place, so a long reply costs no object per delta on its way to the transcript.
  const line = (merged.has(prev) ? prev : { ...prev }) as typeof prev
  const first = prev.firstSeq ?? prev.seq
  if (next.seq !== undefined) {
    line.seq = next.seq
    if (first !== undefined) line.firstSeq = first
  }
  if (line.type === 'tool_input_delta') line.partialJson += (next as typeof line).partialJson
  else line.text += (next as typeof line).text
  merged.add(line)
  return line
}

/** Lines mergeDeltas made: owned by the transcript writer's batch, so they may grow in place. */
const merged = new WeakSet<AgentEvent>()

/**
 * What an event does to the streamed deltas of the reply before it (the UI's reducer decides so): an
 * assistant `message` repeats them in full and a retrying `error` voids them ('replaced'); a user message,
 * the turn's or the run's end settles them as they are ('kept': a reply that failed half-way has no other
 * record). null: the reply may still be streaming.
 */
export function streamEnd(e: AgentEvent): 'replaced' | 'kept' | null {
  switch (e.type) {
    case 'message':
      return e.message.role === 'assistant' ? 'replaced' : 'kept'
    case 'error':
      return e.retrying ? 'replaced' : null
    case 'turn_end':
    case 'agent_end':
      return 'kept'
    default:
      return null
  }
}
