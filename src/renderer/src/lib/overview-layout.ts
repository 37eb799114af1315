// How the overview draws n agents in a w×h area. Three densities: full panels (a live transcript each),
// tiles (a few lines: what the agent does now and its figures), compact tiles (narrower, smaller type). Auto
// takes the richest density at which every agent fits without scrolling; a density the person chose is kept,
// scrolling when it must. Among the column counts that fit, tiles take the one whose shape is nearest a
// line of text (about 3:1), so a tool's argument has room.
import { gridLayout } from './grid-layout'

export type Density = 'panels' | 'tiles' | 'compact'
export type DensityChoice = 'auto' | Density

interface TileSpec {
  minWidth: number
  maxWidth: number
  minHeight: number
  maxHeight: number
  gap: number
  /** Width / height the chooser aims at. */
  aspect: number
}

export const TILE_SPECS: Record<Exclude<Density, 'panels'>, TileSpec> = {
  tiles: { minWidth: 200, maxWidth: 520, minHeight: 64, maxHeight: 132, gap: 6, aspect: 3.2 },
  compact: { minWidth: 150, maxWidth: 360, minHeight: 44, maxHeight: 76, gap: 4, aspect: 2.6 }
}
export const PANEL_GAP = 8
/** Auto draws full panels only when each is at least this tall: a header, the current tool, a few lines. */
export const PANEL_MIN_AUTO = 160

export interface OverviewLayout {
  density: Density
  cols: number
  rowHeight: number
  gap: number
  /** Every agent is on screen without scrolling. */
  fits: boolean
}

function panels(n: number, width: number, height: number): OverviewLayout {
  const { cols, rowHeight } = gridLayout(n, width, height)
  const rows = Math.ceil(n / cols)
  const fill = Math.floor((height - PANEL_GAP * (rows - 1)) / rows)
  // The grid's own minimum is for a grid that scrolls; fitting on screen, a panel may be shorter.
  const fits = fill >= PANEL_MIN_AUTO
  return { density: 'panels', cols, rowHeight: fits ? fill : rowHeight, gap: PANEL_GAP, fits }
}

function tiles(density: Exclude<Density, 'panels'>, n: number, width: number, height: number): OverviewLayout {
  const s = TILE_SPECS[density]
  const maxCols = Math.max(1, Math.min(n, Math.floor((width + s.gap) / (s.minWidth + s.gap))))
  const minCols = Math.max(1, Math.min(maxCols, Math.ceil((width + s.gap) / (s.maxWidth + s.gap))))
  let best: OverviewLayout | null = null
  let bestScore = Infinity
  for (let cols = minCols; cols <= maxCols; cols++) {
    const rows = Math.ceil(n / cols)
    const fill = Math.floor((height - s.gap * (rows - 1)) / rows)
    if (fill < s.minHeight) continue
    const rowHeight = Math.min(s.maxHeight, fill)
    const tileWidth = (width - s.gap * (cols - 1)) / cols
    const score = Math.abs(Math.log(tileWidth / rowHeight / s.aspect))
    if (score < bestScore) {
      best = { density, cols, rowHeight, gap: s.gap, fits: true }
      bestScore = score
    }
  }
  return best ?? { density, cols: maxCols, rowHeight: s.minHeight, gap: s.gap, fits: false }
}

export function overviewLayout(n: number, width: number, height: number, choice: DensityChoice = 'auto'): OverviewLayout {
  if (n <= 0 || width <= 0 || height <= 0) return { density: choice === 'auto' ? 'panels' : choice, cols: 1, rowHeight: 300, gap: PANEL_GAP, fits: true }
  if (choice === 'panels') return panels(n, width, height)
  if (choice !== 'auto') return tiles(choice, n, width, height)
  for (const candidate of [panels(n, width, height), tiles('tiles', n, width, height), tiles('compact', n, width, height)]) if (candidate.fits) return candidate
  return tiles('compact', n, width, height)
}

/** The next density for "Next overview density" (Alt+D): auto, panels, tiles, compact, auto… */
export function nextDensity(choice: DensityChoice): DensityChoice {
  const order: DensityChoice[] = ['auto', 'panels', 'tiles', 'compact']
  return order[(order.indexOf(choice) + 1) % order.length]
}
