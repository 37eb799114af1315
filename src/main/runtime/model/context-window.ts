// How much a model can read at once (its context window, in tokens), and where a conversation is compacted.
// As Claude Code 2.1.328's model table has them: the 5.x models (every family), Mythos, and Opus 4.7 and 4.8
// read 1M tokens; the others 200,000, and an id with Claude Code's `[1m]` (or `-1m`) suffix names their
// 1M-token variant. Any id can be given its own window in the settings (`context.windows`), e.g. for a
// gateway's model.
//
// The default compaction threshold is Claude Code's: the window less a reserve for the reply (the request's
// max_tokens, at most 20,000) less a 13,000-token buffer: 167,000 of 200,000 (83.5%), 967,000 of 1M. A
// setting (`context.autoCompactPercent`) replaces it with a share of the window.

export const DEFAULT_CONTEXT_WINDOW = 200_000
export const ONE_MILLION_WINDOW = 1_000_000
/** Claude Code keeps this many tokens free below its effective window before it compacts. */
export const AUTO_COMPACT_BUFFER = 13_000
/** The most of the window Claude Code sets aside for the reply. */
export const OUTPUT_RESERVE_CAP = 20_000
/** A threshold is never put below half the window (on a small window the reserves would eat it all). */
const MIN_THRESHOLD_SHARE = 0.5

/** The model's context window: a configured one for this id, else what its id says, else 200k. */
export function contextWindowFor(model: string, windows: Readonly<Record<string, number>> = {}): number {
  const own = windows[model] ?? Object.entries(windows).find(([id]) => id.toLowerCase() === model.toLowerCase())?.[1]
  if (own !== undefined && Number.isFinite(own) && own > 0) return Math.floor(own)
  if (/\[1m\]$|-1m$/i.test(model)) return ONE_MILLION_WINDOW
  return nativeWindow(model)
}

/** The window a model id has by itself (Claude Code's `native_1m` models read 1M). */
export function nativeWindow(model: string): number {
  const id = model.toLowerCase()
  if (/claude-mythos/.test(id)) return ONE_MILLION_WINDOW
  // claude-opus-4-7, claude-sonnet-5-5, claude-fable-5; not the date of claude-opus-4-20250514.
  const m = /claude-(opus|sonnet|haiku|fable)-(\d+)(?:-(\d{1,2})(?!\d))?/.exec(id)
  if (!m) return DEFAULT_CONTEXT_WINDOW
  const version = Number(m[2]) + Number(m[3] ?? 0) / 10
  return version >= 5 || (m[1] === 'opus' && version >= 4.7) ? ONE_MILLION_WINDOW : DEFAULT_CONTEXT_WINDOW
}

export interface ThresholdOptions {
  /** A share of the window (1-100) set by the person; absent: Claude Code's default. */
  percent?: number
  /** The request's max_tokens (the reply's room). */
  maxOutputTokens: number
}

/** Tokens past which the conversation is compacted before its next request. */
export function compactThreshold(window: number, opts: ThresholdOptions): number {
  if (opts.percent !== undefined) return Math.max(1, Math.floor((window * Math.min(100, Math.max(1, opts.percent))) / 100))
  const claudeCode = window - Math.min(opts.maxOutputTokens, OUTPUT_RESERVE_CAP) - AUTO_COMPACT_BUFFER
  return Math.max(claudeCode, Math.floor(window * MIN_THRESHOLD_SHARE))
}
