// A turn's streamed call is sent without the SDK's per-request machinery, so it is checked against the SDK itself:
// the same URL, headers and body bytes on the wire, the same events read back from any split of the bytes, and the
// same error (class, status, message, headers) for every way a call fails.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error'
import { Stream } from '@anthropic-ai/sdk/core/streaming'
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages'
import { describe, expect, it } from 'vitest'
import { MessagesClient } from './sdk-client'
import { SseReader, type ServerSentEvent } from './sse-reader'
import { requestJson, streamedCalls, streamEvents } from './streamed-call'

interface Sent {
  url: string
  method: string
  headers: Record<string, string>
  body: string
}

type Answer = () => Response | Promise<Response>

/** A fetch that keeps what it was asked and answers with `answer`. */
function recorder(answer: Answer) {
  const sent: Sent[] = []
  const fetch = (async (url: string | URL, init: RequestInit = {}) => {
    const headers: Record<string, string> = {}
    new Headers(init.headers).forEach((value, name) => (headers[name] = value))
    sent.push({ url: String(url), method: String(init.method), headers, body: String(init.body) })
    if (init.signal?.aborted) throw Object.assign(new Error('This operation was aborted'), { name: 'AbortError' })
    return answer()
  }) as typeof globalThis.fetch
  return { sent, fetch }
}

const client = (fetch: typeof globalThis.fetch, auth: { apiKey?: string; authToken?: string } = { apiKey: 'sk-test' }) =>
  new MessagesClient({
    apiKey: auth.apiKey ?? null,
    authToken: auth.authToken ?? null,
    baseURL: 'http://127.0.0.1:9/base/',
    maxRetries: 0,
    fetch,
    logLevel: 'off'
  })

const tool = (name: string) => ({
  name,
  description: `${name} does things "quoted" \u2028`,
  input_schema: { type: 'object' as const, properties: { a: { type: 'string' } } }
})

const body = (extra: object = {}): MessageCreateParamsStreaming =>
  ({
    model: 'claude-haiku-4-5',
    max_tokens: 32000,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hé \u{1F600} "x"\n', cache_control: { type: 'ephemeral' } }] }],
    stream: true,
    system: [{ type: 'text', text: 'You are a worker.', cache_control: { type: 'ephemeral' } }],
    tools: [tool('Glob'), { ...tool('Grep'), cache_control: { type: 'ephemeral' } }, tool('Read')],
    ...extra
  }) as MessageCreateParamsStreaming

