// The context meter's figures, for every view that shows one (panels, cards, the main agent's header, tiles):
// "62% of 200k", amber past the compaction threshold.
import type { AgentContext } from './session-state'

export interface ContextMeter {
  /** 0-100, rounded down (a window is never shown as 100% full before it is). */
  percent: number
  /** "62% of 200k" */
  label: string
  /** Past the threshold: compaction is due (or, with auto-compaction off, needed). */
  high: boolean
  /** For a tooltip: the figures in full. */
  detail: string
}

/** 200000 → "200k", 1000000 → "1M", 1500 → "1.5k". */
export function shortTokens(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(n % 1_000_000 ? 1 : 0)}M`
  if (n >= 1_000) return `${+(n / 1_000).toFixed(n >= 100_000 || n % 1_000 === 0 ? 0 : 1)}k`
  return String(n)
}

export function contextMeter(c: AgentContext | undefined): ContextMeter | null {
  if (!c || c.tokens === null) return null
  const percent = Math.min(100, Math.floor((c.tokens / c.window) * 100))
  const fmt = (n: number) => n.toLocaleString('en-US')
  const at = `${fmt(c.threshold)} (${+((c.threshold / c.window) * 100).toFixed(1)}%)`
  const rule = c.autoCompact ? `compacts automatically at ${at}` : `automatic compaction is off (threshold ${at})`
  const done = c.compactions ? ` · compacted ${c.compactions} time${c.compactions === 1 ? '' : 's'}` : ''
  return {
    percent,
    label: `${percent}% of ${shortTokens(c.window)}`,
    high: c.tokens >= c.threshold,
    detail: `Context: ${fmt(c.tokens)} of ${fmt(c.window)} tokens; ${rule}${done}`
  }
}
