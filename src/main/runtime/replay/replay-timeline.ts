// A recorded session as a timeline to replay: every line of every transcript (deltas included, which a
// reopened view leaves out once their message repeats them) in the order they happened, cut into steps,
// and folded by the UI's own reducer (src/shared/view) up to any moment, so a frame is the live view at
// that seq, not a picture of it.
//
// A step ends where the live view was whole: a transcript line that merged several deltas
// (store/transcript/format.ts mergeDeltas, `firstSeq`..`seq`) was shown a piece at a time while other agents'
// events came in between; the moments inside it are not in the record, so no frame stops there.
import type { RecordedEvent } from '../store/transcript/migrations'
import type { ReplayMark, ReplayTimeline } from '../../../shared/search-replay-contract'
import { applyEvents } from '../../../shared/view/reducer'
import { emptySession, type SessionState } from '../../../shared/view/session-state'
import { openSession } from '../store/open-session'
import { eventPlace, mergedEvents } from '../store/session-fold'

const MAX_MARKS = 4000
const ACTIVITY_SLICES = 240

export class ReplaySession {
  /** Every event in place order. */
  readonly events: RecordedEvent[]
  /** ends[i]: the index just past the last event of step i (steps are contiguous from 0). */
  private readonly ends: number[]
  /** Each step's place (its last event's). */
  private readonly places: number[]
  /** Folded states at the end of every `every`-th step, built as frames ask for them. */
  private readonly keyframes = new Map<number, SessionState>()
  private readonly every: number

  private constructor(
    readonly sessionId: string,
    events: RecordedEvent[]
  ) {
    this.events = events
    const { ends, places } = steps(events)
    this.ends = ends
    this.places = places
    // About a hundred keyframes whatever the length: a frame folds at most `every` steps from the nearest.
    this.every = Math.max(500, Math.ceil(ends.length / 100))
  }

  static async load(dataDir: string, sessionId: string): Promise<ReplaySession> {
    const opened = await openSession(dataDir, sessionId)
    return new ReplaySession(sessionId, mergedEvents(opened))
  }

  static fromEvents(sessionId: string, events: RecordedEvent[]): ReplaySession {
    return new ReplaySession(
      sessionId,
      [...events].sort((a, b) => eventPlace(a) - eventPlace(b))
    )
  }

  get stepCount(): number {
    return this.ends.length
  }

  timeline(): ReplayTimeline {
    const ev = this.events
    const startTs = ev.length ? Math.min(...ev.slice(0, 50).map((e) => e.ts)) : 0
    let endTs = startTs
    for (const e of ev) if (e.ts > endTs) endTs = e.ts
    const marks: ReplayMark[] = []
    const labels = new Map<string, string>()
    for (const e of ev) {
      if (e.type === 'agent_start') labels.set(e.agentId, `${e.agentType}${e.description ? `: ${e.description}` : ''}`)
      const mark = markOf(e, labels.get(e.agentId) ?? e.agentId)
      if (mark && marks.length < MAX_MARKS) marks.push(mark)
    }
    const activity = new Array<number>(ACTIVITY_SLICES).fill(0)
    const span = Math.max(1, endTs - startTs)
    for (const e of ev) activity[Math.min(ACTIVITY_SLICES - 1, Math.floor(((e.ts - startTs) / span) * ACTIVITY_SLICES))]++
    return {
      sessionId: this.sessionId,
      events: ev.length,
      firstSeq: this.places[0] ?? 0,
      lastSeq: this.places[this.places.length - 1] ?? 0,
      startTs,
      endTs,
      marks,
      activity
    }
  }

