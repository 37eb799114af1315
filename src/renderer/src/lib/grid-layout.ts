// How the live panels grid divides its area: about as many columns as rows (weighted by the pane's
// aspect), never narrower or shorter than a readable panel; beyond that the grid scrolls.
/** Columns and row height for n panels in a w×h area. */
export function gridLayout(n: number, width: number, height: number): { cols: number; rowHeight: number } {
  if (n <= 0 || width <= 0) return { cols: 1, rowHeight: 300 }
  const minWidth = n > 16 ? 250 : 320
  const minHeight = n > 24 ? 170 : n > 9 ? 210 : 240
  const cols = Math.max(1, Math.min(Math.ceil(Math.sqrt(n * (width / Math.max(height, 1)) * 0.75)), Math.floor(width / minWidth), n))
  const rows = Math.ceil(n / cols)
  const gap = 8
  const fill = (height - gap * (rows - 1)) / rows
  return { cols, rowHeight: Math.max(minHeight, Math.floor(fill)) }
}

