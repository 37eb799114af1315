// The overview's density from the number of agents and the room: every agent on screen, without scrolling,
// at the sizes the issue names (16 at 1280×800, 64 at 1920×1080), with the agents pane of the default split.
import { describe, expect, it } from 'vitest'
import { nextDensity, overviewLayout, TILE_SPECS } from './overview-layout'

// The agents pane's grid area (pane less its padding) with the default split, as measured in Chromium.
const AT_1024x700 = { width: 472, height: 580 }
const AT_1280x800 = { width: 638, height: 680 }
const AT_1920x1080 = { width: 1045, height: 960 }

const used = (l: ReturnType<typeof overviewLayout>, n: number) => Math.ceil(n / l.cols) * l.rowHeight + (Math.ceil(n / l.cols) - 1) * l.gap

describe('overview layout', () => {
  it('gives a few agents full panels', () => {
    for (const n of [1, 2, 4, 6]) expect(overviewLayout(n, AT_1280x800.width, AT_1280x800.height).density, `${n} agents`).toBe('panels')
    expect(overviewLayout(12, AT_1920x1080.width, AT_1920x1080.height).density).toBe('panels')
  })

  it('fits 16 at 1280×800 (and at 1024×700) and 64 at 1920×1080 without scrolling, each tile big enough to read', () => {
    for (const [n, area] of [
      [16, AT_1280x800],
      [16, AT_1024x700],
      [32, AT_1280x800],
      [64, AT_1920x1080]
    ] as const) {
      const l = overviewLayout(n, area.width, area.height)
      expect(l.fits, `${n} in ${area.width}×${area.height}`).toBe(true)
      expect(used(l, n)).toBeLessThanOrEqual(area.height)
      const tileWidth = (area.width - l.gap * (l.cols - 1)) / l.cols
      const spec = l.density === 'panels' ? { minWidth: 250, minHeight: 160 } : TILE_SPECS[l.density]
      expect(tileWidth, `${n}: ${l.density} ${l.cols} columns`).toBeGreaterThanOrEqual(spec.minWidth)
      expect(l.rowHeight).toBeGreaterThanOrEqual(spec.minHeight)
    }
    expect(overviewLayout(64, AT_1920x1080.width, AT_1920x1080.height).density).toBe('tiles')
  })

  it('prefers tiles shaped like a line of text: 16 at 1280 in two columns, not three narrow ones', () => {
    expect(overviewLayout(16, AT_1280x800.width, AT_1280x800.height)).toMatchObject({ density: 'tiles', cols: 2 })
  })

  it('keeps a density the person chose, scrolling when it must', () => {
    const l = overviewLayout(64, AT_1280x800.width, AT_1280x800.height, 'tiles')
    expect(l).toMatchObject({ density: 'tiles', fits: false, rowHeight: TILE_SPECS.tiles.minHeight })
    expect(overviewLayout(2, AT_1920x1080.width, AT_1920x1080.height, 'compact').density).toBe('compact')
    // Too many for any density: compact, scrolling.
    expect(overviewLayout(200, AT_1280x800.width, AT_1280x800.height)).toMatchObject({ density: 'compact', fits: false })
  })

  it('cycles through the choices', () => {
    expect(['auto', 'panels', 'tiles', 'compact'].map((c) => nextDensity(c as never))).toEqual(['panels', 'tiles', 'compact', 'auto'])
  })
})
