// Replay of a finished or reopened session: the host folds its recorded events up to a moment (a frame,
// replay.frame) and sends the steps after it (replay.steps); playing folds those steps onto the frame with
// the same reducer as live batches, so every panel, tile, tree and timeline shows the session as it was.
// The frame stands in for the session's state in the app store while the replay is open; closing it opens
// the session again from the host. `startReplay` and `closeReplay` are what a command palette calls.
import { create } from 'zustand'
import type { AgentEvent } from '../../../shared/events'
import type { ReplayTimeline } from '../../../shared/search-replay-contract'
import { setReplayNow } from '../lib/use-now'
import { applyReplayed, call, openSession, setReplaying, showFrame, unloadSession, useApp } from './store'
import { errorMessage } from '../../../shared/error-message'

export const SPEEDS = [1, 2, 5, 10, 20] as const
export type Speed = (typeof SPEEDS)[number]

/** A quiet stretch longer than this plays as this long: nobody watches ten minutes of waiting. */
export const IDLE_GAP_MS = 2000

export interface ReplayState {
  sessionId: string | null
  timeline: ReplayTimeline | null
  /** The moment shown: the last step applied (a seq), and its time. */
  seq: number
  ts: number
  playing: boolean
  speed: Speed
  skipIdle: boolean
  loading: boolean
  error: string | null
}

const initial: ReplayState = { sessionId: null, timeline: null, seq: 0, ts: 0, playing: false, speed: 5, skipIdle: true, loading: false, error: null }

export const useReplay = create<ReplayState>()(() => ({ ...initial }))
const get = useReplay.getState
const set = useReplay.setState

/** Steps fetched ahead of the moment shown, for playing. */
let buffer: AgentEvent[][] = []
let bufferDone = false
let fetching: Promise<void> | null = null
/** Counts seeks: an answer to an older one is dropped. */
let generation = 0
let frameTimer: number | null = null

const placeOf = (step: AgentEvent[]): number => {
  const last = step[step.length - 1]
  return last.seq ?? last.ts * 1000
}

/** Opens the replay of a session at its end (the session as it finished); Play starts it from the top. */
export async function startReplay(sessionId: string): Promise<void> {
  stopPlaying()
  set({ ...initial, sessionId, loading: true, speed: get().speed, skipIdle: get().skipIdle })
  try {
    const { timeline } = await call('replay.open', { sessionId })
    if (get().sessionId !== sessionId) return
    setReplaying(sessionId)
    set({ timeline })
    await seek(timeline.lastSeq)
  } catch (err) {
    if (get().sessionId === sessionId) set({ loading: false, error: errorMessage(err) })
  }
}

/** Leaves the replay: the session is opened again as it is now. */
export function closeReplay(): void {
  const { sessionId } = get()
  stopPlaying()
  generation++
  buffer = []
  set({ ...initial, speed: get().speed, skipIdle: get().skipIdle })
  setReplayNow(null)
  setReplaying(null)
  if (sessionId) {
    unloadSession(sessionId)
    if (useApp.getState().currentSessionId === sessionId) void openSession(sessionId)
  }
}

/** Shows the session as it was at `at` (a seq; the last whole step at or before it). */
export async function seek(at: number): Promise<void> {
  const { sessionId } = get()
  if (!sessionId) return
  const mine = ++generation
  buffer = []
  bufferDone = false
  set({ loading: true, error: null })
  try {
    const frame = await call('replay.frame', { sessionId, at })
    if (mine !== generation || get().sessionId !== sessionId) return
    showFrame(sessionId, frame)
    setReplayNow(frame.ts)
    set({ seq: frame.seq, ts: frame.ts, loading: false })
  } catch (err) {
    if (mine === generation) set({ loading: false, playing: false, error: errorMessage(err) })
  }
}

/** The seq of a moment in time (events of that millisecond included). */
export const seqAtTime = (ts: number): number => ts * 1000 + 999

async function refill(): Promise<void> {
  const { sessionId } = get()
  if (!sessionId || bufferDone || fetching) return fetching ?? undefined
  const mine = generation
  const after = buffer.length ? placeOf(buffer[buffer.length - 1]) : get().seq
  fetching = call('replay.steps', { sessionId, after, limit: 1500 })
    .then(({ steps, done }) => {
      if (mine !== generation) return
      buffer.push(...steps)
      bufferDone = done
    })
    .catch((err: Error) => {
      if (mine === generation) set({ playing: false, error: err.message })
    })
    .finally(() => {
      fetching = null
    })
  return fetching
}

export function play(): void {
  const { timeline, seq, sessionId } = get()
  if (!timeline || !sessionId || get().playing) return
  set({ playing: true })
  // At the end: from the top.
  const start = seq >= timeline.lastSeq ? seek(timeline.firstSeq - 1) : Promise.resolve()
  void start.then(() => {
    if (!get().playing) return
    let last = performance.now()
    let clock = get().ts
    const tick = (now: number) => {
      frameTimer = null
      if (!get().playing) return
      const dt = Math.min(250, now - last)
      last = now
      clock += dt * get().speed
      if (buffer.length < 500) void refill()
      // A long quiet stretch is skipped, down to IDLE_GAP_MS before the next step.
      if (get().skipIdle && buffer.length && buffer[0][buffer[0].length - 1].ts - clock > IDLE_GAP_MS) clock = buffer[0][buffer[0].length - 1].ts - IDLE_GAP_MS
      const due: AgentEvent[] = []
      let seqNow = get().seq
      while (buffer.length && buffer[0][buffer[0].length - 1].ts <= clock) {
        const step = buffer.shift()!
        for (const e of step) due.push(e)
        seqNow = placeOf(step)
      }
      if (due.length) applyReplayed(due)
      setReplayNow(clock)
      set({ seq: seqNow, ts: clock })
      if (!buffer.length && bufferDone) {
        const end = get().timeline
        set({ playing: false, ...(end ? { seq: end.lastSeq, ts: end.endTs } : {}) })
        if (end) setReplayNow(end.endTs)
        return
      }
      frameTimer = requestAnimationFrame(tick)
    }
    frameTimer = requestAnimationFrame(tick)
  })
}

function stopPlaying(): void {
  if (frameTimer !== null) cancelAnimationFrame(frameTimer)
  frameTimer = null
  if (get().playing) set({ playing: false })
}

/**
 * Pauses on the last whole step shown. The time shown between steps is that step's: the frame at a
 * pause is the one a seek to that moment gives.
 */
export function pause(): void {
  stopPlaying()
  const { seq } = get()
  if (get().sessionId) void seek(seq)
}

export const setSpeed = (speed: Speed) => set({ speed })
export const setSkipIdle = (skipIdle: boolean) => set({ skipIdle })

/** Whether the session shown is a replay frame (actions on it are hidden: it is the past). */
export const useReplaying = (sessionId: string | null): boolean => useReplay((s) => !!sessionId && s.sessionId === sessionId)

// Another session opened (or none): its replay ends.
useApp.subscribe((s, prev) => {
  const { sessionId } = get()
  if (sessionId && s.currentSessionId !== prev.currentSessionId && s.currentSessionId !== sessionId) closeReplay()
})
