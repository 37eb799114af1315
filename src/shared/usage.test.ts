import { describe, expect, it } from 'vitest'
import { cachedShare, usageBreakdown } from './usage'

describe('usage for people', () => {
  it('says how the input was billed: uncached, written to the cache, read from it', () => {
    const u = { inputTokens: 1200, outputTokens: 340, cacheReadTokens: 45_000, cacheWriteTokens: 3_800, costUsd: 0.0338 }
    expect(usageBreakdown(u)).toBe(
      '50,000 input tokens: 1,200 uncached, 3,800 written to the prompt cache (billed at 1.25×), 45,000 read from it (0.1×). 340 output tokens. $0.0338'
    )
    expect(cachedShare(u)).toBeCloseTo(0.9)
    expect(cachedShare({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 })).toBeNull()
    expect(usageBreakdown({ ...u, costUsd: 0.0004 })).toMatch(/<\$0\.001$/)
  })
})
