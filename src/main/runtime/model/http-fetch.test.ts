import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createNetServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { describeFailure } from './retry'
import { createHttpFetch } from './http-fetch'
import { waitUntil } from '../tools/test-kit'

let server: Server | null = null
const sockets = new Set<string>()

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<string> {
  server = createServer((req, res) => {
    sockets.add(`${req.socket.remotePort}`)
    const parts: Buffer[] = []
    req.on('data', (c: Buffer) => parts.push(c))
    req.on('end', () => handler(req, res, Buffer.concat(parts).toString('utf8')))
  })
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

afterEach(async () => {
  sockets.clear()
  server?.closeAllConnections()
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()))
  server = null
})

async function readAll(body: ReadableStream<Uint8Array> | null): Promise<string> {
  let text = ''
  for await (const chunk of body as unknown as AsyncIterable<Buffer>) text += chunk.toString('utf8')
  return text
}

const SLOW_MS = 4 * 60_000

describe('the SDK fetch over node:http', () => {
  it('sends method, headers and body, and answers status, headers and a streamed body', async () => {
    const url = await serve((req, res, body) => {
      res.writeHead(201, {
        'content-type': 'text/event-stream',
        'request-id': 'req_1',
        'x-echo': `${req.method} ${req.headers['x-api-key']} ${req.headers['content-length']} ${body}`
      })
      res.write('event: a\n')
      setTimeout(() => res.end('data: {}\n\n'), 5)
    })
    const fetch = createHttpFetch()
    const res = await fetch(`${url}/v1/messages`, {
      method: 'post',
      headers: new Headers({ 'X-Api-Key': 'k', 'content-type': 'application/json' }),
      body: '{"é":1}'
    })
    expect(res.status).toBe(201)
    expect(res.ok).toBe(true)
    expect(res.headers.get('request-id')).toBe('req_1')
    expect(res.headers.get('x-echo')).toBe('POST k 8 {"é":1}') // bytes, not characters
    expect(await readAll(res.body)).toBe('event: a\ndata: {}\n\n')
  })

  it('keeps connections alive: sequential calls reuse one socket', async () => {
    const url = await serve((_req, res) => res.end('ok'))
    const fetch = createHttpFetch()
    for (let i = 0; i < 5; i++) expect(await (await fetch(url, { method: 'POST', body: 'x' })).text()).toBe('ok')
    expect(sockets.size).toBe(1)
  })

  it('decodes a compressed body, and json() parses an error answer', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'retry-after': '2' })
      res.end(gzipSync(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error' } })))
    })
    const res = await createHttpFetch()(url)
    expect(res.ok).toBe(false)
    expect(res.headers.get('retry-after')).toBe('2')
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'rate_limit_error' } })
  })

  it('follows a redirect, keeping the body on 307', async () => {
    const url = await serve((req, res, body) => {
      if (req.url === '/old') return res.writeHead(307, { location: '/new' }).end()
      res.end(`${req.method} ${req.url} ${body}`)
    })
    expect(await (await createHttpFetch()(`${url}/old`, { method: 'POST', body: 'b' })).text()).toBe('POST /new b')
  })

  it('reports a refused connection as fetch does, which the client retries', async () => {
    const url = await serve((_req, res) => res.end())
    server!.closeAllConnections()
    await new Promise<void>((r) => server!.close(() => r()))
    server = null
    const err = await createHttpFetch()(url).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TypeError)
    expect((err as any).cause.code).toBe('ECONNREFUSED')
    expect(describeFailure(err)).toMatchObject({ retryable: true })
  })

  it('a body cut off mid-way fails the read with a retryable error instead of ending quietly', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('event: a\n', () => setTimeout(() => res.socket?.destroy(), 5))
    })
    const res = await createHttpFetch()(url)
    const err = await readAll(res.body).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(Error)
    expect(describeFailure(err)).toMatchObject({ retryable: true })
  })

  it('aborts before the answer and while the body streams, with an AbortError', async () => {
    const url = await serve((req, res) => {
      // Answers after four minutes, longer than a test may run: returning at all is the proof the abort did not wait.
      if (req.url === '/slow') return setTimeout(() => res.end('late'), SLOW_MS).unref()
      res.writeHead(200)
      res.write('first')
    })
    const fetch = createHttpFetch()
    const early = new AbortController()
    setTimeout(() => early.abort(), 20)
    const started = Date.now()
    const e1 = await fetch(`${url}/slow`, { signal: early.signal }).catch((e: unknown) => e)
    expect((e1 as Error).name).toBe('AbortError')
    expect(Date.now() - started).toBeLessThan(SLOW_MS) // not by speed: a loaded machine may take seconds

    const late = new AbortController()
    const res = await fetch(`${url}/stream`, { signal: late.signal })
    const reading = readAll(res.body).catch((e: unknown) => e)
    late.abort()
    expect(((await reading) as Error).name).toBe('AbortError')

    const already = AbortSignal.abort()
    expect(((await fetch(url, { signal: already }).catch((e: unknown) => e)) as Error).name).toBe('AbortError')
  })
})

