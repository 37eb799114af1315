// Attack suite, browser mode: probes of the WebSocket and the HTTP server while a real session is running
// in the process. Frames the protocol cannot accept (too large however it is sent, not UTF-8, reserved
// bits, unknown opcodes, unmasked, oversized or fragmented control frames, bad close codes, garbage after
// the handshake, a socket cut mid-frame), handshakes without the right token, origin or Host, and HTTP
// requests that are not what the page sends. After every probe: the process lives (an unhandled 'error'
// would end this test run), the running session is still running, and a page with the token is served.
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { connect as tcp, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { WebServer } from '../../src/main/web/server'
import { WS_MAX_FRAME_BYTES, WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../src/shared/ipc-contract'
import { startRunningHost, type RunningHost } from './consent-kit'

let running: RunningHost
let web: WebServer
const refused: string[] = []

beforeAll(async () => {
  running = await startRunningHost({ onRefused: (m) => refused.push(m) })
  web = running.web
}, 60_000)

afterAll(() => running.close())

const origin = () => `http://127.0.0.1:${web.port}`

/** The session still runs, and a page holding the token gets answers. */
async function stillServing(): Promise<void> {
  expect(await running.stillRunning()).toBe(true)
  const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws`, [WS_PROTOCOL, WS_TOKEN_PREFIX + web.token], { origin: origin() })
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)))
  const answer = new Promise<string>((r) => ws.once('message', (d) => r(d.toString())))
  ws.send(JSON.stringify({ id: 1, call: 'workspace.get', payload: {} }))
  expect(JSON.parse(await answer)).toMatchObject({ kind: 'result', id: 1, result: { ok: true } })
  ws.close()
}

/** A raw TCP connection that has completed the WebSocket handshake (or failed it). */
async function handshake(
  opts: { protocols?: string; origin?: string | null; host?: string; path?: string } = {}
): Promise<{ socket: Socket; status: number; head: string }> {
  const socket = tcp(web.port, '127.0.0.1')
  await new Promise((r) => socket.once('connect', r))
  const lines = [
    `GET ${opts.path ?? '/ws'} HTTP/1.1`,
    `Host: ${opts.host ?? `127.0.0.1:${web.port}`}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    'Sec-WebSocket-Version: 13',
    ...(opts.protocols === '' ? [] : [`Sec-WebSocket-Protocol: ${opts.protocols ?? `${WS_PROTOCOL}, ${WS_TOKEN_PREFIX}${web.token}`}`]),
    ...(opts.origin === null ? [] : [`Origin: ${opts.origin ?? origin()}`])
  ]
  socket.write(`${lines.join('\r\n')}\r\n\r\n`)
  const head = await new Promise<string>((resolve) => {
    let buf = ''
    const onData = (d: Buffer) => {
      buf += d.toString('latin1')
      const end = buf.indexOf('\r\n\r\n')
      if (end !== -1) {
        socket.off('data', onData)
        const rest = Buffer.from(buf.slice(end + 4), 'latin1')
        if (rest.length) socket.unshift(rest)
        resolve(buf.slice(0, end))
      }
    }
    socket.on('data', onData)
    socket.once('close', () => resolve(buf))
  })
  return { socket, status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0), head }
}

interface FrameSpec {
  opcode: number
  payload?: Buffer
  fin?: boolean
  rsv?: number
  mask?: boolean
  /** A length to claim in the header instead of the payload's. */
  claim?: number
}

function frame(f: FrameSpec): Buffer {
  const payload = f.payload ?? Buffer.alloc(0)
  const len = f.claim ?? payload.length
  const first = ((f.fin ?? true) ? 0x80 : 0) | ((f.rsv ?? 0) << 4) | f.opcode
  const masked = f.mask ?? true
  let header: Buffer
  if (len < 126) header = Buffer.from([first, (masked ? 0x80 : 0) | len])
  else if (len < 65536) header = Buffer.from([first, (masked ? 0x80 : 0) | 126, len >> 8, len & 0xff])
  else {
    header = Buffer.alloc(10)
    header[0] = first
    header[1] = (masked ? 0x80 : 0) | 127
    header.writeBigUInt64BE(BigInt(len), 2)
  }
  if (!masked) return Buffer.concat([header, payload])
  const key = randomBytes(4)
  const body = Buffer.from(payload)
  for (let i = 0; i < body.length; i++) body[i] ^= key[i % 4]
  return Buffer.concat([header, key, body])
}

/** The server's close code (from its close frame), or 0 when it just dropped the connection. */
function closeCode(socket: Socket): Promise<number> {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0)
    const done = (code: number) => {
      socket.removeAllListeners('data')
      socket.destroy()
      resolve(code)
    }
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      while (buf.length >= 2) {
        const opcode = buf[0] & 0x0f
        const len = buf[1] & 0x7f
        const start = len === 126 ? 4 : len === 127 ? 10 : 2
        const size = len === 126 ? buf.readUInt16BE(2) : len === 127 ? Number(buf.readBigUInt64BE(2)) : len
        if (buf.length < start + size) return
        if (opcode === 0x8) return done(size >= 2 ? buf.readUInt16BE(start) : 1005)
        buf = buf.subarray(start + size)
      }
    })
    socket.once('close', () => done(0))
    socket.once('error', () => done(0))
  })
}

