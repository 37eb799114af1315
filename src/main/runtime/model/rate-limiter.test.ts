// The rate limiter's reaction to the API's answers: refusals narrow the window once per burst and hold
// requests for the server's retry-after; the rate-limit headers hold requests back before a refusal.
// A fake clock; the holds' timers are real but short (they only let waiters go, nothing is timed).
import { describe, expect, it } from 'vitest'
import { RateLimiter, type Ticket } from './rate-limiter'

const headers = (h: Record<string, string> = {}) => new Headers(h)

async function takeAll(limiter: RateLimiter, n: number): Promise<Ticket[]> {
  return Promise.all(Array.from({ length: n }, () => limiter.acquire()))
}

/** The clock's start where the headers' reset times are read from it. */
const START = Date.parse('2026-11-23T10:00:00Z')

/** A limiter on a clock the test moves (`clock.now`) after one request answered `status` with headers `h`. */
async function afterAnswer(status: number, h: Record<string, string>, { start = START, ...opts }: { start?: number; maxHoldMs?: number } = {}) {
  const clock = { now: start }
  const limiter = new RateLimiter({ now: () => clock.now, ...opts })
  const [t] = await takeAll(limiter, 1)
  t.observe(status, headers(h))
  t.release()
  /** The next request, with the reasons it is told while it waits. */
  const waitNext = (signal?: AbortSignal) => {
    const reasons: Array<string | null> = []
    return { reasons, next: limiter.acquire(signal, (r) => reasons.push(r)) }
  }
  return { clock, limiter, waitNext }
}

