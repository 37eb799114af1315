// Cache-aware starts. Requests that share a stable prefix (tools, system prompt, thinking and effort) read it
// from the prompt cache only if an earlier request wrote it and that request's response has begun: sixteen
// siblings sent at the same instant would each write it (1.25× the input price) and none read it (0.1×).
// Forks started by one turn share more: their parent's conversation up to that very reply (the same message
// object in each of their requests), so the reply is part of their key.
// The gate keeps, per prefix, whether a request carrying it is in flight (sent, no response yet) or warm
// (a response began recently), and holds a request back only while its prefix is in flight:
//  - `first`: the first request goes at once; the others go when its response begins (cost: one
//    time-to-first-token of latency for the rest of a fan-out, nothing for a lone request);
//  - `prewarm`: the first request is preceded by a `max_tokens: 0` request of the prefix alone, which every
//    request with that prefix waits for (an extra request; even a lone request waits);
//  - `off`: nothing waits.
// Waiting never blocks for long: a leader that fails lets the others go, and no wait outlasts `maxWaitMs`.
// And a wait must pay: the gate measures what the requests that waited read from the cache (their response's
// `cache_read_input_tokens`). Where waiters of a model read nothing twice running (an endpoint or gateway that
// does not cache it, a prefix the model will not cache after all), its requests stop waiting for one cache
// lifetime, then try again: one time-to-first-token is never spent for nothing fan-out after fan-out.
// And a wait must be worth its time (`waitIsWorthIt`): a request waits only when what the siblings save by
// it, (n−1)·P·input price·(1.25 − 0.1) for a prefix of P tokens shared by n requests (n: the fan-out's
// `cacheFill.sharers`, else the requests that met on the prefix so far), is at least one model latency (the
// leaders' measured time to first token, 1 s until measured) priced at WAIT_USD_PER_SECOND. Two Haiku
// siblings on a 4,700-token prefix save $0.005 and go at once; sixteen save $0.08 and wait; a Sonnet or
// Opus prefix always pays. A model without a known price waits as before (the measurement above still applies).
import { DEFAULT_PRICES } from './pricing'
import { familyOf } from './aliases'
import { CACHE_PRICE, CACHE_TTL_MS, minCacheableTokens } from './prompt-cache-rules'
import { latestReply } from './request-body'
import { toolsJson } from './tools-json'
import type { ModelRequest } from './types'

import { CACHE_SHARING_MODES, type CacheSharingMode } from '../../../shared/settings-fields'

export { CACHE_SHARING_MODES }
export type CacheSharing = CacheSharingMode
export const DEFAULT_CACHE_SHARING: CacheSharing = 'first'

export interface CacheTicket {
  /** This request's response began: its prefix is in the cache now. `read`: the tokens it read from the cache. */
  begun(read?: number): void
  /** It ended without a response: whoever waited on it goes on its own. */
  failed(): void
}

const NO_TICKET: CacheTicket = { begun() {}, failed() {} }

interface Lane {
  /** Resolves when the prefix is written or its writer gave up. */
  ready: Promise<void>
  /** Requests that met this prefix in flight (the leader's siblings so far). */
  waiters: number
  settle: () => void
  /** The start of the last request whose response began with this prefix (null while in flight). */
  warmSince: number | null
}

export interface CacheGateOptions {
  now?: () => number
  /** How long a prefix counts as cached after a request read or wrote it: under the API's 5 minutes. */
  warmForMs?: number
  /** The longest a request waits for another's response to begin. */
  maxWaitMs?: number
}

/** Waits in a row that read nothing after which a model's requests stop waiting (for one cache lifetime). */
const UNPAID_WAITS = 2

/** What a second of a fan-out's wait is worth, in USD (about a person's time: $36 an hour). */
export const WAIT_USD_PER_SECOND = 0.01
/** A model's time to first token until the gate has measured one. */
const DEFAULT_LATENCY_MS = 1000

/** What a request may tell the gate about the wait's worth: its prefix's tokens and how many share it. */
export interface WaitWorth {
  prefixTokens: number
  sharers?: number
}

/**
 * The rule of the header: waiting pays when (n−1) siblings' saving on the prefix is at least one model latency
 * at WAIT_USD_PER_SECOND. True for a model without a known price.
 */
export function waitIsWorthIt(model: string, worth: WaitWorth, siblings: number, latencyMs: number): boolean {
  const family = familyOf(model)
  const price = family ? DEFAULT_PRICES[family]?.inputPerMTok : undefined
  if (!price) return true
  const saving = (siblings * worth.prefixTokens * price * (CACHE_PRICE.write5m - CACHE_PRICE.read)) / 1_000_000
  return saving >= (latencyMs / 1000) * WAIT_USD_PER_SECOND
}

