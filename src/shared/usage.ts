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

/** Usage as the Messages API and Claude Code's outputs spell it (snake_case). */
export interface ApiUsage {
  input_tokens: number
  cache_creation_input_tokens: number
  cache_read_input_tokens: number
  output_tokens: number
}

export function apiUsage(u: Usage): ApiUsage {
  return { input_tokens: u.inputTokens, cache_creation_input_tokens: u.cacheWriteTokens, cache_read_input_tokens: u.cacheReadTokens, output_tokens: u.outputTokens }
}
