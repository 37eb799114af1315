import { describe, expect, it } from 'vitest'
import { gridLayout } from './grid-layout'
import { axisTicks } from './time-axis'

describe('panels grid layout', () => {
  it('gives one agent the whole pane and splits a few evenly', () => {
    expect(gridLayout(1, 900, 800)).toEqual({ cols: 1, rowHeight: 800 })
    expect(gridLayout(2, 900, 800).cols).toBe(2)
    const four = gridLayout(4, 900, 800)
    expect(four.cols).toBe(2)
    expect(four.rowHeight).toBe(396) // two rows fill the height, minus the gap
  })

  it('never makes panels narrower or shorter than readable; many agents scroll', () => {
    for (const n of [8, 16, 32, 64]) {
      const { cols, rowHeight } = gridLayout(n, 800, 700)
      expect(800 / cols, `width of ${n}`).toBeGreaterThanOrEqual(250)
      expect(rowHeight, `height of ${n}`).toBeGreaterThanOrEqual(170)
    }
    const wide = gridLayout(32, 1900, 900)
    expect(wide.cols).toBeGreaterThanOrEqual(6)
  })
})

describe('timeline axis', () => {
  it('picks round steps, about six per span', () => {
    expect(axisTicks(5000)).toEqual([0, 1000, 2000, 3000, 4000, 5000])
    expect(axisTicks(60_000)).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000])
    expect(axisTicks(45 * 60_000).length).toBeLessThanOrEqual(7)
  })
})
