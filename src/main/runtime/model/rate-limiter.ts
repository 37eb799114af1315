// How many model requests go out at once, learned from the API's own signals instead of a fixed number.
// A wide fan-out starts every request it can; a 429/529 halves the window (once per burst: the other
// answers of the same burst were sent under the old window) and never stays wider than the requests the
// server is still serving; it holds new requests until the server's retry-after; an answer that got
// through while the window was full widens it by one again (AIMD).
// The anthropic-ratelimit-* headers hold requests back before the server has to refuse them: no more
// requests than `requests-remaining` until `requests-reset`, none while input or output tokens are used up.
// One limiter per endpoint and credential, shared by every session of the process (the account's limits
// are shared too); the client's retry loop (client.ts) stays as it was and waits here before each attempt.
import { retryAfterFrom } from './retry'
import { monotonicMs } from '../clock'

/** The most requests in flight at once, whatever the headers say: what the keep-alive pool holds (http-fetch.ts). */
export const MAX_IN_FLIGHT = 256

/** Statuses that mean "slow down": rate limited, overloaded. */
const BACKOFF_STATUS = new Set([429, 529])

/** Headers naming what is left of a limit and when it refills (RFC 3339). */
const REQUEST_LIMIT = { remaining: 'anthropic-ratelimit-requests-remaining', reset: 'anthropic-ratelimit-requests-reset' }
const TOKEN_LIMITS = [
  { remaining: 'anthropic-ratelimit-tokens-remaining', reset: 'anthropic-ratelimit-tokens-reset' },
  { remaining: 'anthropic-ratelimit-input-tokens-remaining', reset: 'anthropic-ratelimit-input-tokens-reset' },
  { remaining: 'anthropic-ratelimit-output-tokens-remaining', reset: 'anthropic-ratelimit-output-tokens-reset' }
]

export interface RateLimiterOptions {
  /** The widest window. Default MAX_IN_FLIGHT. */
  max?: number
  /** Longest hold honoured from a header or retry-after (a misconfigured gateway must not stall agents for hours). Default 5 min. */
  maxHoldMs?: number
  /**
   * The clock holds are kept on: monotonic by default (clock.ts), so a hold of one second lasts one
   * second when the machine's wall clock is set back or forward meanwhile. Given alone, it is the wall clock too.
   */
  now?: () => number
  /** The wall clock the headers' reset times (RFC 3339) are read against. Default `now` when given, else Date.now. */
  wallNow?: () => number
}

/** Why a request waits, for the agent's status line. */
export type WaitReason = string

interface Waiter {
  go: (ticket: Ticket) => void
  fail: (e: unknown) => void
}

/** A request in flight: what it learns from its answer, and its slot given back when it is over. */
export interface Ticket {
  /** The answer's status and headers (every response, refused or not). */
  observe(status: number, headers: Headers): void
  release(): void
}

export class RateLimiter {
  private readonly max: number
  private readonly maxHoldMs: number
  private readonly now: () => number
  private readonly wallNow: () => number
  /** Requests allowed in flight. */
  private window: number
  private inFlight = 0
  /** Of those, the ones already refused (429/529) whose attempt has not ended yet. */
  private refusedInFlight = 0
  /** Bumped at each decrease: a refusal of a request sent before it says nothing new. */
  private epoch = 0
  /** No request starts before this (retry-after, a used-up limit). */
  private holdUntil = 0
  private holdReason = ''
  /** Requests the headers say may still start before `requestsReset`; null when they said nothing. */
  private requestsLeft: number | null = null
  private requestsReset = 0
  private readonly waiters: Waiter[] = []
  private timer: ReturnType<typeof setTimeout> | null = null

  constructor(opts: RateLimiterOptions = {}) {
    this.max = Math.max(1, opts.max ?? MAX_IN_FLIGHT)
    this.maxHoldMs = opts.maxHoldMs ?? 300_000
    this.now = opts.now ?? monotonicMs
    this.wallNow = opts.wallNow ?? opts.now ?? Date.now
    this.window = this.max
  }

  /** The requests allowed in flight now (tests and the bench read it). */
  get limit(): number {
    return Math.max(1, Math.floor(this.window))
  }

  get running(): number {
    return this.inFlight
  }

  get queued(): number {
    return this.waiters.length
  }

