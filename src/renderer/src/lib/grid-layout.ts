// How the live panels grid divides its area: about as many columns as rows (weighted by the pane's
// aspect), never narrower or shorter than a readable panel; beyond that the grid scrolls. Panels narrower
// than DENSE_WIDTH switch to their dense layout, so two columns fit a 1280 px window's agents pane.
export const DENSE_WIDTH = 360
const GAP = 8

/** Columns and row height for n panels in a w×h area. */
export function gridLayout(n: number, width: number, height: number): { cols: number; rowHeight: number } {
  if (n <= 0 || width <= 0) return { cols: 1, rowHeight: 300 }
  const minWidth = n > 16 ? 220 : n > 3 ? 250 : 300
  const minHeight = n > 24 ? 170 : n > 9 ? 210 : 240
  const byAspect = Math.ceil(Math.sqrt(n * (width / Math.max(height, 1)) * 0.75))
  const fit = Math.floor((width + GAP) / (minWidth + GAP))
  const cols = Math.max(1, Math.min(byAspect, fit, n))
  const rows = Math.ceil(n / cols)
  const fill = (height - GAP * (rows - 1)) / rows
  return { cols, rowHeight: Math.max(minHeight, Math.floor(fill)) }
}