const text = (s: string | Buffer) => (typeof s === 'string' ? Buffer.from(s) : s)

const FRAME_PROBES: Array<[string, (s: Socket) => void, number]> = [
  ['a text frame one byte over 8 MiB', (s) => s.write(frame({ opcode: 1, payload: Buffer.alloc(WS_MAX_FRAME_BYTES + 1, 0x61) })), 1009],
  ['a frame that claims 64 MiB and sends nothing more', (s) => s.write(frame({ opcode: 1, claim: 64 * 1024 * 1024 }).subarray(0, 14)), 1009],
  ['a frame that claims 2^53 bytes', (s) => s.write(frame({ opcode: 1, claim: Number.MAX_SAFE_INTEGER }).subarray(0, 14)), 1009],
  ['a binary frame of 9 MiB', (s) => s.write(frame({ opcode: 2, payload: Buffer.alloc(9 * 1024 * 1024) })), 1009],
  [
    'a message of 9 one-MiB fragments',
    (s) => {
      for (let i = 0; i < 9; i++) s.write(frame({ opcode: i ? 0 : 1, fin: i === 8, payload: Buffer.alloc(1024 * 1024, 0x61) }))
    },
    1009
  ],
  ['a text frame that is not UTF-8', (s) => s.write(frame({ opcode: 1, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) })), 1007],
  ['an overlong UTF-8 encoding', (s) => s.write(frame({ opcode: 1, payload: Buffer.from([0xc0, 0xaf]) })), 1007],
  ['reserved bit 1 without an extension', (s) => s.write(frame({ opcode: 1, rsv: 4, payload: text('{}') })), 1002],
  ['reserved bits 2 and 3', (s) => s.write(frame({ opcode: 1, rsv: 3, payload: text('{}') })), 1002],
  ['an unknown data opcode (0x3)', (s) => s.write(frame({ opcode: 3, payload: text('x') })), 1002],
  ['an unknown control opcode (0xB)', (s) => s.write(frame({ opcode: 0xb })), 1002],
  ['an unmasked client frame', (s) => s.write(frame({ opcode: 1, payload: text('{}'), mask: false })), 1002],
  ['a ping with 200 bytes of payload', (s) => s.write(frame({ opcode: 9, payload: Buffer.alloc(200) })), 1002],
  ['a fragmented ping', (s) => s.write(frame({ opcode: 9, fin: false, payload: text('p') })), 1002],
  ['a continuation frame with nothing to continue', (s) => s.write(frame({ opcode: 0, payload: text('x') })), 1002],
  [
    'a new text frame inside a fragmented message',
    (s) => (s.write(frame({ opcode: 1, fin: false, payload: text('{') })), s.write(frame({ opcode: 1, payload: text('}') }))),
    1002
  ],
  ['a close frame with code 999', (s) => s.write(frame({ opcode: 8, payload: Buffer.from([0x03, 0xe7]) })), 1002],
  ['a close frame with a one-byte body', (s) => s.write(frame({ opcode: 8, payload: Buffer.from([0x03]) })), 1002],
  ['a close frame whose reason is not UTF-8', (s) => s.write(frame({ opcode: 8, payload: Buffer.from([0x03, 0xe8, 0xff]) })), 1007],
  ['garbage bytes right after the handshake', (s) => s.write(randomBytes(64).fill(0x0f, 0, 1)), 1002]
]

