// Shared clocks for time labels: one interval per cadence, however many labels show time, and none at
// all while no label is shown.
import { useSyncExternalStore } from 'react'
import { formatRelative } from './format'

export interface Clock {
  subscribe(listener: () => void): () => void
  now(): number
}

/**
 * A clock that tells each listener once per `periodMs`. With `slices`, listeners take turns: each is told at
 * its own slice of the period (the slice with fewest listeners, so they stay spread as labels come and go), so
 * that many labels subscribed at once do not all render in one frame. The time read is the latest slice's, for everyone.
 */
export function createClock(periodMs: number, slices = 1): Clock {
  const slots = Array.from({ length: slices }, () => new Set<() => void>())
  let slice = 0
  let now = Date.now()
  let timer: ReturnType<typeof setInterval> | null = null
  return {
    subscribe(listener) {
      const slot = slots.reduce((least, s) => (s.size < least.size ? s : least))
      slot.add(listener)
      if (!timer) {
        now = Date.now()
        timer = setInterval(() => {
          now = Date.now()
          slice = (slice + 1) % slices
          for (const l of slots[slice]) l()
        }, periodMs / slices)
      }
      return () => {
        slot.delete(listener)
        if (timer && slots.every((s) => !s.size)) {
          clearInterval(timer)
          timer = null
        }
      }
    },
    now: () => now
  }
}

// Elapsed times of running agents count seconds, each label at its own quarter of the second: 64 tiles'
// figures rendered in one task every second (5-12 ms of script in a trace of the 64-agent bench), then laid out and painted in one frame.
const seconds = createClock(1000, 4)
const noop = () => () => {}

// While a session is replayed, "now" is the moment shown: a running agent's clock reads as it did then.
let replayNow: number | null = null
const replayListeners = new Set<() => void>()
const replayClock: Clock = {
  subscribe(listener) {
    replayListeners.add(listener)
    return () => replayListeners.delete(listener)
  },
  now: () => replayNow ?? Date.now()
}

/** Sets the replay's moment (null: back to the wall clock). */
export function setReplayNow(ts: number | null): void {
  if (ts === replayNow) return
  replayNow = ts
  for (const l of replayListeners) l()
}

// While the connection to Fanout is lost, what the page shows is as of that moment: a running agent's clock
// stops there rather than count on as if it still ran (the host may be gone).
let stoppedNow: number | null = null

/** Stops the clocks at `ts` (the moment the connection was lost); null: they run again. */
export function setStoppedNow(ts: number | null): void {
  if (ts === stoppedNow) return
  stoppedNow = ts
  for (const l of replayListeners) l()
}

const stoppedClock: Clock = { subscribe: replayClock.subscribe, now: () => stoppedNow ?? Date.now() }

/** The current time, updated every second while `live`; a fixed value otherwise. In a replay, the moment shown. */
export function useNow(live: boolean): number {
  const held = useSyncExternalStore(replayClock.subscribe, () => (replayNow !== null ? 'replay' : stoppedNow !== null ? 'stopped' : null))
  const clock = held === 'replay' ? replayClock : held === 'stopped' ? stoppedClock : seconds
  return useSyncExternalStore(live ? clock.subscribe : noop, () => (live ? clock.now() : 0))
}

// "just now", "2 min ago": a label changes at most once a minute, so a few seconds late is on time.
const relativeClock = createClock(5000)

/**
 * `ts` as "just now", "2 min ago"…, kept current as time passes. The snapshot is the label itself, so a
 * label is drawn again only when its words change, not at every tick.
 */
export function relativeLabel(ts: number, clock: Clock = relativeClock): { subscribe: Clock['subscribe']; label(): string } {
  // The clock only says when to look again: the label is read from the time now.
  return { subscribe: clock.subscribe, label: () => formatRelative(ts, Date.now()) }
}

export function useRelativeTime(ts: number): string {
  const { subscribe, label } = relativeLabel(ts)
  return useSyncExternalStore(subscribe, label)
}