describe('the SDK fetch over node:http, against servers that misbehave', () => {
  const extra: Server[] = []
  const rawSockets = new Set<Socket>()
  afterEach(async () => {
    for (const s of rawSockets) s.destroy()
    rawSockets.clear()
    for (const s of extra.splice(0)) {
      ;(s as Partial<Server>).closeAllConnections?.()
      await new Promise<void>((r) => s.close(() => r()))
    }
  })
  async function another(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
    const s = createServer(handler)
    extra.push(s)
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`
  }
  /** A raw TCP server that answers every request on a connection with `answer(socket)`. */
  async function rawServer(answer: (socket: Socket) => void): Promise<string> {
    const s = createNetServer((socket) => {
      rawSockets.add(socket)
      socket.on('data', () => answer(socket))
    })
    extra.push(s as unknown as Server)
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`
  }

  it('a redirect to a malformed Location fails the call as fetch does, instead of throwing out of the socket (a process crash)', async () => {
    const url = await rawServer((socket) => socket.end('HTTP/1.1 302 Found\r\nLocation: http://\r\nContent-Length: 0\r\n\r\n'))
    const err = await createHttpFetch()(url, { method: 'POST', body: '{}' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TypeError)
    expect(describeFailure(err).retryable).toBe(true)
  }, 5000)

  it('does not send the Authorization header on to another origin a redirect names, as fetch does not', async () => {
    const other = await another((req, res) => res.end(`auth=${req.headers.authorization ?? 'none'}`))
    const url = await serve((req, res) =>
      req.url === '/v1/messages' ? res.writeHead(307, { location: `${other}/v1/messages` }).end() : res.end('same-origin')
    )
    const res = await createHttpFetch()(`${url}/v1/messages`, { method: 'POST', headers: { authorization: 'Bearer secret-token' }, body: '{}' })
    expect(await res.text()).toBe('auth=none')
  })

  it('an unread compressed body cut off or aborted fails quietly (no error event nobody listens to, which would crash the process)', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' })
      res.write(gzipSync('a body that will never end').subarray(0, 8))
    })
    const fetch = createHttpFetch()
    const aborted = new AbortController()
    const first = await fetch(url, { signal: aborted.signal })
    const second = await fetch(url)
    aborted.abort() // the first is aborted before anyone reads it
    server!.closeAllConnections() // the second is cut off before anyone reads it
    await new Promise((r) => setTimeout(r, 100))
    expect(((await readAll(first.body).catch((e: unknown) => e)) as Error).name).toBe('AbortError')
    expect(await readAll(second.body).catch((e: unknown) => e)).toBeInstanceOf(Error)
  })

  it('does not reuse a connection left idle longer than fetch would keep it (a server closing its idle connection just as a call reuses it)', async () => {
    // The server forgets a connection once it has been idle for 4.5 s (uvicorn, behind many proxies, waits 5 s),
    // and here notices only when the next request arrives on it: the race of a real close and a reuse, made certain.
    // The built-in fetch drops connections idle for 4 s, so it never sends a call into that race.
    const lastAnswer = new WeakMap<Socket, number>()
    const url = await rawServer((socket) => {
      const last = lastAnswer.get(socket)
      if (last !== undefined && Date.now() - last >= 4500) return socket.destroy()
      lastAnswer.set(socket, Date.now())
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')
    })
    const fetch = createHttpFetch()
    expect(await (await fetch(url, { method: 'POST', body: '{}' })).text()).toBe('ok')
    await new Promise((r) => setTimeout(r, 4600))
    const second = await fetch(url, { method: 'POST', body: '{}' })
      .then((r) => r.text())
      .catch((e: unknown) => e)
    expect(second).toBe('ok')
  }, 15_000)
})