describe('RateLimiter', () => {
  it('lets a wide burst go at once while the API says nothing', async () => {
    const limiter = new RateLimiter()
    const tickets = await takeAll(limiter, 64)
    expect(limiter.running).toBe(64)
    expect(limiter.queued).toBe(0)
    for (const t of tickets) t.release()
    expect(limiter.running).toBe(0)
  })

  it('narrows to what the server still serves after a burst of 429s, once per burst, and queues the rest', async () => {
    const limiter = new RateLimiter()
    const tickets = await takeAll(limiter, 64)
    // The server took 4 and refused the other 60, which end their attempts.
    for (const t of tickets.slice(4)) {
      t.observe(429, headers({ 'retry-after-ms': '0' }))
      t.release()
    }
    expect(limiter.limit).toBe(4)
    const reasons: Array<string | null> = []
    const next = limiter.acquire(undefined, (r) => reasons.push(r))
    expect(limiter.queued).toBe(1)
    expect(reasons[0]).toMatch(/in flight/)
    tickets[0].observe(200, headers())
    tickets[0].release()
    await next
    expect(reasons).toEqual([expect.any(String), null])
  })

  it('widens again by one for each answer that got through while the window was full', async () => {
    const limiter = new RateLimiter({ max: 8 })
    const tickets = await takeAll(limiter, 8)
    tickets[7].observe(429, headers({ 'retry-after-ms': '0' }))
    tickets[7].release()
    expect(limiter.limit).toBe(4)
    // Still 7 in flight, more than the window: the answers widen it.
    tickets[0].observe(200, headers())
    expect(limiter.limit).toBe(5)
  })

  it('holds new requests until the retry-after of a 429, then lets them go', async () => {
    const { clock, limiter, waitNext } = await afterAnswer(429, { 'retry-after-ms': '30' }, { start: 1_000_000 })
    const { reasons, next } = waitNext()
    expect(reasons[0]).toMatch(/rate limited by the API/)
    expect(limiter.queued).toBe(1)
    clock.now += 30
    await next
    expect(limiter.running).toBe(1)
  })

  it('lets a held request go when its hold ends between two readings of the clock', async () => {
    // A clock that moves on each time it is read (a loaded machine: the process is preempted between two
    // readings, or a timer fires a hair before the hold's end). Whichever readings the end of the hold falls
    // between, the waiting request is let go once it is over: never left queued with no timer to wake it.
    const stranded: number[] = []
    for (let hold = 0.05; hold <= 3; hold += 0.05) {
      let t = 1_000
      const limiter = new RateLimiter({ now: () => (t += 0.4) })
      const [first] = await takeAll(limiter, 1)
      first.observe(529, headers({ 'retry-after-ms': hold.toFixed(2) }))
      first.release()
      const next = limiter.acquire().then((ticket) => ticket.release())
      // The hold is at most 3 ms; 2 s leaves a loaded machine's stalls room before a request counts as stranded.
      const woke = await Promise.race([next.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 2000))])
      if (!woke) {
        stranded.push(Number(hold.toFixed(2)))
        break
      }
    }
    expect(stranded).toEqual([])
  })

  it('holds for the time the server asked, whatever the wall clock does meanwhile', async () => {
    // Holds run on the monotonic clock: a wall clock set back a minute (NTP, a resumed VM) during a short
    // hold of a 529 must not hold the next request a minute more. Real clocks here, Date.now set back.
    const realNow = Date.now
    let setBack = 0
    Date.now = () => realNow() - setBack
    try {
      const limiter = new RateLimiter()
      const [t] = await takeAll(limiter, 1)
      t.observe(529, headers({ 'retry-after-ms': '25' }))
      t.release()
      setBack = 60_000
      const started = performance.now()
      await limiter.acquire()
      expect(performance.now() - started).toBeLessThan(5_000)
    } finally {
      Date.now = realNow
    }
  })

  it('reads a reset header on the wall clock and waits for it on its own clock', async () => {
    const clock = { now: 5_000 }
    const wall = { now: START }
    const limiter = new RateLimiter({ now: () => clock.now, wallNow: () => wall.now })
    const [t] = await takeAll(limiter, 1)
    t.observe(200, headers({ 'anthropic-ratelimit-input-tokens-remaining': '0', 'anthropic-ratelimit-input-tokens-reset': '2026-11-23T10:00:00.030Z' }))
    t.release()
    const reasons: Array<string | null> = []
    const next = limiter.acquire(undefined, (r) => reasons.push(r))
    expect(reasons[0]).toMatch(/token limit/)
    wall.now -= 60_000
    clock.now += 30
    await next
    expect(limiter.running).toBe(1)
  })

  it('starts no more requests than requests-remaining until requests-reset', async () => {
    const limits = { 'anthropic-ratelimit-requests-remaining': '2', 'anthropic-ratelimit-requests-reset': '2026-11-23T10:00:00.040Z' }
    const { clock, limiter, waitNext } = await afterAnswer(200, limits)
    await takeAll(limiter, 2)
    const { reasons, next: third } = waitNext()
    expect(reasons[0]).toMatch(/request limit is used up/)
    clock.now += 40
    await third
    expect(limiter.running).toBe(3)
  })

  it('holds every request while a token limit is used up, until its reset', async () => {
    const limits = { 'anthropic-ratelimit-input-tokens-remaining': '0', 'anthropic-ratelimit-input-tokens-reset': '2026-11-23T10:00:00.020Z' }
    const { clock, limiter, waitNext } = await afterAnswer(200, limits)
    const { reasons, next } = waitNext()
    expect(reasons[0]).toMatch(/token limit/)
    clock.now += 20
    await next
    expect(limiter.running).toBe(1)
  })

  it('caps a hold the server asks for at maxHoldMs, and a queued request leaves when its signal aborts', async () => {
    const { limiter, waitNext } = await afterAnswer(529, { 'retry-after': '86400' }, { start: 5_000, maxHoldMs: 60_000 })
    const stop = new AbortController()
    const { reasons, next: waiting } = waitNext(stop.signal)
    expect(reasons[0]).toMatch(/overloaded; waiting 60 s/)
    stop.abort(new Error('stopped'))
    await expect(waiting).rejects.toThrow('stopped')
    expect(limiter.queued).toBe(0)
  })
})