  /** The last step whose place is at or before `at`; -1 before the first. */
  stepAt(at: number): number {
    let lo = 0
    let hi = this.places.length - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (this.places[mid] <= at) {
        found = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    return found
  }

  /** The session as the live view showed it once step `step` was applied (an empty session before step 0). */
  frame(step: number): { state: SessionState; seq: number; ts: number } {
    if (step < 0) return { state: emptySession(this.sessionId), seq: 0, ts: this.events[0]?.ts ?? 0 }
    const k = Math.floor((step + 1) / this.every)
    let state = this.keyframe(k)
    const from = k ? this.ends[k * this.every - 1] : 0
    state = this.fold(state, from, this.ends[step])
    const last = this.events[this.ends[step] - 1]
    return { state, seq: this.places[step], ts: last.ts }
  }

  /** Up to `limit` steps after place `after`, each a list of events to apply together. */
  stepsAfter(after: number, limit: number): { steps: RecordedEvent[][]; done: boolean } {
    const first = this.stepAt(after) + 1
    const out: RecordedEvent[][] = []
    for (let s = first; s < this.ends.length && out.length < limit; s++) out.push(this.events.slice(s ? this.ends[s - 1] : 0, this.ends[s]))
    return { steps: out, done: first + out.length >= this.ends.length }
  }

  /** The state after the first k * every steps, from the nearest keyframe before it. */
  private keyframe(k: number): SessionState {
    if (k === 0) return emptySession(this.sessionId)
    const have = this.keyframes.get(k)
    if (have) return have
    let j = k - 1
    while (j > 0 && !this.keyframes.has(j)) j--
    let state = j ? this.keyframes.get(j)! : emptySession(this.sessionId)
    for (let i = j + 1; i <= k; i++) {
      state = this.fold(state, this.ends[(i - 1) * this.every - 1] ?? 0, this.ends[i * this.every - 1])
      this.keyframes.set(i, state)
    }
    return state
  }

  private fold(state: SessionState, from: number, to: number): SessionState {
    if (to <= from) return state
    // In slices: one copy of each touched map per slice, as live batches make.
    const SLICE = 2000
    for (let i = from; i < to; i += SLICE) {
      const batch = this.events.slice(i, Math.min(to, i + SLICE))
      state = applyEvents({ sessions: { [this.sessionId]: state } }, batch).sessions[this.sessionId] ?? state
    }
    return state
  }
}

function markOf(e: RecordedEvent, label: string): ReplayMark | null {
  const at = { seq: eventPlace(e), ts: e.ts, agentId: e.agentId, label }
  switch (e.type) {
    case 'agent_start':
      return { ...at, kind: 'start' }
    case 'agent_end':
      return { ...at, kind: e.status === 'failed' ? 'error' : 'end' }
    case 'permission_request':
      return { ...at, kind: 'permission', label: `${label} asks to use ${e.toolName}` }
    case 'error':
      return e.retrying ? null : { ...at, kind: 'error', label: `${label}: ${e.message.slice(0, 120)}` }
    case 'phase':
      return { ...at, kind: 'phase', label: `Phase: ${e.phase}` }
    default:
      return null
  }
}

/**
 * Steps: runs of events after which the live view was whole. A place is inside a merged line when that
 * line's first delta came before it and its last after it (firstSeq <= place < seq): no step ends there.
 */
export function steps(events: readonly RecordedEvent[]): { ends: number[]; places: number[] } {
  const spans = events
    .filter((e) => e.firstSeq !== undefined && e.firstSeq < e.seq)
    .map((e) => [e.firstSeq!, e.seq] as const)
    .sort((a, b) => a[0] - b[0])
  const ends: number[] = []
  const places: number[] = []
  let next = 0
  // Ends of the spans begun so far, to know whether any is still open.
  let openUntil = -Infinity
  for (let i = 0; i < events.length; i++) {
    const place = eventPlace(events[i])
    while (next < spans.length && spans[next][0] <= place) openUntil = Math.max(openUntil, spans[next++][1])
    const following = i + 1 < events.length ? eventPlace(events[i + 1]) : Infinity
    // Events at one place (old transcripts without seq) go together.
    if (place >= openUntil && following !== place) {
      ends.push(i + 1)
      places.push(place)
    }
  }
  return { ends, places }
}