export class CacheSharingGate {
  private readonly lanes = new Map<string, Lane>()
  /** Per model: waits in a row that read nothing, and when waiting was last found not to pay. */
  private readonly unpaid = new Map<string, { count: number; since: number }>()
  /** Per model: the leaders' time to first token, smoothed. */
  private readonly latency = new Map<string, number>()
  private readonly now: () => number
  private readonly warmForMs: number
  private readonly maxWaitMs: number

  constructor(opts: CacheGateOptions = {}) {
    this.now = opts.now ?? (() => Date.now())
    this.warmForMs = opts.warmForMs ?? CACHE_TTL_MS['5m'] - 30_000
    // A leader whose response has not begun in 15 s is stalled or slow beyond a usual first token: the
    // others go on uncached rather than wait on it (a stalled stream is cut only after minutes).
    this.maxWaitMs = opts.maxWaitMs ?? 15_000
  }

  /**
   * Resolves when a request with this prefix key may be sent (null key: at once). With `prewarm`, a request
   * that finds its prefix neither cached nor in flight sends it first and goes once that is done.
   */
  async enter(key: string | null, signal?: AbortSignal, prewarm?: () => Promise<void>, model = '', worth?: WaitWorth): Promise<CacheTicket> {
    if (key === null) return NO_TICKET
    let waited = false
    for (;;) {
      const started = this.now()
      const lane = this.lanes.get(key)
      if (lane && lane.warmSince !== null && started - lane.warmSince < this.warmForMs) return this.ticket(key, lane, started, waited ? model : null)
      if (lane && lane.warmSince === null) {
        if (!this.waitingPays(model, started)) return NO_TICKET
        if (!waited) lane.waiters++
        const siblings = Math.max(lane.waiters, (worth?.sharers ?? 0) - 1)
        if (worth && !waitIsWorthIt(model, worth, siblings, this.latency.get(model) ?? DEFAULT_LATENCY_MS)) return NO_TICKET
        await this.wait(lane.ready, signal)
        waited = true
        if (this.lanes.get(key) === lane && lane.warmSince === null) return NO_TICKET // waited long enough
        continue
      }
      if (!prewarm) return this.ticket(key, this.openLane(key, started), started, null, model)
      await this.lead(key, prewarm)?.catch(() => undefined) // a failed pre-warm lets the request go uncached
      return NO_TICKET
    }
  }

  /** A new lane for `key`, in flight from `now` (expired lanes swept first). */
  private openLane(key: string, now: number): Lane {
    this.sweep(now)
    let settle!: () => void
    const ready = new Promise<void>((r) => (settle = r))
    const lane: Lane = { ready, settle, warmSince: null, waiters: 0 }
    this.lanes.set(key, lane)
    return lane
  }

  /**
   * Writes a prefix ahead of the requests that will share it (a fan-out's siblings while their Agent calls
   * still stream, or a `prewarm`): `write` runs when the prefix is neither warm nor in flight, and requests
   * that meet it in flight wait for it as for a first request. Returns what `write` returns, or null when it
   * was not needed (nothing ran).
   */
  lead<T>(key: string, write: () => Promise<T>): Promise<T> | null {
    const now = this.now()
    const lane = this.lanes.get(key)
    if (lane && (lane.warmSince === null || now - lane.warmSince < this.warmForMs)) return null
    const mine = this.openLane(key, now)
    const written = write()
    written.then(
      () => {
        if (this.lanes.get(key) === mine) mine.warmSince = now
        mine.settle()
      },
      () => this.drop(key, mine)
    )
    return written
  }

  /** Whether waiting for (or warming) this model's prefixes pays: false while waits were found to read nothing (see UNPAID_WAITS). */
  waitingPays(model: string, t = this.now()): boolean {
    const u = this.unpaid.get(model)
    if (!u || u.count < UNPAID_WAITS) return true
    if (t - u.since < this.warmForMs) return false
    this.unpaid.delete(model) // a lifetime later: measured again
    return true
  }

  /** What a request that waited read: nothing counts against waiting for its model, anything resets the count. */
  private measure(model: string, read: number | undefined): void {
    if (read === undefined) return
    if (read > 0) this.unpaid.delete(model)
    else this.unpaid.set(model, { count: (this.unpaid.get(model)?.count ?? 0) + 1, since: this.now() })
  }

