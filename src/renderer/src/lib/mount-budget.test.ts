// A burst of new tiles mounts over several frames, a frame's worth at a time.
import { describe, expect, it } from 'vitest'
import { createMountBudget } from './mount-budget'

describe('createMountBudget', () => {
  it('lets perFrame items mount in a frame and the rest in the frames after', () => {
    let frame = 1000
    const budget = createMountBudget(16, () => frame)
    const mounted: number[] = []
    let waiting = 64
    while (waiting > 0) {
      let now = 0
      for (let i = waiting; i > 0; i--) if (budget.claim()) now++
      mounted.push(now)
      waiting -= now
      frame += 16.7
    }
    expect(mounted).toEqual([16, 16, 16, 16])
  })

  it('gives a new frame its whole budget, whatever the frame before used', () => {
    let frame = 0
    const budget = createMountBudget(2, () => frame)
    expect([budget.claim(), budget.claim(), budget.claim()]).toEqual([true, true, false])
    frame = 1
    expect([budget.claim(), budget.claim(), budget.claim()]).toEqual([true, true, false])
  })
})
