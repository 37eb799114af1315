// The gate that starts requests sharing a prompt prefix so that they read it instead of each writing it.
// Ordering is observed through promises (no timers), the clock is a variable.
import { describe, expect, it } from 'vitest'
import { CacheSharingGate, stablePrefixKey, waitIsWorthIt } from './cache-sharing'
import type { ModelRequest } from './types'

const flush = () => new Promise((r) => setImmediate(r))

function gateWithClock() {
  const clock = { t: 0 }
  return { clock, gate: new CacheSharingGate({ now: () => clock.t, warmForMs: 1000, maxWaitMs: 10_000 }) }
}

describe('cache sharing', () => {
  it('a warming ahead of a fan-out: requests that meet it wait for it, none is sent twice, and a failed one lets them go', async () => {
    const { clock, gate } = gateWithClock()
    let finish!: () => void
    let writes = 0
    const write = () => (writes++, new Promise<void>((r) => (finish = r)))
    expect(gate.lead('k', write)).not.toBeNull()
    expect(gate.lead('k', write)).toBeNull() // on its way already
    let went = false
    const sibling = gate.enter('k', undefined, undefined, 'sonnet').then((t) => ((went = true), t))
    await flush()
    expect(went).toBe(false)
    finish()
    await sibling
    expect(went).toBe(true)
    expect(gate.lead('k', write)).toBeNull() // warm
    expect(writes).toBe(1)
    clock.t = 2000 // a lifetime later it is written again
    expect(gate.lead('k', write)).not.toBeNull()
    finish()
    let fail!: (e: Error) => void
    expect(gate.lead('f', () => new Promise<void>((_, r) => (fail = r)))).not.toBeNull()
    const waiter = gate.enter('f', undefined, undefined, 'sonnet')
    fail(new Error('overloaded'))
    // It goes on its own, as the first of its prefix now; once it fails too, nothing is left on the way.
    ;(await waiter).failed()
    expect(gate.lead('f', async () => undefined)).not.toBeNull()
  })

  it('stops waiting where waits read nothing (an endpoint that does not cache the model), and measures again a lifetime later', async () => {
    const { clock, gate } = gateWithClock()
    /** One fan-out of a leader and a waiter; true when the waiter waited for the leader's response. */
    const fanOut = async (key: string, read: number): Promise<boolean> => {
      const leader = await gate.enter(key, undefined, undefined, 'haiku')
      let went = false
      const waiter = gate.enter(key, undefined, undefined, 'haiku').then((t) => ((went = true), t))
      await flush()
      const waited = !went
      leader.begun(0)
      ;(await waiter).begun(read)
      return waited
    }
    // Each fan-out its own prefix (a new leader each time).
    expect(await fanOut('a1', 4000)).toBe(true)
    expect(await fanOut('a2', 0)).toBe(true)
    expect(await fanOut('a3', 4000)).toBe(true) // a read resets the count
    expect(await fanOut('b', 0)).toBe(true)
    expect(await fanOut('c', 0)).toBe(true)
    // Two waits in a row read nothing: this model's requests go at once, whatever their prefix.
    expect(await fanOut('d', 0)).toBe(false)
    // Other models still wait.
    const other = await gate.enter('e', undefined, undefined, 'sonnet')
    let went = false
    void gate.enter('e', undefined, undefined, 'sonnet').then(() => (went = true))
    await flush()
    expect(went).toBe(false)
    other.begun(0)
    // A lifetime after the last unpaid wait, waiting is measured again.
    clock.t += 1000
    expect(await fanOut('f', 4000)).toBe(true)
  })

  it('first: lets one request go, the others once its response has begun; later ones go at once while warm', async () => {
    const { clock, gate } = gateWithClock()
    const order: string[] = []
    const leader = await gate.enter('k')
    order.push('leader')
    const waiting = [1, 2, 3].map((i) => gate.enter('k').then(() => order.push(`sibling ${i}`)))
    await flush()
    expect(order).toEqual(['leader'])
    leader.begun()
    await Promise.all(waiting)
    expect(order).toEqual(['leader', 'sibling 1', 'sibling 2', 'sibling 3'])
    clock.t = 900
    let late = false
    void gate.enter('k').then(() => (late = true))
    await flush()
    expect(late).toBe(true)
  })

  it('treats a prefix as cold again once its lifetime is past', async () => {
    const { clock, gate } = gateWithClock()
    ;(await gate.enter('k')).begun()
    clock.t = 1000
    const again = await gate.enter('k') // a new leader
    let other = false
    void gate.enter('k').then(() => (other = true))
    await flush()
    expect(other).toBe(false)
    again.begun()
    await flush()
    expect(other).toBe(true)
  })

  it('lets the others go when the first fails before its response, one of them leading again', async () => {
    const { gate } = gateWithClock()
    const leader = await gate.enter('k')
    const entered: number[] = []
    const tickets = [1, 2].map((i) => gate.enter('k').then((t) => (entered.push(i), t)))
    await flush()
    leader.failed()
    await flush()
    expect(entered).toEqual([1]) // the first waiter leads now; the second waits for it
    ;(await tickets[0]).begun()
    await tickets[1]
    expect(entered).toEqual([1, 2])
  })

  it('never holds back requests with different prefixes or without one', async () => {
    const { gate } = gateWithClock()
    await gate.enter('a')
    let b = false
    let none = false
    void gate.enter('b').then(() => (b = true))
    void gate.enter(null).then(() => (none = true))
    await flush()
    expect([b, none]).toEqual([true, true])
  })

  it('gives up waiting when the request is aborted, and after maxWaitMs', async () => {
    const { gate } = gateWithClock()
    await gate.enter('k')
    const abort = new AbortController()
    const waiting = gate.enter('k', abort.signal)
    abort.abort(new Error('stopped'))
    await expect(waiting).rejects.toThrow('stopped')
    const quick = new CacheSharingGate({ maxWaitMs: 5 })
    await quick.enter('k')
    await expect(quick.enter('k')).resolves.toBeDefined()
  })

  it('prewarm: the first sends the prefix alone and everyone waits for it; a failed pre-warm lets them go', async () => {
    const { gate } = gateWithClock()
    let done!: () => void
    const warm = new Promise<void>((r) => (done = r))
    const calls: string[] = []
    const prewarm = async () => {
      calls.push('prewarm')
      await warm
    }
    const first = gate.enter('k', undefined, prewarm).then(() => calls.push('first'))
    const second = gate.enter('k', undefined, prewarm).then(() => calls.push('second'))
    await flush()
    expect(calls).toEqual(['prewarm'])
    done()
    await Promise.all([first, second])
    expect(calls).toEqual(['prewarm', 'first', 'second'])
    const failing = new CacheSharingGate()
    await expect(failing.enter('x', undefined, async () => Promise.reject(new Error('400')))).resolves.toBeDefined()
  })

  it('keys the stable prefix on model, tools, system, thinking and effort, and not at all below the model’s minimum', () => {
    const tools = [{ name: 'Read', description: 'd'.repeat(6000), input_schema: { type: 'object' } }]
    const base: ModelRequest = { model: 'claude-sonnet-4-5', system: 'sys', tools, messages: [{ role: 'user', content: 'a' }] }
    const key = stablePrefixKey(base)
    expect(key).toEqual(expect.any(String))
    expect(stablePrefixKey({ ...base, messages: [{ role: 'user', content: 'another task' }] })).toBe(key)
    // Siblings build their own tools arrays: equal content is one key, and a short one (not the 6 KB prefix itself).
    expect(stablePrefixKey({ ...base, tools: tools.map((t) => ({ ...t })) })).toBe(key)
    expect(key!.length).toBeLessThan(32)
    for (const change of [
      { model: 'claude-opus-4-8' },
      { system: 'other' },
      { effort: 'low' as const },
      { thinking: { type: 'adaptive' as const } },
      { tools: [...tools], sharedTools: 1 }
    ])
      expect(stablePrefixKey({ ...base, ...change })).not.toBe(key)
    expect(stablePrefixKey({ ...base, tools: [], system: 'short' })).toBeNull()
    expect(stablePrefixKey({ ...base, model: 'claude-haiku-4-5' })).toBeNull() // 1.5k tokens < 4,096
    // Many prefixes later (more than the names kept), a prefix seen again still gets one key for all its siblings.
    for (let i = 0; i < 200; i++) stablePrefixKey({ ...base, system: `sys ${i}`, tools: [...tools] })
    const again = stablePrefixKey({ ...base, tools: [...tools] })
    expect(stablePrefixKey({ ...base, tools: [...tools] })).toBe(again)
    expect(stablePrefixKey({ ...base, system: 'sys 199', tools: [...tools] })).not.toBe(again)
  })
})

