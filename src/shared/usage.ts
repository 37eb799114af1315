// Token usage and cost, per agent and rolled up.
export interface Usage {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  costUsd: number
}

export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 })

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: a.costUsd + b.costUsd
  }
}

/** The share of the input tokens read from the prompt cache (0..1); null when there was no input yet. */
export function cachedShare(u: Usage): number | null {
  const input = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens
  return input > 0 ? u.cacheReadTokens / input : null
}

// One formatter, made once: toLocaleString builds one per call, and a tile's tooltip calls it on every render.
// Made at the first use, not when the module loads: the first number formatter of a process loads ICU's
// data (~10 ms), which `fanout run` would otherwise pay before its first model request.
let COUNT: Intl.NumberFormat | undefined
const count = (n: number) => (COUNT ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })).format(Math.round(n))

/**
 * How the tokens were billed, for people: input split as the API prices it (uncached at the input price,
 * cache writes at 1.25 times it, cache reads at a tenth), then output and the cost.
 */
export function usageBreakdown(u: Usage): string {
  const input = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens
  const cost = u.costUsd > 0 && u.costUsd < 0.001 ? '<$0.001' : `$${u.costUsd.toFixed(u.costUsd < 1 ? 4 : 2)}`
  return `${count(input)} input tokens: ${count(u.inputTokens)} uncached, ${count(u.cacheWriteTokens)} written to the prompt cache (billed at 1.25×), ${count(u.cacheReadTokens)} read from it (0.1×). ${count(u.outputTokens)} output tokens. ${cost}`
}

/** Usage as the Messages API and Claude Code's outputs spell it (snake_case). */
export interface ApiUsage {
  input_tokens: number
  cache_creation_input_tokens: number
  cache_read_input_tokens: number
  output_tokens: number
}

export function apiUsage(u: Usage): ApiUsage {
  return {
    input_tokens: u.inputTokens,
    cache_creation_input_tokens: u.cacheWriteTokens,
    cache_read_input_tokens: u.cacheReadTokens,
    output_tokens: u.outputTokens
  }
}