  private ticket(key: string, lane: Lane, started: number, waitedFor: string | null = null, leaderOf?: string): CacheTicket {
    return {
      begun: (read?: number) => {
        if (waitedFor !== null) this.measure(waitedFor, read)
        if (this.lanes.get(key) !== lane) return
        if (leaderOf !== undefined && lane.warmSince === null) this.noteLatency(leaderOf, this.now() - started)
        lane.warmSince = Math.max(lane.warmSince ?? 0, started)
        lane.settle()
      },
      failed: () => {
        if (lane.warmSince === null) this.drop(key, lane)
      }
    }
  }

  private noteLatency(model: string, ms: number): void {
    const before = this.latency.get(model)
    this.latency.set(model, before === undefined ? ms : 0.7 * before + 0.3 * ms)
  }

  private drop(key: string, lane: Lane): void {
    if (this.lanes.get(key) === lane) this.lanes.delete(key)
    lane.settle()
  }

  private async wait(ready: Promise<void>, signal?: AbortSignal): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined
    let onAbort: (() => void) | undefined
    try {
      await Promise.race([
        ready,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, this.maxWaitMs))),
        new Promise<void>((_, reject) => {
          if (!signal) return
          onAbort = () => reject(signal.reason ?? new Error('aborted'))
          if (signal.aborted) onAbort()
          else signal.addEventListener('abort', onAbort, { once: true })
        })
      ])
    } finally {
      clearTimeout(timer)
      if (onAbort) signal?.removeEventListener('abort', onAbort)
    }
  }

  private sweep(t: number): void {
    if (this.lanes.size < 256) return
    for (const [k, l] of this.lanes) if (l.warmSince !== null && t - l.warmSince >= this.warmForMs) this.lanes.delete(k)
  }
}

// The prefix key of a request: what the tools and system breakpoints cover, plus what renders ahead of the
// messages. Memoized on the tools array, which a run reuses for every turn.
const memo = new WeakMap<object, { system: unknown; rest: string; key: string | null; tokens: number }>()

const replyIds = new WeakMap<object, number>()
let nextReplyId = 0

/**
 * The key requests wait on each other by: the stable prefix, and the latest reply of the conversation they
 * carry (by identity: only forks of one turn hold the same reply object). Null when the prefix is too short
 * to be cached at all.
 */
export function sharingKey(request: ModelRequest): string | null {
  const stable = stablePrefixKey(request)
  if (stable === null) return null
  const at = latestReply(request.messages)
  if (at === -1) return stable
  const reply = request.messages[at]
  let id = replyIds.get(reply)
  if (id === undefined) replyIds.set(reply, (id = ++nextReplyId))
  return `${stable}#${id}`
}

/** The key of a request's stable prefix, or null when it is too short for the model to cache. */
export function stablePrefixKey(request: ModelRequest): string | null {
  const rest = `${request.model}\u0000${request.sharedTools ?? 0}\u0000${JSON.stringify(request.thinking ?? null)}\u0000${request.effort ?? ''}`
  const tools = request.tools ?? []
  const hit = memo.get(tools)
  if (hit && hit.system === request.system && hit.rest === rest) return hit.key
  return remember(request, rest).key
}

/** Tokens of a request's stable prefix (tools and system prompt), as the key counted them. */
export function stablePrefixTokens(request: ModelRequest): number {
  stablePrefixKey(request)
  return memo.get(request.tools ?? [])?.tokens ?? 0
}

/**
 * Short names for the prefix texts seen lately: a Map finds a text by V8's own string hash, native, where a sha1
 * of its 20-40 KB needed node:crypto, ~3-4.5 ms to load before `fanout run`'s first request. The keys stay small
 * in the gate's lanes. The last PREFIX_NAMES_KEPT texts used are kept; one dropped and seen again gets a new name,
 * which costs at most one sibling a wait it could have had.
 */
const PREFIX_NAMES_KEPT = 64
const prefixNames = new Map<string, string>()
let nextPrefixName = 0

function prefixName(text: string): string {
  let name = prefixNames.get(text)
  if (name === undefined) name = `prefix-${++nextPrefixName}`
  else prefixNames.delete(text)
  prefixNames.set(text, name)
  if (prefixNames.size > PREFIX_NAMES_KEPT) prefixNames.delete(prefixNames.keys().next().value as string)
  return name
}

function remember(request: ModelRequest, rest: string): { key: string | null; tokens: number } {
  const tools = request.tools ?? []
  const toolsText = toolsJson(tools)
  const systemText = typeof request.system === 'string' ? request.system : JSON.stringify(request.system ?? '')
  const tokens = (toolsText.length + systemText.length) / 4
  const key = tokens < minCacheableTokens(request.model) ? null : prefixName(`${rest}\u0000${toolsText}\u0000${systemText}`)
  const entry = { system: request.system, rest, key, tokens }
  memo.set(tools, entry)
  return entry
}