describe('whether a wait is worth its time', () => {
  // A 4,700-token Haiku prefix: each sibling that reads it instead of writing it saves about $0.0054.
  const haiku = { prefixTokens: 4700 }
  it('lets two Haiku siblings go at once and makes sixteen wait, at a one-second latency', () => {
    expect(waitIsWorthIt('claude-haiku-4-5', haiku, 1, 1000)).toBe(false)
    expect(waitIsWorthIt('claude-haiku-4-5', haiku, 15, 1000)).toBe(true)
  })
  it('weighs a slower model latency against the saving', () => {
    expect(waitIsWorthIt('claude-haiku-4-5', haiku, 2, 1000)).toBe(true)
    expect(waitIsWorthIt('claude-haiku-4-5', haiku, 2, 5000)).toBe(false)
  })
  it('always waits for a Sonnet prefix of any fan-out and for a model without a known price', () => {
    expect(waitIsWorthIt('claude-sonnet-4-5', { prefixTokens: 20_000 }, 1, 1000)).toBe(true)
    expect(waitIsWorthIt('my-gateway-model', { prefixTokens: 10 }, 1, 60_000)).toBe(true)
  })
  it('does not hold a request whose saving is below one latency: the gate lets it go while the leader is in flight', async () => {
    const gate = new CacheSharingGate()
    const leader = await gate.enter('k', undefined, undefined, 'claude-haiku-4-5', { prefixTokens: 4700, sharers: 2 })
    let went = false
    const second = gate.enter('k', undefined, undefined, 'claude-haiku-4-5', { prefixTokens: 4700, sharers: 2 }).then(() => (went = true))
    await second
    expect(went).toBe(true) // the leader's response has not begun: it did not wait for it
    leader.begun()
  })
})