describe('the idle timeout of pooled connections', () => {
  it('closes a connection idle longer than idleSocketMs, yet lets a call in progress stream nothing for longer', async () => {
    const url = await serve((req, res) => {
      if (req.url !== '/pause') return res.end('ok')
      res.writeHead(200)
      res.write('a')
      setTimeout(() => res.end('b'), 150)
    })
    const fetch = createHttpFetch({ idleSocketMs: 50 })
    expect(await readAll((await fetch(`${url}/pause`)).body)).toBe('ab') // 150 ms without a byte, in use: not cut
    expect(await (await fetch(url)).text()).toBe('ok') // right after: the same connection
    expect(sockets.size).toBe(1)
    await new Promise((r) => setTimeout(r, 120))
    expect(await (await fetch(url)).text()).toBe('ok') // after the idle timeout: a new one
    expect(sockets.size).toBe(2)
  })
})

describe('connections opened ahead of calls known to be coming (preconnect)', () => {
  it('sibling calls find their connections open: no connection more than asked, each one used', async () => {
    const connections = new Set<Socket>()
    const release: (() => void)[] = []
    const url = await serve((req, res) => {
      if (req.url === '/hold') release.push(() => res.end('held'))
      else res.end('ok')
    })
    server!.on('connection', (s: Socket) => connections.add(s))
    const fetch = createHttpFetch()
    expect(await (await fetch(url, { method: 'POST', body: '{}' })).text()).toBe('ok')
    // One connection is free already: three more are opened.
    expect(fetch.preconnect(url, 4)).toBe(3)
    expect(fetch.preconnect(url, 4)).toBe(0) // asked again: nothing more
    await waitUntil(() => connections.size === 4, 'the server accepted the warm connections')
    // Four calls at once, each held until all four arrived: they went out on the four open connections.
    const calls = Array.from({ length: 4 }, () => fetch(`${url}/hold`, { method: 'POST', body: '{}' }).then((r) => r.text()))
    await waitUntil(() => release.length === 4, 'the four held calls arrived')
    for (const r of release) r()
    expect(await Promise.all(calls)).toEqual(['held', 'held', 'held', 'held'])
    expect(connections.size).toBe(4)
    expect(sockets.size).toBe(4) // every warm connection carried a call
  })

  it("a run's first call finds its connection open: opened ahead before any call, then used by the call", async () => {
    const connections: Socket[] = []
    const url = await serve((_req, res) => res.end('ok'))
    server!.on('connection', (s: Socket) => connections.push(s))
    const fetch = createHttpFetch()
    // Nothing was ever sent to this origin: the connection is made as the Agent would make it for a call there.
    expect(fetch.preconnect(url, 1)).toBe(1)
    expect(fetch.preconnect(url, 1)).toBe(0) // one is opening already
    await waitUntil(() => connections.length === 1, 'the server accepted the connection opened ahead')
    expect(await (await fetch(url, { method: 'POST', body: '{}' })).text()).toBe('ok')
    expect(await (await fetch(url, { method: 'POST', body: '{}' })).text()).toBe('ok')
    // Both calls went out on it: no connection of their own, and it is kept for the next.
    expect(connections).toHaveLength(1)
    expect(sockets.size).toBe(1)
  })

  it('a URL that is not http(s) opens nothing', () => {
    expect(createHttpFetch().preconnect('file:///tmp/x', 1)).toBe(0)
  })

  it('a warm connection the server closed, or one left unused past the idle time, is not used: the call makes its own', async () => {
    const connections = new Set<Socket>()
    const url = await serve((_req, res) => res.end('ok'))
    server!.on('connection', (s: Socket) => connections.add(s))
    const fetch = createHttpFetch({ idleSocketMs: 50 })
    expect(await (await fetch(url)).text()).toBe('ok')
    await waitUntil(() => [...connections].every((s) => s.destroyed), 'the idle pooled connection closed')
    expect(fetch.preconnect(url, 2)).toBe(2)
    await waitUntil(() => connections.size === 3, 'the warm connections are open')
    // The server drops one; the idle time closes the other.
    ;[...connections].at(-1)!.destroy()
    await waitUntil(() => [...connections].every((s) => s.destroyed), 'both warm connections are gone')
    expect(await (await fetch(url)).text()).toBe('ok')
    expect(connections.size).toBe(4)
  })
})
