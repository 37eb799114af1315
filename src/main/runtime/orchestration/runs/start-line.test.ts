import { describe, expect, it } from 'vitest'
import { takeStartTurn } from './start-line'

const never = new AbortController().signal

describe('start line', () => {
  it('the first run of a burst leads; its siblings go once its first request leaves, not before', async () => {
    const session = {}
    const order: string[] = []
    const leader = await takeStartTurn(session, 'main', never, 60_000)
    const siblings = [1, 2, 3].map((i) => takeStartTurn(session, 'main', never, 60_000).then(() => order.push(`sibling ${i}`)))
    // Another parent's burst has a leader of its own and does not wait.
    await takeStartTurn(session, 'other', never, 60_000)
    await new Promise((r) => setImmediate(r))
    expect(order).toEqual([])
    order.push('leader sent')
    leader.release()
    leader.release()
    await Promise.all(siblings)
    expect(order).toEqual(['leader sent', 'sibling 1', 'sibling 2', 'sibling 3'])
    // The burst is over: the next run leads a new one.
    const next = await takeStartTurn(session, 'main', never, 60_000)
    let waited = false
    const behind = takeStartTurn(session, 'main', never, 60_000).then(() => (waited = true))
    await new Promise((r) => setImmediate(r))
    expect(waited).toBe(false)
    next.release()
    await behind
  })

  it('a leader that never sends holds its siblings back at most maxWaitMs, and an abort ends the wait at once', async () => {
    const session = {}
    await takeStartTurn(session, null, never, 60_000)
    const stop = new AbortController()
    const aborted = takeStartTurn(session, null, stop.signal, 60_000)
    stop.abort()
    await aborted
    await takeStartTurn(session, null, never, 5)
  })
})