describe(`attack suite: browser-mode frames (${FRAME_PROBES.length} shapes) with a session running`, () => {
  it.each(FRAME_PROBES)('%s: that connection alone is closed (code %i), and everything else goes on', async (_name, send, code) => {
    const { socket, status } = await handshake()
    expect(status).toBe(101)
    const closing = closeCode(socket)
    send(socket)
    expect(await closing).toBe(code)
    await stillServing()
  })

  it('a socket cut in the middle of a large frame', async () => {
    const { socket } = await handshake()
    socket.write(frame({ opcode: 1, payload: Buffer.alloc(4 * 1024 * 1024, 0x61) }).subarray(0, 1024 * 1024))
    socket.destroy()
    await stillServing()
  })

  it('a frame of exactly 8 MiB is read and answered with an error frame, not a closed connection', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws`, [WS_PROTOCOL, WS_TOKEN_PREFIX + web.token], { origin: origin() })
    await new Promise((r) => ws.once('open', r))
    const answer = new Promise<string>((r) => ws.once('message', (d) => r(d.toString())))
    ws.send('x'.repeat(WS_MAX_FRAME_BYTES))
    expect(JSON.parse(await answer)).toEqual({ kind: 'error', message: 'A frame was not valid JSON and was ignored.' })
    ws.close()
    await stillServing()
  })

  it('says on stderr (here: the log) why each connection was closed', () => {
    expect(refused.some((m) => m.startsWith('A message larger than 8 MiB was refused'))).toBe(true)
    expect(refused.some((m) => m.includes('not valid UTF-8'))).toBe(true)
  })
})

const HANDSHAKE_PROBES: Array<[string, Parameters<typeof handshake>[0] | (() => Parameters<typeof handshake>[0]), number]> = [
  ['no token', () => ({ protocols: WS_PROTOCOL }), 401],
  ['no subprotocol header at all', { protocols: '' }, 401],
  ['a wrong token of the right length', () => ({ protocols: `${WS_PROTOCOL}, ${WS_TOKEN_PREFIX}${'0'.repeat(64)}` }), 401],
  ['the token one character short', () => ({ protocols: `${WS_PROTOCOL}, ${WS_TOKEN_PREFIX}${web.token.slice(1)}` }), 401],
  ['the token with a character more', () => ({ protocols: `${WS_PROTOCOL}, ${WS_TOKEN_PREFIX}${web.token}0` }), 401],
  ['the token in upper case', () => ({ protocols: `${WS_PROTOCOL}, ${WS_TOKEN_PREFIX}${web.token.toUpperCase()}` }), 401],
  ['the right token without the fanout.v1 protocol', () => ({ protocols: `${WS_TOKEN_PREFIX}${web.token}` }), 401],
  ['the token under another prefix', () => ({ protocols: `${WS_PROTOCOL}, token.${web.token}` }), 401],
  ['the token only in the URL query', () => ({ protocols: WS_PROTOCOL, path: `/ws?token=${web.token}` }), 401],
  ['a foreign Origin', { origin: 'http://evil.example' }, 403],
  ['Origin null (a sandboxed frame or a file:// page)', { origin: 'null' }, 403],
  ['no Origin (a process that is not a browser page)', { origin: null }, 403],
  ['the right host with another port as Origin', () => ({ origin: 'http://127.0.0.1:1' }), 403],
  ['https instead of http in Origin', () => ({ origin: `https://127.0.0.1:${web.port}` }), 403],
  ['Origin with a trailing slash', () => ({ origin: `http://127.0.0.1:${web.port}/` }), 403],
  ['a rebound Host name (DNS rebinding)', () => ({ host: `attacker.example:${web.port}`, origin: `http://attacker.example:${web.port}` }), 421],
  ['another path (/ws2)', { path: '/ws2' }, 404],
  ['an encoded path (/%77s)', { path: '/%77s' }, 404]
]

describe(`attack suite: browser-mode handshakes (${HANDSHAKE_PROBES.length} probes)`, () => {
  it.each(HANDSHAKE_PROBES)('%s: refused with %i before any call is read', async (_name, opts, status) => {
    const r = await handshake(typeof opts === 'function' ? opts() : opts)
    expect(r.status).toBe(status)
    r.socket.destroy()
    await stillServing()
  })
})

function http(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: web.port, method, path, headers: { host: `127.0.0.1:${web.port}`, ...headers } }, (res) => {
      let body = ''
      res.on('data', (d) => (body += d))
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

const HTTP_PROBES: Array<[string, string, string, Record<string, string>, number]> = [
  ['POST to the page', 'POST', '/', {}, 405],
  ['PUT a file', 'PUT', '/index.html', {}, 405],
  ['a path above the renderer', 'GET', '/../secret.txt', {}, 404],
  ['an encoded path above the renderer', 'GET', '/%2e%2e/secret.txt', {}, 404],
  ['a double-encoded path', 'GET', '/%252e%252e/secret.txt', {}, 404],
  ['a path with a NUL byte', 'GET', '/index.html%00.txt', {}, 404],
  ['a foreign Host', 'GET', '/', { host: 'evil.example' }, 421],
  ['/ws as a plain GET', 'GET', '/ws', {}, 404]
]

describe(`attack suite: browser-mode HTTP (${HTTP_PROBES.length + 2} probes)`, () => {
  it.each(HTTP_PROBES)('%s', async (_name, method, path, headers, status) => {
    const r = await http(method, path, headers)
    expect(r.status).toBe(status)
    expect(r.body).not.toContain('do not serve')
    await stillServing()
  })

  it('a request line that is not HTTP gets 400 and the server goes on', async () => {
    const s = tcp(web.port, '127.0.0.1')
    await new Promise((r) => s.once('connect', r))
    s.write('HELLO\r\n\r\n')
    const answer = await new Promise<string>((r) => s.once('data', (d) => r(d.toString())))
    expect(answer).toMatch(/^HTTP\/1\.1 400/)
    s.destroy()
    await stillServing()
  })

  it('headers larger than the server accepts are refused and the server goes on', async () => {
    const r = await http('GET', '/', { 'x-pad': 'a'.repeat(64 * 1024) }).catch(() => ({ status: 431, body: '' }))
    expect([400, 431]).toContain(r.status)
    await stillServing()
  })
})
