// The `fetch` the SDK is given: the same HTTP requests over node:http/https with a keep-alive pool,
// instead of Node's built-in fetch (undici + WHATWG streams). A streamed model call is mostly waiting,
// but a fan-out makes dozens at once, and per request the built-in fetch spent about twice the CPU
// (web streams, Request/Response objects, the body copied chunk by chunk into a ReadableStream); that
// CPU is what every hand-off between agents waits behind. The response is what the SDK reads: status,
// Headers, `body` as an async-iterable byte stream, text() and json(). Anything this does not handle
// (a streamed or form request body) goes to the built-in fetch unchanged.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { isIP, type Socket } from 'node:net'
import { pipeline, type Readable } from 'node:stream'
// Not the global Headers: touching it loads all of undici (light-headers.ts).
import { Headers } from './light-headers'

export interface HttpFetchOptions {
  /** Most open connections per origin. Default 256 (a wide fan-out streams that many calls at once). */
  maxSockets?: number
  /** A pooled connection idle this long is closed rather than reused. Default 4 s, as the built-in fetch. */
  idleSocketMs?: number
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 5
// Credentials are not sent on to another origin a redirect names (fetch drops Authorization; the API key
// is as much a credential).
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'host']
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location']

/**
 * Node's Agent keeps an idle connection until the server closes it, so a call after a pause can be sent
 * on a connection the server is closing just then ("socket hang up"). Like the built-in fetch, close a
 * connection idle for `idleMs` (or sooner, when the server's Keep-Alive hint says so). A connection in use
 * has no timeout: a model call may stream nothing for minutes (the client's watchdog decides).
 */
function closeIdleSockets<A extends HttpAgent>(agent: A, idleMs: number): A {
  const keep = agent.keepSocketAlive.bind(agent)
  const reuse = agent.reuseSocket.bind(agent)
  const idle = new WeakSet<Socket>()
  const watched = new WeakSet<Socket>()
  agent.keepSocketAlive = (socket: Socket) => {
    // Typed void, but the Agent destroys the socket instead when it answers false.
    if (!(keep(socket) as unknown as boolean)) return false
    idle.add(socket)
    if (!watched.has(socket)) {
      watched.add(socket)
      socket.on('timeout', () => void (idle.has(socket) && socket.destroy()))
    }
    socket.setTimeout(socket.timeout ? Math.min(socket.timeout, idleMs) : idleMs)
    return true
  }
  agent.reuseSocket = (socket: Socket, req) => {
    idle.delete(socket)
    socket.setTimeout(0)
    reuse(socket, req)
  }
  return agent
}

/**
 * Connections opened ahead of the calls known to be coming (a run's first request, a reply that starts N
 * subagents): the Agent makes its connections through `createConnection`, which hands out a warm one when it
 * has one for that origin, so the calls find the connect (and against the real API, the DNS lookup and the TLS
 * handshake, resumed from the session the pool already holds) done while the process was busy elsewhere. A
 * warm connection is made exactly as the Agent makes its own: with the options it passed for its last
 * connection to that origin, or before there was one, with those it passes for a request there (firstOptions).
 * One unused for `idleMs` is closed; none keeps the process alive.
 */
