// Which failures are worth retrying, how long to wait, and an abortable sleep.
// The SDK's own retries are off (maxRetries: 0) because they cannot restart a stream that drops
// half-way through a message; the client retries whole attempts itself.
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error'
import { StreamIncompleteError, StreamMalformedError } from './errors'
import { errorMessage } from '../../../shared/error-message'

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504, 529])
const RETRYABLE_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error'])
// undici reports a socket that closed mid-body as `TypeError: terminated`; Node networking errors carry these codes.
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])
// Nothing listens at the address, or the name does not resolve: waiting rarely fixes these, a corrected
// base URL does, so they get a quick second try and then a sentence saying where the address is set.
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'])

export interface FailureInfo {
  retryable: boolean
  status?: number
  /** For people: "Overloaded (529): Overloaded". */
  message: string
  /** What the server asked us to wait (retry-after-ms / retry-after), if it said. */
  retryAfterMs?: number
  /** Nothing answered at the address (refused, unknown host): worth one quick retry, not nine slow ones. */
  unreachable?: boolean
  /** What the API itself said, when it answered with an error: its error type and message. */
  api?: ApiErrorDetail
}

/** An API error as the API put it (Claude Code's `API Error: 400 <message>` is made of these). */
export interface ApiErrorDetail {
  type?: string
  message: string
}

const TYPE_LABELS: Record<string, string> = {
  overloaded_error: 'Overloaded',
  rate_limit_error: 'Rate limited',
  api_error: 'API error',
  authentication_error: 'Authentication failed',
  permission_error: 'Permission denied',
  invalid_request_error: 'Invalid request',
  not_found_error: 'Not found',
  request_too_large: 'Request too large'
}

/** An error and the causes under it (fetch and the SDK wrap what went wrong; a few levels is plenty). */
function causes(err: unknown): any[] {
  const chain: any[] = []
  for (let e: any = err; e && chain.length < 5; e = e.cause) chain.push(e)
  return chain
}

// Checked after isUnreachable: an address nothing answers at is not a dropped connection.
const isNetworkError = (err: unknown) =>
  causes(err).some(
    (e) => (e instanceof TypeError && /terminated|fetch failed|network|socket/i.test(e.message)) || (typeof e.code === 'string' && NETWORK_CODES.has(e.code))
  )

const isUnreachable = (err: unknown) => causes(err).some((e) => typeof e.code === 'string' && UNREACHABLE_CODES.has(e.code))

/**
 * The most specific message in an error's cause chain: fetch says only "fetch failed" and the SDK
 * "Connection error."; what a person can act on ("connect ECONNREFUSED 127.0.0.1:9") is further in.
 */
function rootMessage(err: unknown): string {
  let message = errorMessage(err)
  for (const e of causes(err).slice(1)) if (typeof e.message === 'string' && e.message) message = e.message
  return message
}

export function describeFailure(err: unknown): FailureInfo {
  if (err instanceof StreamIncompleteError || err instanceof StreamMalformedError) return { retryable: true, message: err.message }
  if (err instanceof APIUserAbortError) return { retryable: false, message: 'The request was aborted.' }
  if (err instanceof APIConnectionError)
    return { retryable: true, message: `Could not reach the API: ${rootMessage(err)}`, ...(isUnreachable(err) ? { unreachable: true } : {}) }
  if (err instanceof APIError) {
    const status = err.status
    const type = err.type ?? undefined
    const label = (type && TYPE_LABELS[type]) || (status ? `HTTP ${status}` : 'Stream error')
    const detail = err.apiMessage ?? err.message
    const message = `${label}${status ? ` (${status})` : ''}: ${detail}`
    const shouldRetryHeader = err.headers?.get('x-should-retry')
    let retryable = status !== undefined ? RETRYABLE_STATUS.has(status) : RETRYABLE_TYPES.has(type ?? '')
    if (shouldRetryHeader === 'false' && status !== undefined) retryable = false
    if (shouldRetryHeader === 'true') retryable = true
    return {
      retryable,
      status,
      message,
      retryAfterMs: status !== undefined ? retryAfterFrom(err.headers) : undefined,
      api: { ...(type ? { type } : {}), message: detail }
    }
  }
  if (isUnreachable(err)) return { retryable: true, unreachable: true, message: `Could not reach the API: ${rootMessage(err)}` }
  if (isNetworkError(err)) return { retryable: true, message: `The connection dropped: ${rootMessage(err)}` }
  return { retryable: false, message: errorMessage(err) }
}

/** Where a base URL was set, so a failure can say where to correct it. */
export type BaseUrlSource = 'settings' | 'environment' | 'default'

/** Why nothing answered, without the lead-in of describeFailure's message. */
export const unreachableCause = (message: string): string => message.replace(/^Could not reach the API: /, '')

/** The sentence for an address nothing answered at: the URL, the cause, and where the URL comes from. */
export function unreachableMessage(baseURL: string, source: BaseUrlSource, cause: string): string {
  const why = unreachableCause(cause)
  const where =
    source === 'settings'
      ? 'This address is set in Settings → Base URL; correct it there, or clear it to use the Anthropic API.'
      : source === 'environment'
        ? 'This address comes from the ANTHROPIC_BASE_URL environment variable; correct or unset it, or set a Base URL in Settings.'
        : 'Check the network connection, or set a Base URL in Settings if you use a gateway.'
  return `Could not connect to ${baseURL} (${why}). ${where}`
}

/** retry-after-ms (milliseconds) wins over retry-after (seconds, possibly fractional, or an HTTP date). */
export function retryAfterFrom(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  const after = headers.get('retry-after')
  if (after === null || after.trim() === '') return undefined
  const seconds = Number(after)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(after)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

export interface BackoffOptions {
  baseMs: number
  maxMs: number
  /** Longest server-requested wait we honour; beyond it the wait is capped (a misconfigured gateway must not stall agents for hours). */
  maxRetryAfterMs?: number
}

/** Exponential backoff with up to 25% jitter; the server's retry-after wins when it gave one. */
export function backoffDelay(attempt: number, opts: BackoffOptions, retryAfterMs?: number, random = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, opts.maxRetryAfterMs ?? 300_000)
  const exp = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(exp * (1 - 0.25 * random()))
}

/** Resolves after `ms`, or rejects at once when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