  /**
   * Resolves once the request may go. `onWait(reason)` is told when it has to wait, and `onWait(null)` when
   * the wait is over, so the agent shows as queued meanwhile. Rejects with the signal's reason on abort.
   */
  async acquire(signal?: AbortSignal, onWait?: (reason: WaitReason | null) => void): Promise<Ticket> {
    if (signal?.aborted) throw signal.reason
    if (!this.waiters.length && this.blocked() === null) return this.start()
    onWait?.(this.blocked() ?? 'waiting for the API rate limit')
    const ticket = await new Promise<Ticket>((go, fail) => {
      const waiter: Waiter = { go, fail }
      this.waiters.push(waiter)
      signal?.addEventListener(
        'abort',
        () => {
          const i = this.waiters.indexOf(waiter)
          if (i < 0) return
          this.waiters.splice(i, 1)
          fail(signal.reason)
          this.pump()
        },
        { once: true }
      )
      this.pump()
    })
    onWait?.(null)
    return ticket
  }

  private observe(status: number, headers: Headers, epoch: number): boolean {
    const now = this.now()
    const refused = BACKOFF_STATUS.has(status)
    if (refused) {
      this.refusedInFlight++
      if (epoch === this.epoch) {
        this.epoch++
        this.window = Math.max(1, this.window / 2)
      }
      // No wider than what the server still serves (the refused ones of this burst aside).
      this.window = Math.max(1, Math.min(this.window, this.inFlight - this.refusedInFlight))
      const after = retryAfterFrom(headers)
      this.hold(now + (after ?? 1000), status === 429 ? 'rate limited by the API' : 'the API is overloaded')
    } else if (status >= 200 && status < 300 && this.inFlight >= this.limit) {
      this.window = Math.min(this.max, this.window + 1)
    }
    const left = intHeader(headers, REQUEST_LIMIT.remaining)
    const reset = this.onClock(timeHeader(headers, REQUEST_LIMIT.reset))
    if (left !== null && reset !== null && reset > now) {
      this.requestsLeft = left
      this.requestsReset = Math.min(reset, now + this.maxHoldMs)
    }
    for (const t of TOKEN_LIMITS) {
      const tokens = intHeader(headers, t.remaining)
      const at = this.onClock(timeHeader(headers, t.reset))
      if (tokens !== null && tokens <= 0 && at !== null) this.hold(at, 'the API token limit is used up until it refills')
    }
    this.pump()
    return refused
  }

  /** A wall-clock time from a header, on the limiter's own clock. */
  private onClock(wall: number | null): number | null {
    return wall === null ? null : this.now() + (wall - this.wallNow())
  }

  private hold(until: number, reason: string): void {
    const capped = Math.min(until, this.now() + this.maxHoldMs)
    if (capped <= this.holdUntil) return
    this.holdUntil = capped
    this.holdReason = reason
  }

  /** Why a new request may not start at `now`, or null when it may. */
  private blocked(now = this.now()): WaitReason | null {
    if (now < this.holdUntil) return `${this.holdReason}; waiting ${Math.ceil((this.holdUntil - now) / 1000)} s`
    if (this.requestsLeft !== null && now < this.requestsReset && this.requestsLeft <= 0) return 'the API request limit is used up until it refills'
    if (this.inFlight >= this.limit) return `${this.inFlight} model requests in flight, as many as the API takes now`
    return null
  }

  private start(): Ticket {
    this.inFlight++
    if (this.requestsLeft !== null) {
      if (this.now() >= this.requestsReset) this.requestsLeft = null
      else this.requestsLeft--
    }
    const epoch = this.epoch
    let released = false
    let refused = false
    return {
      observe: (status, headers) => {
        if (!released && !refused) refused = this.observe(status, headers, epoch)
      },
      release: () => {
        if (released) return
        released = true
        this.inFlight--
        if (refused) this.refusedInFlight--
        this.pump()
      }
    }
  }

  /**
   * Lets waiters go while nothing blocks them; else wakes up when the hold ends. Whether they are blocked
   * and how long to sleep are read off one reading of the clock: read twice, a hold that ends between the
   * two readings (a timer fires a hair before its time, then the clock moves on) blocked the waiters and
   * set no timer to wake them, and they waited for good.
   */
  private pump(): void {
    let now = this.now()
    while (this.waiters.length && this.blocked(now) === null) {
      this.waiters.shift()!.go(this.start())
      now = this.now()
    }
    if (!this.waiters.length || this.timer) return
    const until = Math.max(this.holdUntil, this.requestsLeft !== null && this.requestsLeft <= 0 ? this.requestsReset : 0)
    if (until > now) {
      this.timer = setTimeout(() => {
        this.timer = null
        this.pump()
      }, until - now)
    }
  }
}

function intHeader(headers: Headers, name: string): number | null {
  const v = headers.get(name)
  if (v === null || v.trim() === '') return null
  const n = Number(v)
  return Number.isFinite(n) ? n : null
}

function timeHeader(headers: Headers, name: string): number | null {
  const v = headers.get(name)
  if (!v) return null
  const t = Date.parse(v)
  return Number.isNaN(t) ? null : t
}
