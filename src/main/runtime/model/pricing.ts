// Cost from token counts, through a price table per model family (USD per million tokens).
// The table is configurable because prices change and gateways price differently.
import type { Usage } from '../../../shared/usage'
import { familyOf, type ModelFamily } from './aliases'

export interface ModelPrice {
  inputPerMTok: number
  outputPerMTok: number
  cacheReadPerMTok: number
  /** 5-minute cache writes. */
  cacheWritePerMTok: number
}

export type PriceTable = Record<ModelFamily, ModelPrice>

const price = (input: number, output: number): ModelPrice => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheReadPerMTok: input * 0.1,
  cacheWritePerMTok: input * 1.25
})

export const DEFAULT_PRICES: Readonly<PriceTable> = Object.freeze({
  haiku: price(1, 5),
  sonnet: price(3, 15),
  opus: price(5, 25)
})

export interface TokenCounts {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
}

/** Cost in USD; 0 for a model outside the table's families (a gateway's own model has no known price). */
export function costOf(model: string, tokens: TokenCounts, prices: PriceTable = DEFAULT_PRICES): number {
  const family = familyOf(model)
  const p = family && prices[family]
  if (!p) return 0
  return (
    (tokens.inputTokens * p.inputPerMTok +
      tokens.outputTokens * p.outputPerMTok +
      tokens.cacheReadTokens * p.cacheReadPerMTok +
      tokens.cacheWriteTokens * p.cacheWritePerMTok) /
    1_000_000
  )
}

export function usageWithCost(model: string, tokens: TokenCounts, prices?: PriceTable): Usage {
  return { ...tokens, costUsd: costOf(model, tokens, prices) }
}
