// Spreads the mounting of many heavy items of one kind over frames: when 64 agents start at once, their 64
// tiles would otherwise be built, laid out and painted in one task (~70-80 ms on an idle machine: a long task,
// and every frame of the burst lost). At most `perFrame` mount in a frame; the others show an empty box of the
// same size and fill in over the next frames (4 frames, ~50 ms, for 64 tiles at 16 a frame).
import { useEffect, useState } from 'react'

export interface MountBudget {
  /** Whether one more item may mount in the frame now being made (counts it when so). */
  claim(): boolean
}

/** A budget of `perFrame` mounts per frame; `frameNow` tells the frames apart (the animation timeline's time). */
export function createMountBudget(perFrame: number, frameNow: () => number = animationTime): MountBudget {
  let frame = Number.NaN
  let used = 0
  return {
    claim() {
      const now = frameNow()
      if (now !== frame) {
        frame = now
        used = 0
      }
      return used++ < perFrame
    }
  }
}

// One value for a whole frame (its animation time), so every mount while that frame is made shares its budget.
const animationTime = (): number => Number(document.timeline?.currentTime ?? performance.now())

/**
 * True once the item may mount: at once when the frame's budget allows (and always without animation
 * frames, in tests), else at the first later frame whose budget has room.
 */
export function useMountBudget(budget: MountBudget): boolean {
  const [ready, setReady] = useState(() => typeof requestAnimationFrame !== 'function' || budget.claim())
  useEffect(() => {
    if (ready) return
    let id = requestAnimationFrame(function retry() {
      if (budget.claim()) setReady(true)
      else id = requestAnimationFrame(retry)
    })
    return () => cancelAnimationFrame(id)
  }, [ready, budget])
  return ready
}
