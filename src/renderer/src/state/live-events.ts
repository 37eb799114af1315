// Live event batches from the host, folded into the store: once per animation frame, held while the
// session they belong to is being opened, and kept off a session shown as a replay frame.
import type { AgentEvent } from '../../../shared/events'
import { applyEvents } from '../../../shared/view/reducer'
import { get, set } from './app-state'
import { setFromEvents } from './agent-subscriptions'
import { recordStreamed, resetStreamTails } from './stream-tails'
import { newTextCadence, takeDueEvents } from './text-cadence'

// Live batches are folded into the store once per animation frame, however many arrived since the last
// one: when the page falls behind, the batches that queued up cost one render instead of one each, so
// it catches up rather than falling further behind. Order is kept (one queue), so a status change still
// lands with the text before it; an agent's streamed text is drawn at the next frame, its model call's
// figures in turns with other agents' (text-cadence.ts). A timer stands in when frames stop (a hidden
// window), so the state — and the notifications it drives — keep up. Without frames at all (tests),
// batches apply at once.
const HIDDEN_FLUSH_MS = 100
let pending: AgentEvent[] = []
/** What else waits for the frame, by key, the newest per key: session rows the host pushed (atNextFrame). */
const atFrame = new Map<string, () => void>()
let scheduled: { frame: number; timer: ReturnType<typeof setTimeout> } | null = null
let cadence = newTextCadence()

export function receiveEvents(batch: AgentEvent[]): void {
  if (typeof requestAnimationFrame !== 'function') return applyLive(batch)
  for (const e of batch) pending.push(e)
  schedule()
}

/**
 * Runs `apply` at the next frame that applies live events (before them), or at once without frames (tests); a
 * newer one with the same key takes its place. The host sends a session's row again at each change it shows
 * (an agent starting or ending, a model call's cost): 64 agents' calls ending together were 64 store updates,
 * and as many renders of every view, in one frame; this way they are one, the newest row.
 */
export function atNextFrame(key: string, apply: () => void): void {
  if (typeof requestAnimationFrame !== 'function') return apply()
  atFrame.set(key, apply)
  schedule()
}

function runAtFrame(): void {
  if (!atFrame.size) return
  const due = [...atFrame.values()]
  atFrame.clear()
  for (const apply of due) apply()
}

function schedule(): void {
  if (!scheduled) scheduled = { frame: requestAnimationFrame(onFrame), timer: setTimeout(onFrame, HIDDEN_FLUSH_MS) }
}

function cancelScheduled(): void {
  if (!scheduled) return
  cancelAnimationFrame(scheduled.frame)
  clearTimeout(scheduled.timer)
  scheduled = null
}

function onFrame(): void {
  cancelScheduled()
  runAtFrame()
  if (!pending.length) return
  const { due, later } = takeDueEvents(pending, cadence, performance.now())
  pending = later
  if (later.length) schedule()
  if (due.length) applyLive(due)
}

/** Applies every live event received so far, text kept for the next frame included (before a replay is merged). */
export function flushEvents(): void {
  cancelScheduled()
  runAtFrame()
  if (!pending.length) return
  const batch = pending
  pending = []
  applyLive(batch)
}

// A session being replayed shows a recorded frame: its live events (a follow-up from another window) are
// not folded onto it; leaving the replay opens the session again, with everything (replay-store.ts).
let replaying: string | null = null

/** The session now shown as a replay frame, or null. */
export function setReplaying(sessionId: string | null): void {
  replaying = sessionId
  set({ replayingSessionId: sessionId })
}

/** Folds replayed events onto the frame shown, as live batches are folded. */
export function applyReplayed(events: AgentEvent[]): void {
  if (events.length) set((s) => ({ events: applyEvents(s.events, events) }))
}

// A session's row and its waiting requests come pushed by the host (session-loading.ts): a batch never
// asks the host for anything.
function applyLive(batch: AgentEvent[]): void {
  if (replaying) batch = batch.filter((e) => e.sessionId !== replaying)
  const { opening } = get()
  if (opening) {
    const held = batch.filter((e) => e.sessionId === opening.sessionId)
    if (held.length) {
      batch = batch.filter((e) => e.sessionId !== opening.sessionId)
      set({ opening: { ...opening, held: [...opening.held, ...held] } })
    }
  }
  if (!batch.length) return
  recordStreamed(batch)
  setFromEvents(batch, (s) => ({ events: applyEvents(s.events, batch) }))
}

/** Drops what is queued (tests and the e2e harness). */
export function resetLiveEvents(): void {
  pending = []
  atFrame.clear()
  cadence = newTextCadence()
  cancelScheduled()
  replaying = null
  resetStreamTails()
}
