import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../events'
import { eventsAfter } from './live-join'

const delta = (text: string, ts: number, seq?: number): AgentEvent => ({
  agentId: 'a',
  parentAgentId: null,
  parentToolUseId: null,
  sessionId: 's',
  ts,
  type: 'text_delta',
  text,
  ...(seq === undefined ? {} : { seq })
})

describe('eventsAfter', () => {
  it('keeps the live events after the view, even those in the same millisecond as its last one', () => {
    const held = [delta('one ', 100, 100_000), delta('two ', 100, 100_001), delta('three', 100, 100_002)]
    expect(eventsAfter(held, { lastEventTs: 100 }, 100_000).map((e) => (e as { text: string }).text)).toEqual(['two ', 'three'])
  })

  it('drops a batched delta the view already holds, whatever time its first part had', () => {
    // The pump merged deltas 90..95 into one event that keeps the first part's time.
    const held = [delta('already shown', 90, 95_000), delta('new', 96, 96_000)]
    expect(eventsAfter(held, { lastEventTs: 95 }, 95_000).map((e) => (e as { text: string }).text)).toEqual(['new'])
  })

  it('keeps an event without a seq (never in a transcript) when the view is live', () => {
    const notice: AgentEvent = {
      agentId: 'a',
      parentAgentId: null,
      parentToolUseId: null,
      sessionId: 's',
      ts: 50,
      type: 'error',
      message: 'could not start',
      retrying: false
    }
    expect(eventsAfter([notice], { lastEventTs: 100 }, 100_000)).toEqual([notice])
  })

  it('compares by time for a stored session', () => {
    expect(eventsAfter([delta('old', 100), delta('new', 101)], { lastEventTs: 100 }, undefined).map((e) => (e as { text: string }).text)).toEqual(['new'])
  })
})
