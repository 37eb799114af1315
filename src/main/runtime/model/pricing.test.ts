// Cost at the API's prices: cache reads at a tenth of the input price, 5-minute writes at 1.25 times, 1-hour
// writes at twice, as reported in the response's usage.
import { describe, expect, it } from 'vitest'
import { MessageAccumulator } from './message-accumulator'
import { costOf } from './pricing'

describe('cost of cache tokens', () => {
  it('prices reads, 5-minute and 1-hour writes at their multipliers of the input price', () => {
    const m = 1_000_000
    expect(costOf('claude-sonnet-5-5', { inputTokens: m, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBeCloseTo(3)
    expect(costOf('claude-sonnet-5-5', { inputTokens: 0, outputTokens: 0, cacheReadTokens: m, cacheWriteTokens: 0 })).toBeCloseTo(0.3)
    expect(costOf('claude-sonnet-5-5', { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: m })).toBeCloseTo(3.75)
    expect(costOf('claude-sonnet-5-5', { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: m, cacheWrite1hTokens: m })).toBeCloseTo(6)
    expect(costOf('claude-opus-5-5', { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 2 * m, cacheWrite1hTokens: m })).toBeCloseTo(
      6.25 + 10
    )
  })

  it('reads the 1-hour part of the writes from the stream’s usage', () => {
    const acc = new MessageAccumulator()
    acc.add({
      type: 'message_start',
      message: {
        usage: {
          input_tokens: 5,
          output_tokens: 1,
          cache_read_input_tokens: 100,
          cache_creation_input_tokens: 300,
          cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 }
        }
      }
    } as any)
    acc.add({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } } as any)
    expect(acc.tokens).toEqual({ inputTokens: 5, outputTokens: 7, cacheReadTokens: 100, cacheWriteTokens: 300, cacheWrite1hTokens: 200 })
  })
})
