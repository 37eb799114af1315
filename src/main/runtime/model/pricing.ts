// Cost from token counts, through a price table per model family (USD per million tokens).
// The table is configurable because prices change and gateways price differently. Cache tokens are priced
// as the API bills them: reads at a tenth of the input price, 5-minute writes at 1.25 times, 1-hour writes
// at twice (the response's `cache_creation` says which).
import type { Usage } from '../../../shared/usage'
import { familyOf, type ModelFamily } from './aliases'
import { CACHE_PRICE } from './prompt-cache-rules'

export interface ModelPrice {
  inputPerMTok: number
  outputPerMTok: number
  cacheReadPerMTok: number
  /** 5-minute cache writes. */
  cacheWritePerMTok: number
  /** 1-hour cache writes (default: twice the input price). */
  cacheWrite1hPerMTok?: number
}

export type PriceTable = Record<ModelFamily, ModelPrice>

const price = (input: number, output: number): ModelPrice => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheReadPerMTok: input * CACHE_PRICE.read,
  cacheWritePerMTok: input * CACHE_PRICE.write5m,
  cacheWrite1hPerMTok: input * CACHE_PRICE.write1h
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
  /** All cache writes, 1-hour ones included. */
  cacheWriteTokens: number
  /** The part of cacheWriteTokens written for an hour (priced higher). */
  cacheWrite1hTokens?: number
}

/** Cost in USD; 0 for a model outside the table's families (a gateway's own model has no known price). */
export function costOf(model: string, tokens: TokenCounts, prices: PriceTable = DEFAULT_PRICES): number {
  const family = familyOf(model)
  const p = family && prices[family]
  if (!p) return 0
  const hour = Math.min(tokens.cacheWrite1hTokens ?? 0, tokens.cacheWriteTokens)
  return (
    (tokens.inputTokens * p.inputPerMTok +
      tokens.outputTokens * p.outputPerMTok +
      tokens.cacheReadTokens * p.cacheReadPerMTok +
      (tokens.cacheWriteTokens - hour) * p.cacheWritePerMTok +
      hour * (p.cacheWrite1hPerMTok ?? p.inputPerMTok * CACHE_PRICE.write1h)) /
    1_000_000
  )
}

export function usageWithCost(model: string, tokens: TokenCounts, prices?: PriceTable): Usage {
  return {
    inputTokens: tokens.inputTokens,
    outputTokens: tokens.outputTokens,
    cacheReadTokens: tokens.cacheReadTokens,
    cacheWriteTokens: tokens.cacheWriteTokens,
    costUsd: costOf(model, tokens, prices)
  }
}
