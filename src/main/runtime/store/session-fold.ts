// A recorded session as the UI shows it: its transcripts' events folded by the UI's own reducer
// (src/shared/view), the way live batches are, so a reopened session and a live one always agree. The
// fold is checkpointed (view-checkpoint.ts): reopening reads the checkpoint while it is current.
import type { AgentEvent } from '../../../shared/events'
import { applyEvents } from '../../../shared/view/reducer'
import { emptyEventsState, emptySession, type SessionState } from '../../../shared/view/session-state'
import { openSession, type OpenedSession } from './open-session'
import type { RecordedEvent } from './transcript/migrations'
import { finalizeIndex, isTerminalStatus, type SessionIndex } from './session-index'
import { effectiveStatus, readSessionIndex, writerGone } from './session-index-file'
import { readViewCheckpoint, transcriptSizes, writeViewCheckpoint } from './view-checkpoint'

/** An event's place in time: its seq (microseconds; a transcript reader gives every event one). */
export const eventPlace = (e: RecordedEvent): number => e.seq

/**
 * Every agent's events as one sequence in the order they happened (ties keep each transcript's order).
 * A replay reads them with `skipSettledDeltas`, so the deltas a finished message repeats are already out.
 */
export function mergedEvents(o: OpenedSession): RecordedEvent[] {
  const all: RecordedEvent[] = []
  for (const t of Object.values(o.agents)) for (const e of t.events) all.push(e)
  return all.sort((a, b) => eventPlace(a) - eventPlace(b))
}

/**
 * The seq of each agent's last event on disk. Every event of an agent with a seq up to it is in the fold
 * (deltas left out were repeated by a later event); a live event above it is not yet.
 */
export function lastSeqs(o: OpenedSession): Record<string, number> {
  const seen: Record<string, number> = {}
  for (const [id, t] of Object.entries(o.agents)) {
    const last = t.events[t.events.length - 1]
    if (last) seen[id] = last.seq
  }
  return seen
}

/** The session as the UI shows it: its events folded by the UI's own reducer, as live batches are. */
export function foldSession(o: OpenedSession): SessionState {
  const id = o.index.sessionId
  return applyEvents(emptyEventsState(), mergedEvents(o)).sessions[id] ?? emptySession(id)
}

/**
 * A live session's fold joined to the events emitted while its transcripts were being read: those whose
 * agent's transcript did not reach them yet (above `seen`, see lastSeqs) are applied; the rest were read.
 */
export function joinLive(state: SessionState, during: readonly AgentEvent[], seen: Readonly<Record<string, number>>): SessionState {
  const late = during.filter((e) => e.seq === undefined || e.seq > (seen[e.agentId] ?? 0))
  if (!late.length) return state
  return applyEvents({ sessions: { [state.id]: state } }, late).sessions[state.id] ?? state
}

export interface ReplayOptions {
  /**
   * Use a current checkpoint, and checkpoint a replay (default). Off for a session still being written
   * in this process, whose transcripts are about to grow.
   */
  checkpoint?: boolean
  /** Replay even when the checkpoint is current, and wait for the new one to be written (a recorder closing). */
  refresh?: boolean
}

export interface Replayed {
  index: SessionIndex
  state: SessionState
  /** Read from the transcripts (not a checkpoint): each agent's last seq in them (see lastSeqs). */
  seen?: Record<string, number>
}

/** A session's index (with its status as of now) and its folded state. Throws SessionNotFoundError. */
export async function replaySession(dataDir: string, sessionId: string, opts: ReplayOptions = {}): Promise<Replayed> {
  const checkpoint = opts.checkpoint ?? true
  if (checkpoint && !opts.refresh) {
    const cp = await readViewCheckpoint<SessionState>(dataDir, sessionId)
    const index = cp ? await withCurrentStatus(dataDir, cp.index) : null
    // A checkpoint folded while agents ran is stale once their writer is gone: the replay closes their runs.
    if (cp && index && !(writerGone(index.writer) && Object.values(cp.index.agents).some((a) => !isTerminalStatus(a.status)))) return { index, state: cp.state }
  }
  // Sizes before reading: the fold covers at least these bytes, so a checkpoint never claims more.
  const sizes = checkpoint ? await transcriptSizes(dataDir, sessionId) : {}
  const opened = await openSession(dataDir, sessionId, { skipSettledDeltas: true })
  const state = foldSession(opened)
  if (checkpoint) {
    const write = () => writeViewCheckpoint(dataDir, sessionId, { sizes, index: opened.index, state }).catch(() => undefined)
    // Serializing a long session takes ~100 ms: after the caller has answered with the state, not before.
    if (opts.refresh) await write()
    else setImmediate(() => void write())
  }
  return { index: opened.index, state, seen: lastSeqs(opened) }
}

/** Whether the session's writer is still at work is a fact of now, not of when the checkpoint was written. */
async function withCurrentStatus(dataDir: string, index: SessionIndex): Promise<SessionIndex> {
  const stored = await readSessionIndex(dataDir, index.sessionId).catch(() => null)
  const now = { ...index, writer: stored ? stored.writer : index.writer }
  finalizeIndex(now)
  now.status = effectiveStatus(now)
  return now
}