function warmConnections<A extends HttpAgent>(agent: A, idleMs: number): A & { preconnect(origin: URL, count: number, most?: number): number } {
  type Make = (options: object, cb?: (err: Error | null, socket: Socket) => void) => Socket
  const make = (agent as unknown as { createConnection: Make }).createConnection.bind(agent)
  const lastOptions = new Map<string, object>()
  const warm = new Map<string, Socket[]>()
  const originOf = (options: { host?: string; port?: number | string }) => `${options.host}:${options.port}`
  const usable = (s: Socket) => !s.destroyed && (s.readyState === 'open' || s.readyState === 'opening')
  /** What a parked connection listens to, taken off when the Agent takes it. */
  const parked = new WeakMap<Socket, () => void>()
  ;(agent as unknown as { createConnection: Make }).createConnection = (options, cb) => {
    const origin = originOf(options as { host?: string; port?: number })
    lastOptions.set(origin, options)
    const list = warm.get(origin)
    // The oldest first: the likeliest to be connected, and the nearest to being closed unused.
    while (list?.length) {
      const socket = list.shift()!
      parked.get(socket)?.()
      if (usable(socket)) return socket.ref()
      socket.destroy()
    }
    return make(options, cb)
  }
  return Object.assign(agent, {
    /** Opens connections to `origin` until `count` are free or warm there, `most` at most; answers how many it opened. */
    preconnect(origin: URL, count: number, most = Infinity): number {
      // Spelt as the Agent names it: the host without an IPv6 address's brackets, the port a number.
      const host = origin.hostname.replace(/^\[|\]$/g, '')
      const port = Number(origin.port) || (origin.protocol === 'https:' ? 443 : 80)
      const key = `${host}:${port}`
      const options = lastOptions.get(key) ?? firstOptions(agent, origin.protocol, host, port)
      if (!options) return 0
      const list = (warm.get(key) ?? []).filter((s) => usable(s) || void s.destroy())
      warm.set(key, list)
      const free = Object.entries(agent.freeSockets).reduce((n, [name, socks]) => n + (name.startsWith(`${key}:`) ? (socks?.length ?? 0) : 0), 0)
      // The pool's own count (Node's Agent keeps it; not in its typings), so warm ones never pass maxSockets.
      const total = (agent as unknown as { totalSocketCount?: number }).totalSocketCount ?? 0
      let opened = 0
      while (list.length + free < count && total + list.length < agent.maxSockets && opened < most) {
        const socket = make({ ...options })
        const onError = () => void socket.destroy() // parked: nobody else listens yet
        const onIdle = () => socket.destroy()
        const onClose = () => {
          const now = warm.get(key)
          const i = now?.indexOf(socket) ?? -1
          if (i >= 0) now!.splice(i, 1)
        }
        socket.on('error', onError).on('timeout', onIdle).once('close', onClose).setTimeout(idleMs).unref()
        parked.set(socket, () => {
          parked.delete(socket)
          socket.off('error', onError).off('timeout', onIdle).off('close', onClose).setTimeout(0)
        })
        list.push(socket)
        opened++
      }
      return opened
    }
  })
}

interface AgentInternals {
  options: Record<string, unknown>
  keepAlive: boolean
  keepAliveMsecs: number
  getName(options: object): string
}

/**
 * The options the Agent hands `createConnection` for a request to `host`:`port` (Agent.prototype.createSocket in
 * Node's _http_agent.js): its own options, the host and port, the TLS server name (none for an IP address),
 * keep-alive as the Agent sets it, and the key it files the connection and its TLS session under. Null for an
 * origin that is not http(s).
 */
function firstOptions(agent: HttpAgent, protocol: string, host: string, port: number): object | null {
  if (protocol !== 'http:' && protocol !== 'https:') return null
  const own = agent as unknown as AgentInternals
  const options: Record<string, unknown> = {
    ...own.options,
    protocol,
    hostname: host,
    host,
    port,
    // Not a Unix socket: the Agent sets path null too.
    path: null,
    servername: isIP(host) ? '' : host,
    encoding: null,
    ...(own.keepAlive ? { keepAlive: true, keepAliveInitialDelay: own.keepAliveMsecs } : {})
  }
  options._agentKey = own.getName(options)
  return options
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  if (reason instanceof Error && reason.name === 'AbortError') return reason
  return new DOMException('This operation was aborted', 'AbortError')
}

/** As fetch reports a failure to connect or a connection cut before the answer: TypeError with the cause. */
const fetchFailed = (cause: Error) => new TypeError('fetch failed', { cause })

function requestBody(body: unknown): string | Uint8Array | undefined | null {
  if (body === undefined || body === null) return undefined
  if (typeof body === 'string' || body instanceof Uint8Array) return body
  if (body instanceof ArrayBuffer) return new Uint8Array(body)
  return null // not ours to send
}

function plainHeaders(init: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {}
  if (!init) return out
  if (init instanceof Headers) init.forEach((value, name) => (out[name] = value))
  else if (Array.isArray(init)) for (const [name, value] of init) out[name.toLowerCase()] = value
  else for (const [name, value] of Object.entries(init as Record<string, string>)) out[name.toLowerCase()] = value
  return out
}

// Loaded with the first compressed answer, not at start (~1.5 ms of every `fanout run` before its first request).
const zlib = () => process.getBuiltinModule('node:zlib')
// Loaded with the first https:// request: an http:// base URL (a gateway or proxy on this machine, the tests'
// scripted server) never needs TLS, and node:https with node:tls took ~5-8 ms of every start before its first request.
const https = () => process.getBuiltinModule('node:https')

