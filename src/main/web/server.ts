// Browser mode: serves the built renderer on 127.0.0.1 and speaks the IPC contract over a WebSocket.
// Only a page holding this launch's token can open the socket, and only from this server's own origin
// and Host name: other local pages (including DNS-rebound ones) and processes without the token are
// refused at the handshake, before any call is read.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import type { Duplex } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { WebSocketServer, type WebSocket } from 'ws'
import type { RuntimeHost } from '../../shared/host'
import { WS_MAX_FRAME_BYTES, WS_PATH, WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../shared/ipc-contract'
import { SECURITY_HEADERS, buildCsp } from './csp'
import { serveStatic } from './static-files'
import { serveConnection } from './ws-connection'
import { errorMessage } from '../../shared/error-message'

export interface WebServerOptions {
  host: RuntimeHost
  /** 0 (default) picks a free port. */
  port?: number
  /** The built renderer; defaults to `out/renderer` of this checkout. */
  rendererDir?: string
  /** Defaults to 32 random bytes, hex. */
  token?: string
  /** Told when a connection is closed for what its page sent (default: stderr). */
  onRefused?: (message: string) => void
}

export interface WebServer {
  /** The URL to open, token included (in the fragment, so it never reaches a server log or a Referer). */
  url: string
  token: string
  port: number
  close(): Promise<void>
}

const LOOPBACK = '127.0.0.1'

/** Walks up from this module to the checkout root (the bundle lives in out/cli, the source in src/main/web). */
export function defaultRendererDir(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'out'))) return join(dir, 'out/renderer')
    const up = dirname(dir)
    if (up === dir) return join(from, '../renderer')
    dir = up
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function refuse(socket: Duplex, status: number, reason: string, message: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`
  )
  socket.destroy()
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(32).toString('hex')
  if (!/^[A-Za-z0-9_-]{16,200}$/.test(token)) throw new Error('The browser-mode token must be 16-200 letters, digits, _ or -.')
  const rendererDir = options.rendererDir ?? defaultRendererDir()
  let port = 0
  const allowedHosts = () => new Set([`${LOOPBACK}:${port}`, `localhost:${port}`])
  const allowedOrigins = () => new Set([`http://${LOOPBACK}:${port}`, `http://localhost:${port}`])
  const headers = () => ({
    ...SECURITY_HEADERS,
    'Content-Security-Policy': buildCsp({ websocketOrigins: [`ws://${LOOPBACK}:${port}`, `ws://localhost:${port}`] })
  })

  const server = createServer((req, res) => {
    // A page on another name that resolves to 127.0.0.1 (DNS rebinding) sends its own Host: refuse it.
    if (!allowedHosts().has(req.headers.host ?? '')) {
      res.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8' }).end('This server answers only to its own address.\n')
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers(), Allow: 'GET, HEAD' }).end()
      return
    }
    serveStatic(rendererDir, new URL(req.url ?? '/', 'http://x').pathname, res, headers(), req.method === 'HEAD').catch((err) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end(`Could not read the file: ${errorMessage(err)}\n`)
    })
  })

  const wss = new WebSocketServer({
    noServer: true,
    // Checked from the frame's header, before its body is read: a larger frame is never buffered.
    maxPayload: WS_MAX_FRAME_BYTES,
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false)
  })
  const disposers = new Set<() => void>()
  // A failing socket or server is that socket's or that server's problem, never the process's.
  wss.on('error', () => undefined)
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
    socket.destroy()
  })

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    if (new URL(req.url ?? '/', 'http://x').pathname !== WS_PATH) return refuse(socket, 404, 'Not Found', 'No WebSocket here.\n')
    if (!allowedHosts().has(req.headers.host ?? '')) return refuse(socket, 421, 'Misdirected Request', 'Wrong Host.\n')
    if (!allowedOrigins().has(req.headers.origin ?? '')) return refuse(socket, 403, 'Forbidden', 'Only the Fanout page may connect.\n')
    const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim())
    const given = offered.find((p) => p.startsWith(WS_TOKEN_PREFIX))?.slice(WS_TOKEN_PREFIX.length)
    if (!offered.includes(WS_PROTOCOL) || !given || !sameSecret(given, token)) {
      return refuse(socket, 401, 'Unauthorized', 'Missing or wrong token: open the URL fanout web printed.\n')
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const dispose = serveConnection(ws, options.host, options.onRefused ? { onRefused: options.onRefused } : {})
      disposers.add(dispose)
      ws.on('close', () => disposers.delete(dispose))
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'EADDRINUSE' ? `Port ${options.port} on ${LOOPBACK} is already in use; pick another with --port.` : err.message))
    )
    server.listen(options.port ?? 0, LOOPBACK, () => resolve())
  })
  port = (server.address() as AddressInfo).port

  return {
    url: `http://${LOOPBACK}:${port}/#token=${token}`,
    token,
    port,
    async close() {
      for (const dispose of disposers) dispose()
      for (const ws of wss.clients) ws.terminate()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
