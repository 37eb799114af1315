// How many agents the overview lays its grid out for while a fan-out is still growing. A model writes its
// Agent calls one after another and each subagent starts as its call is complete, so the agents of a wide
// fan-out arrive one by one; laid out for the exact count, the grid changed shape at almost every arrival —
// every panel or tile resized, its text laid out and painted again, a frame of 50-110 ms each time with 30-60
// agents on screen, and a grid that never stood still. While agents keep arriving, the grid is laid out for the
// next power of two (room for those still to come: a few shape changes in all, not one per agent); once none
// has arrived for GROWTH_SETTLE_MS, for the agents there are. Agents that arrive together at first, or after a
// pause, are laid out for exactly their number.
import { useEffect, useRef, useState } from 'react'

export const GROWTH_SETTLE_MS = 1500

const nextPowerOfTwo = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, n)))

export interface Growth {
  /** The count last seen. */
  n: number
  /** What the grid is laid out for. */
  room: number
  /** When the count last grew. */
  at: number
}

export const NO_GROWTH: Growth = { n: 0, room: 0, at: -Infinity }

/** The next state for `n` agents at `now`: pure, for the hook and its tests. */
export function grow(prev: Growth, n: number, now: number): Growth {
  if (n > prev.n) {
    // Still arriving: room for more. The first arrivals (or the first after a pause) get exactly their number.
    const arriving = prev.n > 0 && now - prev.at < GROWTH_SETTLE_MS
    return { n, room: arriving ? Math.max(prev.room, nextPowerOfTwo(n)) : n, at: now }
  }
  if (n < prev.n || (prev.room !== n && now - prev.at >= GROWTH_SETTLE_MS)) return { n, room: n, at: prev.at }
  return prev
}

/** The count to lay the grid out for: `n`, or room for more while agents keep arriving (see above). */
export function useGrowthRoom(n: number): number {
  const state = useRef<Growth>(NO_GROWTH)
  const [, settle] = useState(0)
  const next = grow(state.current, n, performance.now())
  state.current = next
  const waiting = next.room > next.n
  // Drawn again once no agent has arrived for a while, for the agents there are.
  useEffect(() => {
    if (!waiting) return
    const timer = setTimeout(() => settle((x) => x + 1), Math.max(0, next.at + GROWTH_SETTLE_MS - performance.now()) + 1)
    return () => clearTimeout(timer)
  }, [waiting, next.at])
  return Math.max(n, next.room)
}
