// A streamed Messages call sent exactly as the SDK's `messages.create` sends it (its URL and headers, built by
// the SDK itself, and the same body bytes), its answer read as the SDK's Stream reads it, errors made by the
// SDK's own classes; without what the SDK spends per request again and again. Per request the SDK built its
// headers anew through undici's Headers (~50 µs), stringified the whole body with its unchanging tool list
// (~45 µs), linked abort signals and tracing; per reply, three async generators deep per event. A fan-out
// sends every sibling's request at once, and each one's share of that CPU is what the last sibling waits behind.
// The headers are built once per set of betas by the SDK's `buildRequest`, and the tool list's JSON is kept
// (tools-json.ts). Calls that are not a streamed model turn (a pre-warm, model listing) go through the SDK as they are.
import { AnthropicError, APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error'
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import type { MessagesClient } from './sdk-client'
import { SseReader, type ServerSentEvent } from './sse-reader'
import { toolsJson } from './tools-json'

/** The SDK's default for a call that names no timeout (messages.create). */
const SDK_DEFAULT_TIMEOUT_MS = 600_000

interface Prepared {
  url: string
  headers: Record<string, string>
  timeout: number
}

/** Exactly `JSON.stringify(body)`, with the tool list's text kept from the agent before. */
export function requestJson(body: object): string {
  let out = '{'
  for (const [key, value] of Object.entries(body)) {
    const text = key === 'tools' && Array.isArray(value) ? toolsJson(value) : JSON.stringify(value)
    // As JSON.stringify: a key whose value has no JSON (undefined, a function) is left out.
    if (text === undefined) continue
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${text}`
  }
  return `${out}}`
}

const isAbortError = (err: unknown): boolean => typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError'

const safeJSON = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export type StreamedSend = (body: MessageCreateParamsStreaming, betas: string[], abort: AbortController) => Promise<Response>

/**
 * Sends streamed calls for `sdk` through `fetch`. `abort` is the attempt's own controller: aborting it stops the call
 * (an APIUserAbortError before the answer starts, as the SDK's signal option does); the timeout until the answer
 * starts aborts it too and throws APIConnectionTimeoutError.
 */
export function streamedCalls(sdk: MessagesClient, fetch: typeof globalThis.fetch, timeoutMs: number | undefined): StreamedSend {
  const prepared = new Map<string, Promise<Prepared>>()
  const prepare = (betas: string[]): Promise<Prepared> => {
    const key = betas.join(',')
    let ready = prepared.get(key)
    if (!ready) {
      ready = sdk
        .buildRequest({
          method: 'post',
          path: '/v1/messages',
          timeout: timeoutMs ?? SDK_DEFAULT_TIMEOUT_MS,
          stream: true,
          // The body's own header, as the SDK's encoder adds it.
          headers: { 'content-type': 'application/json', ...(betas.length ? { 'anthropic-beta': key } : {}) }
        })
        .then(({ url, req, timeout }) => {
          const headers: Record<string, string> = {}
          // The SDK's own Headers (the light one in the CLI's bundle): names lowercased, as sent.
          ;(req.headers as Headers).forEach((value, name) => (headers[name] = value))
          return { url, headers, timeout }
        })
      // A request that could not be built (no credential) is built again the next time, and says why then.
      ready.catch(() => prepared.delete(key))
      prepared.set(key, ready)
    }
    return ready
  }

  return async (body, betas, abort) => {
    const { url, headers, timeout } = await prepare(betas)
    if (abort.signal.aborted) throw new APIUserAbortError()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      abort.abort()
    }, timeout)
    let response: Response
    try {
      response = await fetch(url, { method: 'POST', headers, body: requestJson(body), signal: abort.signal })
    } catch (err) {
      if (abort.signal.aborted && !timedOut) throw new APIUserAbortError()
      const cause = err instanceof Error ? err : new Error(String(err))
      // As the SDK tells a timeout from a failed connection (a fetch's own connect timeout says "timed out").
      if (timedOut || isAbortError(err) || /timed? ?out/i.test(String(err) + ('cause' in cause ? String(cause.cause) : '')))
        throw new APIConnectionTimeoutError()
      throw new APIConnectionError({ cause })
    } finally {
      clearTimeout(timer)
    }
    if (!response.ok) {
      const text = await response.text().catch((err: Error) => err.message)
      const json = safeJSON(text)
      throw sdk.statusError(response.status, json as object | undefined, json ? undefined : text, response.headers)
    }
    return response
  }
}

/** The event of one server-sent event as the SDK's Stream yields it: null for what it skips. */
function messageEvent(sse: ServerSentEvent, headers: Headers): RawMessageStreamEvent | null {
  if (sse.event === 'ping' || sse.event === null) return null
  if (sse.event === 'error') {
    const body = safeJSON(sse.data) ?? sse.data
    const type = (body as { error?: { type?: string } } | undefined)?.error?.type
    throw new APIError(undefined, body as object, undefined, headers, type as never)
  }
  if (!sse.data) return null
  // A line that is not JSON throws its SyntaxError, as in the SDK: the caller retries the call as a broken stream.
  return JSON.parse(sse.data) as RawMessageStreamEvent
}

/** The answer's events, in order. Ends quietly when the call is aborted (the caller checks its signal), as the SDK's Stream. */
export async function* streamEvents(response: Response): AsyncGenerator<RawMessageStreamEvent> {
  if (!response.body) throw new AnthropicError('Attempted to iterate over a response with no body')
  const reader = new SseReader()
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array | string>) {
      for (const sse of reader.push(chunk)) {
        const event = messageEvent(sse, response.headers)
        if (event) yield event
      }
    }
    for (const sse of reader.end()) {
      const event = messageEvent(sse, response.headers)
      if (event) yield event
    }
  } catch (err) {
    if (isAbortError(err)) return
    throw err
  }
}