const sse = (events: object[]) => events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join('')
const reply = [
  {
    type: 'message_start',
    message: { id: 'm', type: 'message', role: 'assistant', model: 'x', content: [], stop_reason: null, usage: { input_tokens: 3, output_tokens: 1 } }
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
  { type: 'message_stop' }
]
const streamAnswer =
  (text: string, status = 200, headers: Record<string, string> = {}) =>
  () =>
    new Response(text, { status, headers: { 'content-type': 'text/event-stream', 'request-id': 'req_1', ...headers } })

describe('requestJson', () => {
  it('is byte for byte JSON.stringify of the body, tools kept or not, keys without JSON left out', () => {
    for (const b of [
      body(),
      body({ thinking: { type: 'adaptive' }, temperature: 0.5, tool_choice: { type: 'auto' } }),
      body({ tools: [], top_k: undefined, x: () => 1 })
    ]) {
      expect(requestJson(b)).toBe(JSON.stringify(b))
      expect(requestJson(b)).toBe(JSON.stringify(b)) // the second time from the kept tool texts
    }
    expect(requestJson({})).toBe('{}')
  })
})

describe('a streamed call on the wire', () => {
  it('sends what the SDK sends: URL, method, every header and the body bytes, with and without betas, API key or token', async () => {
    for (const auth of [{ apiKey: 'sk-test' }, { authToken: 'tok' }])
      for (const betas of [[], ['context-management-2025-06-27']]) {
        const ours = recorder(streamAnswer(sse(reply)))
        const sdks = recorder(streamAnswer(sse(reply)))
        await streamedCalls(client(ours.fetch, auth), ours.fetch, undefined)(body(), betas, new AbortController())
        await client(sdks.fetch, auth)
          .messages.create(body(), betas.length ? { headers: { 'anthropic-beta': betas.join(',') } } : {})
          .asResponse()
        expect(ours.sent).toEqual(sdks.sent)
        expect(ours.sent[0].url).toBe('http://127.0.0.1:9/base/v1/messages')
      }
  })

  it('names the timeout it was given, as the SDK does', async () => {
    const ours = recorder(streamAnswer(sse(reply)))
    await streamedCalls(client(ours.fetch), ours.fetch, 90_000)(body(), [], new AbortController())
    expect(ours.sent[0].headers['x-stainless-timeout']).toBe('90')
  })
})

/** A client whose logger is off: the SDK's Stream logs a data line it cannot parse. */
const quiet = client(recorder(streamAnswer('')).fetch)

/** What the SDK's Stream yields for these bytes, or the error it throws. */
async function sdkReads(chunks: (string | Uint8Array)[], headers: Record<string, string> = {}) {
  const got: unknown[] = []
  try {
    const response = new Response(new Blob(chunks as Uint8Array[]).stream(), { headers })
    for await (const e of Stream.fromSSEResponse(response, new AbortController(), quiet)) got.push(e)
  } catch (err) {
    got.push({ threw: (err as Error).constructor.name, message: (err as Error).message })
  }
  return got
}

async function oursReads(chunks: (string | Uint8Array)[], headers: Record<string, string> = {}) {
  const got: unknown[] = []
  try {
    const body = (async function* () {
      for (const c of chunks) yield c
    })()
    for await (const e of streamEvents({ body, headers: new Headers(headers) } as unknown as Response)) got.push(e)
  } catch (err) {
    got.push({ threw: (err as Error).constructor.name, message: (err as Error).message })
  }
  return got
}

const texts = [
  sse(reply),
  sse(reply).replaceAll('\n', '\r\n'),
  sse(reply).replaceAll('\n', '\r'),
  `\uFEFFevent: message_stop\ndata: {"type":"after a byte-order mark"}\n\n\uFEFFevent: ping\ndata: {}\n\n: a comment\nretry: 10\nid: 3\nevent: message_start\ndata:{"type":"message_start",\ndata: "n":1}\n\n`,
  `data: {"type":"no event name"}\n\nevent:\ndata: {"type":"empty event name"}\n\nevent: content_block_stop\ndata\n\nevent: message_stop\ndata: {"type":"message_stop"}`,
  `event: message_stop\ndata: {"type":"message_stop"}\n\nevent: message_stop\ndata: {"type":"last, no blank line"}\n`,
  `event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n`,
  `event: error\ndata: not json at all\n\n`,
  `event: message_start\ndata: {"type":"message_start","message":\n\n`,
  `event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"h\u00e9 \u{1F600} \u6f22"}}\r\n\r\n`
]

describe('reading the answer', () => {
  it('yields the events, and throws the errors, the SDK does for the same bytes however they are split', async () => {
    const encoder = new TextEncoder()
    for (const text of texts) {
      const bytes = encoder.encode(text)
      const expected = await sdkReads([bytes], { 'request-id': 'req_9' })
      expect(await oursReads([bytes], { 'request-id': 'req_9' })).toEqual(expected)
      // Every split in two (inside a multi-byte character, between \r and \n too), and byte by byte.
      for (let i = 1; i < bytes.length; i++)
        expect(await oursReads([bytes.slice(0, i), bytes.slice(i)])).toEqual(await sdkReads([bytes.slice(0, i), bytes.slice(i)]))
      expect(await oursReads([...bytes].map((b) => new Uint8Array([b])))).toEqual(expected)
      expect(await oursReads([text])).toEqual(expected)
    }
  })

  it('reads the SSE fields line by line as the SDK: comments and other fields dropped, data lines joined', () => {
    const reader = new SseReader()
    const out: ServerSentEvent[] = [...reader.push('event: a\ndata: 1\ndata:2\n: c\nid: 9\n\nevent: b\r'), ...reader.push('\ndata: x\r\n\r\n')]
    expect(out).toEqual([
      { event: 'a', data: '1\n2' },
      { event: 'b', data: 'x' }
    ])
    expect([...reader.push('event: c\ndata: y\n'), ...reader.end()]).toEqual([])
  })

  it('says an error event is an APIError with the API type and the answer headers', async () => {
    const events = streamEvents(streamAnswer(`event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n`)())
    const err = await events.next().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(APIError)
    expect(err).toMatchObject({ status: undefined, type: 'overloaded_error', apiMessage: 'Overloaded', requestID: 'req_1' })
  })
})

describe('a call that fails', () => {
  /** The error the SDK throws and ours throws for one answer, side by side. */
  async function both(answer: Answer) {
    const catchIt = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: Error) => e
      )
    const ours = recorder(answer)
    const sdks = recorder(answer)
    const mine = await catchIt(streamedCalls(client(ours.fetch), ours.fetch, undefined)(body(), [], new AbortController()))
    const theirs = await catchIt(client(sdks.fetch).messages.create(body()).asResponse())
    return { mine, theirs }
  }
  const shape = (e: unknown) => {
    const err = e as APIError
    return {
      class: err.constructor.name,
      message: err.message,
      status: err.status,
      type: err.type,
      headers: err.headers && Object.fromEntries(err.headers),
      cause: String(err.cause)
    }
  }

  it('makes the SDK error for every status, JSON body or not', async () => {
    for (const [status, text] of [
      [400, '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 300000 tokens > 200000 maximum"}}'],
      [401, '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}'],
      [404, 'Not Found'],
      [413, ''],
      [429, '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}'],
      [500, '{"type":"error","error":{"type":"api_error","message":"boom"}}'],
      [529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'],
      [503, '<html>gateway</html>']
    ] as const) {
      const { mine, theirs } = await both(streamAnswer(text, status, { 'retry-after': '3', 'x-should-retry': 'true' }))
      expect(mine).toBeInstanceOf(APIError)
      expect(shape(mine)).toEqual(shape(theirs))
    }
  })

  it('makes APIConnectionError with its cause when nothing answers, as the SDK', async () => {
    const refused = () =>
      Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) }))
    const { mine, theirs } = await both(refused)
    expect(mine).toBeInstanceOf(APIConnectionError)
    expect(shape(mine)).toEqual(shape(theirs))
    expect((mine as Error).cause).toBeInstanceOf(TypeError)
  })

  it('times out when the answer does not start in time, and stops at once when aborted', async () => {
    // Answers nothing until it is aborted, as a fetch to a server that never starts its answer.
    const hanging = (async (_url: string, init: RequestInit) => {
      return new Promise<Response>((_, reject) =>
        init.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })))
      )
    }) as unknown as typeof globalThis.fetch
    const send = streamedCalls(client(hanging), hanging, 50)
    await expect(send(body(), [], new AbortController())).rejects.toBeInstanceOf(APIConnectionTimeoutError)
    const abort = new AbortController()
    const call = send(body(), [], abort)
    setTimeout(() => abort.abort(), 5)
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError)
    const before = new AbortController()
    before.abort()
    await expect(send(body(), [], before)).rejects.toBeInstanceOf(APIUserAbortError)
  })
})
