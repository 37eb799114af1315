// The Anthropic client: streaming Messages API through @anthropic-ai/sdk, with our own retry loop
// (so a stream that drops half-way is retried whole and its partial text never reaches the
// conversation), usage and cost per call, and GET /v1/models.
import { APIError } from '@anthropic-ai/sdk/core/error'
import type { MessageCreateParamsNonStreaming, MessageCreateParamsStreaming, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import { DEFAULT_CACHE_SHARING, sharingKey, stablePrefixTokens, type CacheSharing, type CacheTicket } from './cache-sharing'
import { registerSecret } from '../../../shared/redact'
import { MissingCredentialsError, ModelAbortedError, ModelCallError, StreamIncompleteError, StreamMalformedError } from './errors'
import { createHttpFetch, type PooledFetch } from './http-fetch'
import { MessagesClient } from './sdk-client'
import { MessageAccumulator, tokenCountsOf } from './message-accumulator'
import type { Ticket } from './rate-limiter'
import { accountOf } from './accounts'
import { listModels } from './list-models'
import { DEFAULT_PRICES, usageWithCost, type PriceTable } from './pricing'
import { backoffDelay, describeFailure, sleep, unreachableCause, unreachableMessage, type BaseUrlSource } from './retry'
import { buildRequestBody, latestReply } from './request-body'
import { withCacheFill } from './cache-fill'
import { assertSendable } from './request-invariants'
import type { Usage } from '../../../shared/usage'
import { CONTEXT_MANAGEMENT_BETA, type ModelClient, type ModelRequest, type ModelResponse, type StreamHandlers } from './types'
import { monotonicMs, QuietDeadline } from '../clock'
import { connectAhead } from './connect-ahead'
import { streamedCalls, streamEvents } from './streamed-call'

export interface ModelClientConfig {
  apiKey?: string
  authToken?: string
  baseURL?: string
  /** Retries after the first attempt. Default: CLAUDE_CODE_MAX_RETRIES from the environment, else 8. */
  maxRetries?: number
  /** First backoff delay; doubles per attempt. Default 500 ms. */
  retryBaseMs?: number
  /** Longest backoff delay. Default 32 s. */
  retryMaxMs?: number
  /** Longest server-requested wait (retry-after) honoured. Default 5 min. */
  maxRetryAfterMs?: number
  /** Per-request timeout until the response starts. Default 10 min (the SDK's). */
  timeoutMs?: number
  /** A stream that sends nothing for this long is cut and retried like a dropped one. Default 3 min. */
  streamIdleTimeoutMs?: number
  /**
   * The most one call may spend failing and retrying (stalled attempts, backoff, the server's retry-after)
   * before it gives up, its reason saying so. Default 10 min: without it, an endpoint that always stalls
   * took 9 × 3 min to fail, and one that always asks to wait 5 min, 40 min.
   */
  maxRetryTimeMs?: number
  prices?: PriceTable
  fetch?: typeof fetch
  /** Read instead of process.env (tests). */
  env?: Record<string, string | undefined>
  /** Where `baseURL` was set (Settings), for the sentence when nothing answers there. */
  baseUrlSource?: BaseUrlSource
  /** How requests that share a prompt prefix start (cache-sharing.ts). Default `first`. */
  cacheSharing?: CacheSharing
  /**
   * Claude Code's --fallback-model (a full id): a model that answers "overloaded" (529) FALLBACK_AFTER_OVERLOADS
   * times in a row is replaced by this one, for that call and every later call of this client.
   */
  fallbackModel?: string
}

/** Overloaded answers in a row before --fallback-model takes over (Claude Code 2.1.328 switches at the third). */
export const FALLBACK_AFTER_OVERLOADS = 3

const DEFAULT_MAX_RETRIES = 8
const DEFAULT_MAX_RETRY_TIME_MS = 10 * 60_000

const duration = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`)
/** Attempts, in all, at an address that refused the connection or does not resolve. */
const UNREACHABLE_ATTEMPTS = 2
/** How long the body of a reply may go on after its message_stop before its connection is cut (readToEnd). */
const STREAM_END_GRACE_MS = 2000

// One connection pool for the process: every session's client shares its keep-alive connections.
let sharedFetch: PooledFetch | undefined
const defaultFetch = () => (sharedFetch ??= createHttpFetch())

/** A `max_tokens: 0` request of the body's prefix alone: it writes the tools and system entries and returns. */
function prewarmBody(body: MessageCreateParamsStreaming): MessageCreateParamsNonStreaming | null {
  // The API refuses max_tokens 0 with extended thinking; adaptive thinking is fine.
  if (body.thinking?.type === 'enabled') return null
  const { messages: _m, stream: _s, max_tokens: _t, ...prefix } = body
  return { ...prefix, max_tokens: 0, messages: [{ role: 'user', content: 'warmup' }] } as MessageCreateParamsNonStreaming
}

/** The request options naming the betas a body relies on (a pre-warm carries the same body fields). */
function betaHeaders(betas: string[]): { headers?: Record<string, string> } {
  return betas.length ? { headers: { 'anthropic-beta': betas.join(',') } } : {}
}

export function createModelClient(cfg: ModelClientConfig = {}): ModelClient {
  const env = cfg.env ?? process.env
  const apiKey = cfg.apiKey || (cfg.authToken ? undefined : env.ANTHROPIC_API_KEY) || undefined
  const authToken = apiKey ? undefined : cfg.authToken || env.ANTHROPIC_AUTH_TOKEN || undefined
  if (!apiKey && !authToken) throw new MissingCredentialsError()
  // The credential in use is hidden from every event, transcript and answer from here on (shared/redact.ts).
  registerSecret(apiKey)
  registerSecret(authToken)
  const baseURL = cfg.baseURL || env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com'
  const baseUrlSource: BaseUrlSource = cfg.baseURL ? (cfg.baseUrlSource ?? 'settings') : env.ANTHROPIC_BASE_URL ? 'environment' : 'default'
  const prices = cfg.prices ?? DEFAULT_PRICES
  // CLAUDE_CODE_MAX_RETRIES is Claude Code's own knob for the same budget; a script written for it works here.
  const fromEnv = Number.parseInt(env.CLAUDE_CODE_MAX_RETRIES ?? '', 10)
  const maxAttempts = Math.max(0, cfg.maxRetries ?? (Number.isFinite(fromEnv) ? fromEnv : DEFAULT_MAX_RETRIES)) + 1
  const backoff = { baseMs: cfg.retryBaseMs ?? 500, maxMs: cfg.retryMaxMs ?? 32_000, maxRetryAfterMs: cfg.maxRetryAfterMs }

  const httpFetch = cfg.fetch ?? defaultFetch()
  const preconnect = 'preconnect' in httpFetch && typeof httpFetch.preconnect === 'function' ? (httpFetch as PooledFetch).preconnect : null
  // Exactly one credential is passed and the other is null, so the SDK neither reads the environment
  // again nor falls back to profiles on disk.
  const sdk = new MessagesClient({
    apiKey: apiKey ?? null,
    authToken: authToken ?? null,
    baseURL,
    maxRetries: 0,
    timeout: cfg.timeoutMs,
    fetch: httpFetch,
    openTelemetry: false,
    // The SDK logs a data line it cannot parse to the console; the client retries it and says so in its own words.
    logLevel: 'off'
  })

  // A turn's streamed call: the request the SDK builds, sent without its cost per request (streamed-call.ts).
  const send = streamedCalls(sdk, httpFetch, cfg.timeoutMs)
  const idleMs = cfg.streamIdleTimeoutMs ?? 180_000
  const maxRetryTimeMs = cfg.maxRetryTimeMs ?? DEFAULT_MAX_RETRY_TIME_MS
  const sharing = cfg.cacheSharing ?? DEFAULT_CACHE_SHARING
  const { gate, limiter } = accountOf(baseURL, apiKey ?? authToken ?? '')
  /** Models replaced by the fallback model after overloads, for every later call (see fallbackModel). */
  const switched = new Map<string, string>()

  /** Waits, when siblings are writing the same prefix, until it can be read (see cache-sharing.ts). */
  async function enterGate(
    request: ModelRequest,
    body: MessageCreateParamsStreaming,
    betas: string[],
    signal: AbortSignal | undefined,
    /** How many requests the fan-out shares this prefix between (its cache fill's count), when known. */
    sharers?: number
  ): Promise<CacheTicket> {
    const key = sharing === 'off' || request.promptCaching === false ? null : sharingKey(request)
    // A pre-warm carries the stable prefix alone: it serves agents' first requests (forks of one turn wait
    // for the first of them instead).
    const warm = sharing === 'prewarm' && latestReply(request.messages) === -1 ? prewarmBody(body) : null
    try {
      return await gate.enter(
        key,
        signal,
        warm ? async () => void (await sdk.messages.create(warm, { signal, ...betaHeaders(betas) })) : undefined,
        request.model,
        key === null ? undefined : { prefixTokens: stablePrefixTokens(request), ...(sharers ? { sharers } : {}) }
      )
    } catch {
      throw new ModelAbortedError([])
    }
  }

  async function attempt(
    body: MessageCreateParamsStreaming,
    betas: string[],
    acc: MessageAccumulator,
    signal: AbortSignal | undefined,
    /** How long this attempt may go without an event: the idle timeout, or less when the call's retry time is nearly spent. */
    idleMs: number,
    ticket: CacheTicket,
    /** This request's place under the rate limiter: it reads the answer's status and headers. */
    slot: Ticket,
    handlers: StreamHandlers
  ): Promise<void> {
    // A stalled stream never ends on its own: a watchdog, pushed back by every event, cuts it. The attempt
    // has its own controller that the caller's signal and the watchdog both abort (cheaper than AbortSignal.any).
    const attemptAbort = new AbortController()
    let idle = false
    const onAbort = () => attemptAbort.abort(signal?.reason)
    signal?.addEventListener('abort', onAbort, { once: true })
    const watchdog = new QuietDeadline(idleMs, () => {
      idle = true
      attemptAbort.abort()
    })
    watchdog.poke()
    let streaming = false
    // Connections for the subagents this reply starts, opened while it streams, no more than the rate limiter lets go at once.
    const ahead =
      preconnect &&
      connectAhead(
        preconnect,
        baseURL,
        () => limiter.limit,
        (names) => handlers.startedCalls?.(names) ?? 0
      )
    try {
      const response = await send(body, betas, attemptAbort)
      slot.observe(response.status, response.headers)
      streaming = true
      const events = streamEvents(response)
      for (let next = await events.next(); !next.done; next = await events.next()) {
        const event = next.value
        // Events already read when the call was stopped are not taken: nothing reaches the caller after its stop.
        if (attemptAbort.signal.aborted) break
        watchdog.poke()
        acc.add(event)
        // The message is whole at message_stop: what is left of the body (its end) is read on without the
        // reply waiting for it (a quarter to half a millisecond on every hop between agents).
        if (acc.stopped) {
          readToEnd(events, attemptAbort)
          break
        }
        if (event.type === 'message_start') ticket.begun(event.message.usage?.cache_read_input_tokens ?? 0)
        else if (ahead) ahead(event)
      }
    } catch (err) {
      // Nothing more of this answer is read: its connection is closed rather than left streaming.
      attemptAbort.abort()
      if (err instanceof APIError && err.status !== undefined && err.headers) slot.observe(err.status, err.headers)
      // The SDK parses each data line with JSON.parse: a line that is not JSON is a broken stream, retried like one.
      if (streaming && err instanceof SyntaxError && !signal?.aborted) throw new StreamMalformedError(`a data line is not JSON: ${err.message}`)
      if (!idle || signal?.aborted) throw err
    } finally {
      watchdog.stop()
      signal?.removeEventListener('abort', onAbort)
    }
    // The SDK ends iteration quietly when the signal aborts; the caller checks the signal.
    if (signal?.aborted) return
    if (idle) throw new StreamIncompleteError(`nothing arrived for ${idleMs / 1000} s`)
    if (!acc.stopped) throw new StreamIncompleteError(acc.started ? 'no message_stop event' : 'no events at all')
  }

  /**
   * The rest of a stream whose message has ended, read so that its connection goes back to the pool (leaving the
   * iteration would abort the request and close the connection). The protocol sends nothing after message_stop;
   * whatever comes is dropped, and a body that does not end soon is cut.
   */
  function readToEnd(events: AsyncIterator<RawMessageStreamEvent>, abort: AbortController): void {
    // Unref'd: a connection that lingers keeps the process up until the cut, and nothing else does.
    const cut = setTimeout(() => abort.abort(), STREAM_END_GRACE_MS).unref()
    void (async () => {
      try {
        while (!(await events.next()).done);
      } catch {
        // Nothing after message_stop is the reply's: a failure there changes nothing.
      } finally {
        clearTimeout(cut)
      }
    })()
  }

  async function stream(asked: ModelRequest, handlers: StreamHandlers = {}, signal?: AbortSignal): Promise<ModelResponse> {
    // Never a request the API would reject for its tool calls: that is a bug to say, not a 400 to retry.
    assertSendable(asked.messages)
    // A prefix under the model's cache minimum is filled with the context given for it, where that pays.
    const request = withCacheFill(asked)
    // A model that was overloaded for good earlier in this process is not asked again: its fallback is.
    let model = switched.get(request.model) ?? request.model
    let body = buildRequestBody(model === request.model ? request : { ...request, model })
    let overloaded = 0
    // Time spent retrying runs on the monotonic clock: a wall clock set back or forward must not stretch or cut it.
    const started = monotonicMs()
    const betas = request.contextManagement ? [CONTEXT_MANAGEMENT_BETA] : []
    if (signal?.aborted) throw new ModelAbortedError([])
    const ticket = await enterGate(request, body, betas, signal, asked.cacheFill?.sharers)
    for (let n = 1; ; n++) {
      const acc = new MessageAccumulator(handlers)
      try {
        if (signal?.aborted) throw new ModelAbortedError([])
        const slot = await limiter
          .acquire(signal, (reason) => handlers.onWait?.(reason))
          .catch(() => {
            throw new ModelAbortedError([])
          })
        handlers.onRequest?.(n)
        // A stall near the end of the call's retry time is cut when that time is up, not 3 min later.
        const left = maxRetryTimeMs - (monotonicMs() - started)
        try {
          await attempt(body, betas, acc, signal, n === 1 ? Math.min(idleMs, maxRetryTimeMs) : Math.max(1, Math.min(idleMs, left)), ticket, slot, handlers)
        } finally {
          slot.release()
        }
        if (signal?.aborted) throw new ModelAbortedError(acc.content())
        return {
          content: acc.content(),
          stopReason: acc.stopReason,
          usage: usageWithCost(model, acc.tokens, prices),
          model,
          inputErrors: acc.inputErrors,
          attempts: n,
          ...(acc.cutToolUse() ? { cutToolUse: acc.cutToolUse() } : {}),
          ...(acc.clearedToolUses ? { clearedToolUses: acc.clearedToolUses } : {})
        }
      } catch (err) {
        ticket.failed()
        if (err instanceof ModelAbortedError) throw err
        if (signal?.aborted) throw new ModelAbortedError(acc.content())
        const failure = describeFailure(err)
        // Calls of this reply have started: asking again would make a second reply beside their work, so the
        // reply ends where it got to (its unsigned thinking, which the API would refuse back, left out).
        if (handlers.committed?.())
          return {
            content: acc.content().filter((b) => b.type !== 'thinking' || !!b.signature),
            stopReason: null,
            usage: usageWithCost(model, acc.tokens, prices),
            model,
            inputErrors: acc.inputErrors,
            attempts: n,
            cutShort: failure.message
          }
        if (failure.unreachable && n >= Math.min(maxAttempts, UNREACHABLE_ATTEMPTS)) {
          throw new ModelCallError(unreachableMessage(baseURL, baseUrlSource, failure.message), undefined, n, true, unreachableCause(failure.message))
        }
        overloaded = failure.status === 529 ? overloaded + 1 : 0
        const fallback = cfg.fallbackModel
        if (fallback && model !== fallback && overloaded >= FALLBACK_AFTER_OVERLOADS) {
          switched.set(request.model, fallback)
          handlers.onFallback?.({ from: model, to: fallback })
          model = fallback
          body = buildRequestBody({ ...request, model })
          overloaded = 0
          continue
        }
        if (!failure.retryable || n >= maxAttempts) {
          const suffix = failure.retryable ? ` (gave up after ${n} attempt${n === 1 ? '' : 's'} over ${duration(monotonicMs() - started)})` : ''
          throw new ModelCallError(failure.message + suffix, failure.status, n, failure.retryable, undefined, undefined, failure.api)
        }
        const delayMs = backoffDelay(n, backoff, failure.retryAfterMs)
        const spent = Math.round(monotonicMs() - started)
        if (spent + delayMs >= maxRetryTimeMs)
          throw new ModelCallError(
            `${failure.message} (gave up after ${n} attempt${n === 1 ? '' : 's'} in ${duration(spent)}: a call may spend at most ${duration(maxRetryTimeMs)} retrying${failure.retryAfterMs !== undefined ? `, and the server asked to wait ${duration(delayMs)} more` : ''})`,
            failure.status,
            n,
            true,
            undefined,
            'retry_time',
            failure.api
          )
        handlers.onRetry?.({ attempt: n, maxAttempts, delayMs, message: failure.message, status: failure.status, spentMs: spent, maxRetryTimeMs })
        try {
          await sleep(delayMs, signal)
        } catch {
          throw new ModelAbortedError([])
        }
      }
    }
  }

  /** Models the endpoint refused a warming for (a gateway without max_tokens 0, say): not warmed again by this client. */
  const warmRefused = new Set<string>()

  async function warm(asked: ModelRequest, signal?: AbortSignal): Promise<Usage | null> {
    if (sharing === 'off' || asked.promptCaching === false || signal?.aborted) return null
    const request = withCacheFill(asked)
    const model = switched.get(request.model) ?? request.model
    // Nor where waits for this model were found to read nothing (an endpoint that does not cache it).
    if (warmRefused.has(model) || !gate.waitingPays(model)) return null
    const body = buildRequestBody(model === request.model ? request : { ...request, model })
    const key = sharingKey(request)
    const prefix = prewarmBody(body)
    if (key === null || !prefix) return null
    const betas = request.contextManagement ? [CONTEXT_MANAGEMENT_BETA] : []
    const write = async (): Promise<Usage> => {
      const slot = await limiter.acquire(signal)
      try {
        const { data, response } = await sdk.messages.create(prefix, { signal, ...betaHeaders(betas) }).withResponse()
        slot.observe(response.status, response.headers)
        return usageWithCost(model, tokenCountsOf(data.usage), prices)
      } catch (err) {
        if (err instanceof APIError && err.status !== undefined && err.headers) slot.observe(err.status, err.headers)
        if (err instanceof APIError && err.status !== undefined && err.status >= 400 && err.status < 500 && err.status !== 429) warmRefused.add(model)
        throw err
      } finally {
        slot.release()
      }
    }
    // A failed warming costs nothing more: the siblings write the prefix as they would have (and a refusal is remembered above).
    return gate.lead(key, write)?.catch(() => null) ?? null
  }

  // A run's first request finds its connection open: against the real API the DNS lookup, the TCP connect and the
  // TLS handshake take place while the run reads its settings and agents, not after its request is ready.
  const connect = () => void preconnect?.(baseURL, 1)

  return { stream, listModels: (signal?: AbortSignal) => listModels(sdk, baseURL, baseUrlSource, signal), baseURL, warm, connect }
}
