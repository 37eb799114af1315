import { describe, expect, it } from 'vitest'
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import { connectAhead, warmFor } from './connect-ahead'

const call = (name: string, i: number) =>
  ({ type: 'content_block_start', index: i, content_block: { type: 'tool_use', id: `t${i}`, name, input: {} } }) as RawMessageStreamEvent

/** A pool that opens what it is asked, within `most`, and records each ask. */
function pool() {
  const asks: Array<[number, number]> = []
  let opened = 0
  const preconnect = (_origin: string | URL, count: number, most = Infinity) => {
    asks.push([count, most])
    const n = Math.max(0, Math.min(count, most))
    opened += n
    return n
  }
  return { asks, preconnect, opened: () => opened }
}

describe('connections opened ahead while a reply streams', () => {
  it('calls held to the reply’s end: one each but the first, which takes the reply’s own; the first still gets one', () => {
    expect([1, 2, 3, 16].map((seen) => warmFor(seen, 0))).toEqual([1, 1, 2, 15])
  })

  it('calls that start as they stream: one for each still to start and one for the last started', () => {
    expect(warmFor(5, 5)).toBe(1)
    expect(warmFor(5, 3)).toBe(3)
  })

  it('opens no more in all than the calls and one spare, however often the pool closed the ones it parked', () => {
    const p = pool()
    let started = 0
    const onEvent = connectAhead(
      p.preconnect,
      'https://api.example',
      () => 64,
      () => started
    )
    for (let i = 0; i < 8; i++) {
      onEvent(call('Agent', i))
      started++ // each call starts as soon as it has streamed
    }
    expect(p.opened()).toBeLessThanOrEqual(9)
    // Every ask is bounded by what is still owed: the calls seen, one spare, less what was opened before.
    let before = 0
    p.asks.forEach(([, most], i) => {
      expect(most).toBe(i + 2 - before)
      before += Math.min(p.asks[i][0], most)
    })
  })

  it('counts only calls that start subagents, and no more than the rate limiter lets go at once', () => {
    const p = pool()
    const onEvent = connectAhead(
      p.preconnect,
      'https://api.example',
      () => 2,
      () => 0
    )
    onEvent(call('Read', 0))
    onEvent({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } } as RawMessageStreamEvent)
    expect(p.asks).toEqual([])
    for (let i = 0; i < 5; i++) onEvent(call(i % 2 ? 'Task' : 'Agent', i))
    // Calls seen are capped at 2: a connection each for the two the limiter lets go at once, one spare, then no more.
    expect(p.opened()).toBe(3)
  })
})
