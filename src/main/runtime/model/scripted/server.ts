// A real HTTP server on 127.0.0.1 that speaks the Anthropic Messages API (SSE streaming and plain JSON,
// GET /v1/models, error responses, mid-stream errors and drops), answering from a script. Tests use it to
// drive the real SDK over real HTTP; the app's demo mode runs a scripted fan-out against it.
// It is built for speed (one write per response unless delays are asked for) because the benchmark
// measures the runtime's overhead against its latency.
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { DEFAULT_MODEL_ALIASES } from '../aliases'
import { parseRequest, validateMessagesBody } from './parse-request'
import { PromptCache, type CachePlan } from './prompt-cache'
import { errorFrame, renderMessage, renderStream, strayDelta, type Frame, type RenderIds } from './sse'
import { contextWindowFor } from '../context-window'
import { applyContextManagement, promptTooLongMessage } from './usage'
import type { HttpErrorReply, MessageReply, ParsedRequest, RecordedRequest, Respond, ReplyBlock } from './types'
import { errorMessage } from '../../../../shared/error-message'

export interface ScriptedModelInfo {
  id: string
  created_at?: string
  display_name?: string
  line?: string | null
  lifecycle?: string
}

export interface ScriptedServerOptions {
  respond: Respond
  /** Wait before each /v1/messages response starts (ms), or a function read per request. Default 0. */
  latencyMs?: number | (() => number)
  /** GET /v1/models listing; `null` answers 404 like an endpoint without it. Default: the three default aliases. */
  models?: ScriptedModelInfo[] | null
  /** Reject bodies the real API would reject (tool_use without tool_result, empty text...). Default true. */
  validate?: boolean
  /** Keep every request in `requests`. Default true; the long-running demo mode turns it off to bound memory. */
  recordRequests?: boolean
  /** Answer 401 to any request without this key (x-api-key or bearer), as the API does. Default: any key. */
  apiKey?: string
  /**
   * The simulated prompt cache (prompt-cache.ts) that usage is reported from: `false` reports no cache use at
   * all (every input token uncached); pass one to share it or to give it a clock. Default: a fresh one.
   */
  promptCache?: PromptCache | false
  /**
   * The context window (tokens, counted as usage.ts counts them), per model or for all: a larger request is
   * answered with the API's 400 "prompt is too long: N tokens > M maximum" and never reaches the script.
   * Default: each model's own (context-window.ts: 1M for the 5.x models, 200,000 for most others).
   */
  contextWindow?: number | ((model: string) => number)
  /**
   * An account that serves only `concurrent` message requests at once: one more is answered 429
   * rate_limit_error with `retry-after-ms` (and `retry-after`), as the API does, and every answer carries
   * the anthropic-ratelimit-requests-* headers (limit, remaining, reset). Default: no limit.
   */
  rateLimit?: { concurrent: number; retryAfterMs?: number }
  /**
   * A model's output rate: a streamed reply's deltas go out as a model generates them, this many tokens a
   * second (4 characters a token), after the latency; a message with sixteen Agent calls then streams for
   * seconds, as the API's does. Default 0: every frame at once.
   */
  outputTokensPerSecond?: number | (() => number)
}

export interface ScriptedServer {
  /** Base URL, e.g. http://127.0.0.1:41234 — pass it as ANTHROPIC_BASE_URL / baseURL. */
  url: string
  /** Every request in arrival order (messages and models). */
  requests: RecordedRequest[]
  /** Only the POST /v1/messages requests. */
  messageRequests(): RecordedRequest[]
  /** The simulated prompt cache, null when it is off. */
  promptCache: PromptCache | null
  /** Message requests answered 429 by `rateLimit`, and the most served at once. */
  rateLimited: { refused: number; peakConcurrent: number }
  /** Connections clients opened so far, and how many of them carried a request. */
  connections(): { opened: number; used: number }
  close(): Promise<void>
}

const defaultModels = (): ScriptedModelInfo[] =>
  Object.entries(DEFAULT_MODEL_ALIASES).map(([line, id]) => ({ id, line, lifecycle: 'active', created_at: '2026-11-01T00:00:00Z', display_name: id }))

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

