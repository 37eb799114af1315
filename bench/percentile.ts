// One percentile for every figure the bench prints (nearest rank), so two figures side by side were worked out
// the same way.

/** The value at percentile `p` (0–100) of numbers sorted ascending, by nearest rank; NaN for none. */
export function pct(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))]
}

/** A sorted copy (ascending). */
export const sortNum = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b)