function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase()
  const unzip =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib().createGunzip()
      : encoding === 'deflate'
        ? zlib().createInflate()
        : encoding === 'br'
          ? zlib().createBrotliDecompress()
          : null
  if (!unzip) return res
  // pipeline, not pipe: an error on either side reaches the other without an 'error' nobody listens to
  // (an uncaught exception) when the body is cut off or aborted before it is read, and a body left
  // unread half-way closes its connection rather than holding it.
  return pipeline(res, unzip, () => {})
}

class HttpResponse {
  readonly ok: boolean
  readonly redirected = false
  readonly type = 'basic'
  bodyUsed = false
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    readonly url: string,
    readonly body: Readable
  ) {
    this.ok = status >= 200 && status < 300
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    this.bodyUsed = true
    const parts: Buffer[] = []
    for await (const chunk of this.body) parts.push(chunk as Buffer)
    const all = Buffer.concat(parts)
    return all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer())
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text())
  }
}

/** The pooled fetch, and how to open connections ahead of calls known to be coming. */
export type PooledFetch = typeof fetch & {
  /**
   * Makes sure `count` connections to `url`'s origin are free or being opened, opening `most` at most (a connection
   * the pool has not made to that origin yet is not opened ahead). Answers how many it opened.
   */
  preconnect(url: string | URL, count: number, most?: number): number
}

export function createHttpFetch(opts: HttpFetchOptions = {}): PooledFetch {
  const maxSockets = opts.maxSockets ?? 256
  const idleMs = opts.idleSocketMs ?? 4000
  const pool = <A extends HttpAgent>(agent: A) => warmConnections(closeIdleSockets(agent, idleMs), idleMs)
  const http = pool(new HttpAgent({ keepAlive: true, maxSockets }))
  let secure: typeof http | undefined
  const agentFor = (protocol: string) => (protocol === 'https:' ? (secure ??= pool(new (https().Agent)({ keepAlive: true, maxSockets }))) : http)

  function send(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    signal: AbortSignal | undefined,
    redirects: number
  ): Promise<Response> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal))
      const isHttps = url.protocol === 'https:'
      const outHeaders =
        body === undefined ? headers : { ...headers, 'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength) }
      const req = (isHttps ? https().request : httpRequest)(url, { method, headers: outHeaders, agent: agentFor(url.protocol) })
      let stream: Readable | null = null
      const onAbort = () => {
        const err = abortError(signal!)
        req.destroy(err)
        stream?.destroy(err)
        reject(err)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      const done = () => signal?.removeEventListener('abort', onAbort)
      req.once('error', (err) => {
        done()
        reject(signal?.aborted ? abortError(signal) : fetchFailed(err))
      })
      req.once('response', (res) => {
        const status = res.statusCode ?? 0
        const location = res.headers.location
        if (REDIRECTS.has(status) && location && redirects < MAX_REDIRECTS) {
          res.resume()
          done()
          // Thrown here, a bad Location would escape the socket's listener and crash the process.
          let next: URL
          try {
            next = new URL(location, url)
            if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error(`redirect to ${next.protocol} is not followed`)
          } catch (err) {
            reject(fetchFailed(err as Error))
            return
          }
          const keepBody = status === 307 || status === 308
          const nextHeaders = { ...headers }
          if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete nextHeaders[name]
          if (!keepBody) for (const name of BODY_HEADERS) delete nextHeaders[name]
          resolve(send(next, keepBody ? method : 'GET', nextHeaders, keepBody ? body : undefined, signal, redirects + 1))
          return
        }
        const responseHeaders = new Headers()
        for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1])
        stream = decoded(res)
        // A body cut off before its end reads as an error, as with fetch, not as a quiet end.
        res.once('aborted', () => stream?.destroy(fetchFailed(Object.assign(new Error('terminated'), { code: 'ECONNRESET' }))))
        stream.once('close', done)
        resolve(new HttpResponse(status, res.statusMessage ?? '', responseHeaders, url.href, stream) as unknown as Response)
      })
      req.end(body)
    })
  }

  const pooled = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const body = requestBody(init.body)
    if (body === null || (typeof input === 'object' && !(input instanceof URL))) return fetch(input, init)
    return send(new URL(String(input)), (init.method ?? 'GET').toUpperCase(), plainHeaders(init.headers), body, init.signal ?? undefined, 0)
  }) as PooledFetch
  pooled.preconnect = (url, count, most) => {
    const u = new URL(String(url))
    return u.protocol === 'https:' || u.protocol === 'http:' ? agentFor(u.protocol).preconnect(u, count, most) : 0
  }
  return pooled
}
