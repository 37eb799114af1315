// The context meter and compaction markers in the UI state, folded from events (live and on reopen alike).
import { describe, expect, it } from 'vitest'
import { agentEvents, manualClock } from '../testing/event-builder'
import { transcriptLines } from '../testing/transcript-lines'
import { contextMeter, shortTokens } from './context-meter'
import { waitingForModelSince } from './model-wait'
import { applyEvents } from './reducer'
import { emptyEventsState } from './session-state'

const clock = manualClock()
const main = agentEvents('s1', 'main', clock)
const limits = { window: 200_000, threshold: 167_000, autoCompact: true }

describe('the context meter', () => {
  it('shows the last call’s usage against the window, ignores a summary call, turns amber past the threshold, and resets on compaction', () => {
    let s = applyEvents(emptyEventsState(), [
      main.start({ context: limits }),
      main.usage({ inputTokens: 120_000, cacheReadTokens: 3_000, outputTokens: 1_000 })
    ])
    const ctx = () => s.sessions.s1.agents.main.context
    expect(contextMeter(ctx())).toMatchObject({ percent: 62, label: '62% of 200k', high: false })
    s = applyEvents(s, [main.usage({ inputTokens: 169_000, outputTokens: 500 })])
    expect(contextMeter(ctx())).toMatchObject({ percent: 84, high: true })
    expect(contextMeter(ctx())!.detail).toBe('Context: 169,500 of 200,000 tokens; compacts automatically at 167,000 (83.5%)')
    s = applyEvents(s, [main.compactionStart('auto', 169_500)])
    expect(ctx()!.compacting).toBe(true)
    expect(transcriptLines(s.sessions.s1, 'main')).toEqual(['compaction:auto:running'])
    s = applyEvents(s, [main.usage({ inputTokens: 170_000, outputTokens: 3_000 }, 'claude-sonnet-4-5', 'compaction')])
    expect(ctx()!.tokens).toBe(169_500)
    expect(s.sessions.s1.agents.main.usage.inputTokens).toBe(120_000 + 169_000 + 170_000)
    s = applyEvents(s, [
      main.compaction({ trigger: 'auto', tokensBefore: 169_500, tokensAfter: 31_000, summary: 'The task so far.', summarized: 40, messages: [] })
    ])
    expect(ctx()).toMatchObject({ tokens: 31_000, compacting: false, compactions: 1, compactedAt: [clock.now()] })
    expect(contextMeter(ctx())).toMatchObject({ label: '15% of 200k', high: false })
    expect(s.sessions.s1.items.main.at(-1)).toMatchObject({ kind: 'compaction', state: 'done', summary: 'The task so far.', tokensAfter: 31_000 })
    expect(transcriptLines(s.sessions.s1, 'main')).toEqual(['compaction:auto:done'])
  })

  it('a cache warming for subagents is billed to the agent but moves no meter and answers none of its calls', () => {
    let s = applyEvents(emptyEventsState(), [main.start({ context: limits }), main.usage({ inputTokens: 50_000 }), main.request()])
    const a = () => s.sessions.s1.agents.main
    expect(waitingForModelSince(a())).not.toBeNull()
    s = applyEvents(s, [main.usage({ inputTokens: 20, cacheWriteTokens: 6_000 }, 'claude-haiku-4-5', 'cache_warm')])
    expect(a().context!.tokens).toBe(50_000)
    expect(a().usage.cacheWriteTokens).toBe(6_000)
    expect(waitingForModelSince(a())).not.toBeNull() // still waiting on its own call
    expect(a().resolvedModel).not.toBe('claude-haiku-4-5')
  })

  it('a failed compaction keeps the figure and says why; a replay without its start still gets a marker', () => {
    let s = applyEvents(emptyEventsState(), [main.start({ context: limits }), main.usage({ inputTokens: 100_000 }), main.compactionStart('manual', 100_000)])
    s = applyEvents(s, [
      main.compaction({ trigger: 'manual', tokensBefore: 100_000, error: 'Compaction failed: Overloaded. The conversation was kept whole.' })
    ])
    expect(s.sessions.s1.agents.main.context).toMatchObject({ tokens: 100_000, compactions: 0, compacting: false })
    expect(transcriptLines(s.sessions.s1, 'main')).toEqual(['compaction:manual:failed:Compaction failed: Overloaded. The conversation was kept whole.'])
    const replay = applyEvents(emptyEventsState(), [
      main.start({ context: limits }),
      main.compaction({ trigger: 'overflow', tokensBefore: 210_000, tokensAfter: 40_000, summary: 's', messages: [] })
    ])
    expect(transcriptLines(replay.sessions.s1, 'main')).toEqual(['compaction:overflow:done'])
  })

  it('has no meter for a transcript from before it was recorded, or before the first call', () => {
    const old = applyEvents(emptyEventsState(), [main.start(), main.usage({ inputTokens: 5_000 })])
    expect(old.sessions.s1.agents.main.context).toBeUndefined()
    const fresh = applyEvents(emptyEventsState(), [main.start({ context: limits })])
    expect(contextMeter(fresh.sessions.s1.agents.main.context)).toBeNull()
  })

  it('writes windows the way people say them', () => {
    expect([200_000, 1_000_000, 32_000, 1_500, 900, 1_500_000].map(shortTokens)).toEqual(['200k', '1M', '32k', '1.5k', '900', '1.5M'])
  })
})
