// A reply is whole at its message_stop: the client hands it over then, without waiting for the body's end, and the
// connection still goes back to the pool once the body ends (or is cut when it never does).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { createModelClient } from './index'

const events = [
  {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 10, output_tokens: 1 }
    }
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'done' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
  { type: 'message_stop' }
]

interface Held {
  res: ServerResponse
  port: number
  closed: Promise<void>
}

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((r) => server?.close(r))
  server = undefined
})

/** A server that sends a whole reply and then keeps the body open, until the test ends it (or never). */
async function holdingServer(after: unknown[] = []) {
  const held: Held[] = []
  const waiting: Array<(h: Held) => void> = []
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_1' })
      for (const e of [...events, ...after]) res.write(`event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`)
      const h: Held = { res, port: req.socket.remotePort!, closed: new Promise((r) => res.on('close', () => r())) }
      held.push(h)
      waiting.shift()?.(h)
    })
  })
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const next = (i: number) => (held[i] ? Promise.resolve(held[i]) : new Promise<Held>((r) => waiting.push(r)))
  return { url, held, next }
}

const ask = { model: 'claude-sonnet-5-5', system: 'Be terse.', messages: [{ role: 'user' as const, content: 'Hi' }] }

it('hands over the reply at message_stop while the body is still open, and reuses the connection after it ends', async () => {
  const { url, next } = await holdingServer()
  const client = createModelClient({ apiKey: 'k', baseURL: url, maxRetries: 0 })
  const first = await client.stream(ask)
  expect(first.content).toEqual([{ type: 'text', text: 'done' }])
  expect(first.stopReason).toBe('end_turn')
  // Answered while the server has not ended the body.
  const h0 = await next(0)
  expect(h0.res.writableEnded).toBe(false)
  h0.res.end()
  await h0.closed
  // The client reads the body's end on its side of the loopback: a moment to settle, not a measure.
  await new Promise((r) => setTimeout(r, 500))
  const second = client.stream(ask)
  const h1 = await next(1)
  h1.res.end()
  expect((await second).content).toEqual([{ type: 'text', text: 'done' }])
  // The same connection: the first body was read to its end, not aborted.
  expect(h1.port).toBe(h0.port)
})

it('drops what a server sends after message_stop, and cuts a body that never ends', async () => {
  const { url, next } = await holdingServer([{ type: 'content_block_start', index: 1, content_block: { type: 'text', text: 'stray' } }])
  const client = createModelClient({ apiKey: 'k', baseURL: url, maxRetries: 0 })
  const reply = await client.stream(ask)
  expect(reply.content).toEqual([{ type: 'text', text: 'done' }])
  const h0 = await next(0)
  // Never ended by the server: the client closes it by itself.
  await h0.closed
  expect(h0.res.writableEnded).toBe(false)
}, 15_000)

it('closes the connection of an answer it stops reading for being broken, and asks again', async () => {
  let broken: Promise<void> | undefined
  let calls = 0
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      if (calls++ === 0) {
        // A delta for a block that never started, and then nothing: the body is never ended by the server.
        const stray = { type: 'content_block_delta', index: 5, delta: { type: 'text_delta', text: '?' } }
        res.write([events[0], stray].map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''))
        broken = new Promise((r) => res.on('close', () => r()))
        return
      }
      res.end(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''))
    })
  })
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
  const client = createModelClient({ apiKey: 'k', baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, maxRetries: 1, retryBaseMs: 1 })
  const retries: string[] = []
  const reply = await client.stream(ask, { onRetry: (r) => retries.push(r.message) })
  expect(reply.content).toEqual([{ type: 'text', text: 'done' }])
  expect(retries).toEqual([expect.stringContaining('malformed')])
  // Closed by the client, not left open until the server ends it (it never does).
  await broken
})
