import { describe, expect, it } from 'vitest'
import { gridLayout } from './grid-layout'
import { panelGroups } from './panel-groups'
import { axisLabels, axisTicks, TICK_LABEL_PX, timelineLabelWidth } from './time-axis'

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

  it('uses the width of a 1280 px window’s agents pane: 2 columns for 4 to 16 agents, not 1', () => {
    // The agents pane of a 1280×800 window with the default split: about 584×690 px.
    for (const n of [4, 8, 12, 16]) expect(gridLayout(n, 584, 690).cols, `${n} agents`).toBe(2)
    // 1920×1080: 3 to 4 columns for a dozen.
    expect(gridLayout(12, 1080, 970).cols).toBeGreaterThanOrEqual(3)
    expect(gridLayout(12, 1080, 970).cols).toBeLessThanOrEqual(4)
  })
})

describe('which panels the grid shows', () => {
  const status: Record<string, 'running' | 'completed' | 'stopped'> = { a: 'running', b: 'completed', c: 'stopped', d: 'completed' }
  const of = (id: string) => status[id]

  it('while agents run, finished ones collapse into the list but the one named stays in the grid', () => {
    expect(panelGroups(['a', 'b', 'c', 'd'], of, {}, null)).toEqual({ grid: ['a'], finished: ['b', 'c', 'd'] })
    expect(panelGroups(['a', 'b', 'c', 'd'], of, { b: true }, 'd')).toEqual({ grid: ['a', 'b', 'd'], finished: ['c'] })
  })

  it('once nothing runs, every panel is in the grid, whatever was expanded before', () => {
    const done = (id: string) => (id === 'c' ? 'stopped' : 'completed')
    expect(panelGroups(['a', 'b', 'c', 'd'], done, { d: true }, 'b')).toEqual({ grid: ['a', 'b', 'c', 'd'], finished: [] })
  })
})

describe('timeline axis', () => {
  it('picks round steps, about six per span', () => {
    expect(axisTicks(5000)).toEqual([0, 1000, 2000, 3000, 4000, 5000])
    expect(axisTicks(60_000)).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000])
    expect(axisTicks(45 * 60_000).length).toBeLessThanOrEqual(7)
  })

  it('at a narrow track the labels do not overlap and none is clipped at either end', () => {
    // 1024 px window: the track beside the labels is about 120 px wide; the run took 1:37.
    for (const width of [120, 200, 340, 700]) {
      const ticks = axisLabels(97_000, width)
      const xs = ticks.map((k) => (k.t / 97_000) * width)
      for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1], `gap at ${width} px`).toBeGreaterThanOrEqual(TICK_LABEL_PX - 1)
      expect(ticks[0].align).toBe('start')
      // A label whose tick is near the right end is drawn to its left, inside the track.
      for (const k of ticks) if ((k.t / 97_000) * width > width - TICK_LABEL_PX / 2) expect(k.align).toBe('end')
    }
    expect(axisLabels(97_000, 700).length).toBeGreaterThanOrEqual(4)
  })

  it('gives the track most of a narrow pane', () => {
    expect(timelineLabelWidth(380)).toBeLessThan(150)
    expect(timelineLabelWidth(1000)).toBe(270)
  })
})