function sendError(
  res: ServerResponse,
  reply: Pick<HttpErrorReply, 'status' | 'errorType' | 'message' | 'retryAfterSeconds' | 'headers'>,
  requestId: string
): void {
  const headers: Record<string, string> = { 'request-id': requestId, ...reply.headers }
  if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds)
  sendJson(res, reply.status, { type: 'error', error: { type: reply.errorType, message: reply.message }, request_id: requestId }, headers)
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', (c: Buffer) => parts.push(c))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

/** The workspace a request's cache entries belong to: its credential. */
function workspaceOf(req: IncomingMessage): string {
  return String(req.headers['x-api-key'] ?? req.headers.authorization ?? '')
}

/**
 * A `max_tokens: 0` request only reads the prompt into the cache (pre-warming); the API refuses it with
 * anything that implies output. The reason, or null when it may go.
 */
function prewarmRefusal(body: any): string | null {
  if (body.stream === true) return 'max_tokens: 0 cannot be used with stream: true.'
  if (body.thinking?.type === 'enabled') return 'max_tokens: 0 cannot be used with extended thinking.'
  if (body.output_config?.format) return 'max_tokens: 0 cannot be used with structured outputs (output_config.format).'
  if (body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool') return `max_tokens: 0 cannot be used with tool_choice ${body.tool_choice.type}.`
  return null
}

export async function startScriptedServer(opts: ScriptedServerOptions): Promise<ScriptedServer> {
  const cache = opts.promptCache === false ? null : (opts.promptCache ?? new PromptCache())
  /** A number option given as a number or as a function read per request (0 when absent). */
  const read = (v: number | (() => number) | undefined): number => (typeof v === 'function' ? v() : (v ?? 0))
  const latencyOf = () => read(opts.latencyMs)
  const requests: RecordedRequest[] = []
  const bodyCounts = new Map<string, number>()
  let seenRequests = 0
  const limited = { refused: 0, peakConcurrent: 0 }
  let serving = 0
  let seq = 0
  const nextId = (prefix: string) => `${prefix}_scripted_${(++seq).toString(36).padStart(6, '0')}`
  const ids = (): RenderIds => ({
    messageId: nextId('msg'),
    toolUseId: (b: ReplyBlock & { type: 'tool_use' }) => b.id ?? nextId('toolu')
  })

  /** Streams a reply's frames; at an output rate, each is due `from` (performance.now()) plus its output time so far. */
  async function streamFrames(res: ServerResponse, frames: Frame[], reply: MessageReply, requestId: string, rate: number, from: number): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': requestId })
    const cut = reply.interrupt
    let out = frames
    if (cut) {
      let deltas = 0
      const at = frames.findIndex((f) => f.isDelta && ++deltas > cut.afterDeltas)
      const head = at === -1 ? frames.slice(0, -2) : frames.slice(0, at)
      // A malformed or out-of-order event is followed by the rest of the stream: a client that skipped it would finish wrong.
      if (cut.how === 'malformed')
        out = [
          ...head,
          { text: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_d\n\n', isDelta: false },
          ...frames.slice(head.length)
        ]
      else if (cut.how === 'out_of_order') out = [...head, strayDelta(), ...frames.slice(head.length)]
      else if (cut.how === 'empty') out = []
      else out = head // never reach message_stop
      if (cut.how === 'error') out = [...out, errorFrame(cut.errorType ?? 'overloaded_error', cut.errorMessage ?? 'Overloaded')]
    }
    const delay = reply.chunkDelayMs ?? 0
    const pause = reply.pause
    if (!out.length) return void res.end()
    if (delay > 0 || pause || rate > 0) {
      let deltas = 0
      // Paced from the reply's due start by the characters generated so far: neither timer slack nor the
      // server's own work adds up.
      let start = from
      let chars = 0
      for (const [i, f] of out.entries()) {
        if (i > 0 && delay > 0) await wait(delay)
        if (pause && f.isDelta && deltas++ === pause.afterDeltas) {
          const held = performance.now()
          await pause.until
          start += performance.now() - held
        }
        if (rate > 0 && f.chars) {
          chars += f.chars
          const due = start + (chars / 4 / rate) * 1000 - performance.now()
          if (due >= 1) await wait(due)
        }
        if (res.destroyed) return
        res.write(f.text)
      }
    } else {
      res.write(out.map((f) => f.text).join(''))
    }
    if (cut?.how === 'drop') {
      // Flush what was written, then cut the connection without ending the chunked body.
      res.write('', () => res.socket?.destroy())
      return
    }
    res.end()
  }

  /** The rate-limit headers of an answer, and whether the request must be refused (rateLimit). */
  function admit(res: ServerResponse): { refuse: boolean; headers: Record<string, string> } {
    const limit = opts.rateLimit
    if (!limit) return { refuse: false, headers: {} }
    const after = limit.retryAfterMs ?? 50
    const refuse = serving >= limit.concurrent
    if (!refuse) {
      serving++
      limited.peakConcurrent = Math.max(limited.peakConcurrent, serving)
      res.once('close', () => serving--)
    } else limited.refused++
    const headers = {
      'anthropic-ratelimit-requests-limit': String(limit.concurrent),
      'anthropic-ratelimit-requests-remaining': String(Math.max(0, limit.concurrent - serving)),
      'anthropic-ratelimit-requests-reset': new Date(Date.now() + after).toISOString()
    }
    return { refuse, headers }
  }

  async function handleMessages(res: ServerResponse, raw: string, rec: RecordedRequest, workspace: string): Promise<void> {
    const requestId = nextId('req')
    const admitted = admit(res)
    if (admitted.refuse) {
      const after = opts.rateLimit?.retryAfterMs ?? 50
      return sendError(
        res,
        {
          status: 429,
          errorType: 'rate_limit_error',
          message: 'Number of concurrent connections has exceeded your rate limit.',
          headers: { ...admitted.headers, 'retry-after-ms': String(after), 'retry-after': String(Math.ceil(after / 1000)) }
        },
        requestId
      )
    }
    // Every answer from here on (a stream, JSON, an error) carries the headers.
    for (const [name, value] of Object.entries(admitted.headers)) res.setHeader(name, value)
    const invalid = opts.validate === false ? null : validateMessagesBody(rec.body)
    if (invalid) return sendError(res, { status: 400, errorType: 'invalid_request_error', message: invalid }, requestId)
    const window = typeof opts.contextWindow === 'function' ? opts.contextWindow(rec.model) : (opts.contextWindow ?? contextWindowFor(rec.model))
    if (rec.inputTokens > window)
      return sendError(res, { status: 400, errorType: 'invalid_request_error', message: promptTooLongMessage(rec.inputTokens, window) }, requestId)
    // The cache is consulted when the request arrives; what it writes is readable once the response begins.
    let plan: CachePlan | null = null
    if (cache) {
      const planned = cache.plan(rec.body, workspace)
      if ('error' in planned) return sendError(res, { status: 400, errorType: 'invalid_request_error', message: planned.error }, requestId)
      plan = planned
      rec.cache = { uncached: plan.uncached, read: plan.read, write5m: plan.write5m, write1h: plan.write1h }
    }
    if (rec.maxTokens === 0) {
      const refused = prewarmRefusal(rec.body)
      if (refused) return sendError(res, { status: 400, errorType: 'invalid_request_error', message: refused }, requestId)
      const latency = rec.readAt + latencyOf() - performance.now()
      if (latency >= 1) await wait(latency)
      if (res.destroyed) return
      if (plan) cache!.commit(plan)
      return sendJson(res, 200, renderMessage({ kind: 'message', content: [], stopReason: 'max_tokens', usage: { output_tokens: 0 } }, rec, ids()), {
        'request-id': requestId
      })
    }
    // Keyed by a digest, not the body, so a long session does not keep every conversation in memory.
    const key = createHash('sha1').update(raw).digest('base64')
    const attempt = bodyCounts.get(key) ?? 0
    bodyCounts.set(key, attempt + 1)
    let reply
    try {
      reply = await opts.respond(rec, { index: rec.index, attempt, requests })
    } catch (err) {
      // A script bug must fail the test clearly, not look like a retryable server fault.
      const message = `scripted server: respond() threw: ${errorMessage(err)}`
      return sendError(res, { status: 400, errorType: 'invalid_request_error', message }, requestId)
    }
    // The model's latency runs from the request's arrival (read whole), as a real model's does: what the
    // server did since (parsing, the simulated cache, the script) is inside it, not added to it.
    // A script that took longer than that (one holding its reply for a test) starts the reply when it answers.
    const now = performance.now()
    const due = Math.max(rec.readAt + latencyOf() + (reply.delayMs ?? 0), now)
    if (due - now >= 1) await wait(due - now)
    if (res.destroyed) return
    if (reply.kind === 'http_error') return sendError(res, reply, requestId)
    if (plan) cache!.commit(plan)
    if (!rec.stream) return sendJson(res, 200, renderMessage(reply, rec, ids()), { 'request-id': requestId })
    const frames = renderStream(reply, rec, ids())
    const rate = read(opts.outputTokensPerSecond)
    if (rate > 0) rec.outputMs = (frames.reduce((n, f) => n + (f.chars ?? 0), 0) / 4 / rate) * 1000
    await streamFrames(res, frames, reply, requestId, rate, due)
    rec.repliedAt = performance.now()
  }

  function handleModels(res: ServerResponse): void {
    if (opts.models === null) return sendError(res, { status: 404, errorType: 'not_found_error', message: 'Not found' }, nextId('req'))
    const data = (opts.models ?? defaultModels()).map((m) => ({
      type: 'model',
      id: m.id,
      display_name: m.display_name ?? m.id,
      created_at: m.created_at ?? '2026-01-01T00:00:00Z',
      line: m.line ?? null,
      lifecycle: m.lifecycle ?? 'active',
      capabilities: null,
      deprecated_at: null,
      retires_at: null,
      max_input_tokens: contextWindowFor(m.id),
      max_tokens: 64_000
    }))
    sendJson(res, 200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null })
  }

  /** When each connection was accepted; `used` counts those that carried a request. */
  const acceptedAt = new WeakMap<Socket, number>()
  const carried = new WeakSet<Socket>()
  let opened = 0
  let used = 0
  const server = createServer(async (req, res) => {
    const receivedAt = performance.now()
    if (!carried.has(req.socket)) {
      carried.add(req.socket)
      used++
    }
    const connectedAt = acceptedAt.get(req.socket) ?? receivedAt
    const path = (req.url ?? '/').split('?')[0]
    const raw = req.method === 'POST' ? await readBody(req) : ''
    const readAt = performance.now()
    let body: any = null
    if (raw) {
      try {
        body = JSON.parse(raw)
      } catch {
        return sendError(res, { status: 400, errorType: 'invalid_request_error', message: 'Request body is not valid JSON.' }, nextId('req'))
      }
    }
    // The API applies context management before the model reads the request: the script sees the edited one.
    const edited = req.method === 'POST' && path === '/v1/messages' ? applyContextManagement(body, req.headers) : { edits: null }
    if ('error' in edited) return sendError(res, { status: 400, errorType: 'invalid_request_error', message: edited.error }, nextId('req'))
    const parsed: ParsedRequest = parseRequest(req.method ?? 'GET', path, req.headers, body, edited.edits)
    const rec: RecordedRequest = { ...parsed, receivedAt, connectedAt, readAt, index: seenRequests++ }
    if (opts.recordRequests !== false) requests.push(rec)
    const key = req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '')
    if (opts.apiKey !== undefined && key !== opts.apiKey)
      return sendError(res, { status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' }, nextId('req'))
    try {
      if (req.method === 'POST' && path === '/v1/messages') await handleMessages(res, raw, rec, workspaceOf(req))
      else if (req.method === 'GET' && path === '/v1/models') handleModels(res)
      else sendError(res, { status: 404, errorType: 'not_found_error', message: `No route for ${req.method} ${path}` }, nextId('req'))
    } catch (err) {
      if (!res.headersSent) sendError(res, { status: 500, errorType: 'api_error', message: String(err) }, nextId('req'))
      else res.destroy()
    }
  })
  server.keepAliveTimeout = 30_000
  server.on('connection', (socket: Socket) => {
    opened++
    acceptedAt.set(socket, performance.now())
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    messageRequests: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages'),
    promptCache: cache,
    rateLimited: limited,
    connections: () => ({ opened, used }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
