// One shared clock for every elapsed-time label: a single interval, however many panels show time,
// and none at all while nothing is running.
import { useSyncExternalStore } from 'react'

const listeners = new Set<() => void>()
let now = Date.now()
let timer: ReturnType<typeof setInterval> | null = null

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (!timer) {
    now = Date.now()
    timer = setInterval(() => {
      now = Date.now()
      for (const l of listeners) l()
    }, 1000)
  }
  return () => {
    listeners.delete(listener)
    if (!listeners.size && timer) {
      clearInterval(timer)
      timer = null
    }
  }
}

const noop = () => () => {}

/** The current time, updated every second while `live`; a fixed value otherwise. */
export function useNow(live: boolean): number {
  return useSyncExternalStore(live ? subscribe : noop, () => (live ? now : 0))
}
