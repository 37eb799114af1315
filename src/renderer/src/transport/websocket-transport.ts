// Browser mode: the contract over one WebSocket, authenticated with the token from the URL fragment.
// Reconnects with backoff when the connection drops; calls made while disconnected fail at once with a
// sentence saying so, rather than hanging. Each launch of Fanout has a new token, so a page from before a
// restart can never connect again: once the server answers but refuses the page, or nothing has answered
// for a while, it stops trying and says what to do.
import { pushListeners } from '../../../shared/push-listeners'
import { WS_PATH, WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../../shared/ipc-channels'
import type { CallName } from '../../../shared/ipc-contract'
import { WS_MAX_FRAME_BYTES, type WsServerMessage } from '../../../shared/ipc-contract'
import { callWords, notConnectedText } from './call-words'
import { CallError, callError, type ConnectionState, type FanoutApi } from './types'

/** How long a page that lost its connection keeps trying while nothing answers at its address. */
export const GIVE_UP_AFTER_MS = 30_000

export const RESTARTED_TEXT =
  'Fanout was restarted, so this page can no longer connect: each launch has its own address. Open the address Fanout printed when it started again (“fanout web” prints it); reloading this page is not enough.'
export const GONE_TEXT = `Fanout stopped: nothing has answered at this address for ${GIVE_UP_AFTER_MS / 1000} seconds. Start it again, then open the address it prints.`

export interface WebSocketTransportDeps {
  WebSocket: new (url: string, protocols: string[]) => WebSocket
  /** Whether the server answers plain HTTP at the page's address (it is up, whatever it thinks of the token). */
  serverAnswers: () => Promise<boolean>
  now: () => number
  setTimeout: (fn: () => void, ms: number) => unknown
}

const browserDeps = (): WebSocketTransportDeps => ({
  WebSocket,
  serverAnswers: () =>
    fetch(`${location.origin}/`, { method: 'HEAD', cache: 'no-store' }).then(
      () => true,
      () => false
    ),
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms)
})

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`

/** Why the server closed the connection, when its close code says (it refuses what breaks the protocol). */
export function closeReason(code: number): string | null {
  if (code === 1009) return `Fanout refused a message larger than ${mib(WS_MAX_FRAME_BYTES)} and closed the connection.`
  if (code === 1007) return 'Fanout refused a message that was not valid text and closed the connection.'
  if (code === 1002) return 'Fanout refused a message that broke the connection protocol and closed the connection.'
  return null
}

/** The bytes a frame takes on the wire (UTF-8), counted only when it could be near the limit. */
function frameBytes(frame: string): number {
  return frame.length * 3 <= WS_MAX_FRAME_BYTES ? frame.length : new TextEncoder().encode(frame).length
}

/** Reads `#token=...` and removes it from the address bar so it is not copied around by accident. */
export function takeToken(location: Location, history: History): string | null {
  const m = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash)
  if (m) {
    sessionStorage.setItem('fanout-token', m[1])
    history.replaceState(null, '', location.pathname + location.search)
    return m[1]
  }
  return sessionStorage.getItem('fanout-token')
}

export function createWebSocketTransport(
  token: string | null,
  url = `ws://${location.host}${WS_PATH}`,
  deps: WebSocketTransportDeps = browserDeps()
): FanoutApi {
  const pushes = pushListeners()
  const connectionListeners = new Set<(s: ConnectionState, detail?: string) => void>()
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; name: CallName }>()
  let state: ConnectionState = 'connecting'
  let detail: string | undefined
  let ws: WebSocket | null = null
  let nextId = 1
  let retry = 0
  let everOpened = false
  /** Since when the page has been without a connection it once had; null while connected. */
  let lostAt: number | null = null
  /** Handshakes in a row refused while the server answered. */
  let refused = 0

  const setState = (s: ConnectionState, d?: string) => {
    state = s
    detail = d
    for (const l of connectionListeners) l(s, d)
  }

  function connect(): void {
    if (!token) {
      setState('unauthorized', 'This page was opened without its access token. Open the URL that “fanout web” printed.')
      return
    }
    setState('connecting')
    const socket = new deps.WebSocket(url, [WS_PROTOCOL, WS_TOKEN_PREFIX + token])
    let opened = false
    ws = socket
    socket.onopen = () => {
      retry = 0
      refused = 0
      lostAt = null
      opened = true
      everOpened = true
      setState('open')
    }
    socket.onmessage = (ev) => {
      const m = JSON.parse(String(ev.data)) as WsServerMessage
      if (m.kind === 'events') pushes.emitEvents(m.events)
      else if (m.kind === 'notice') pushes.emitNotice(m.notice)
      else if (m.kind === 'result') {
        const p = pending.get(m.id)
        if (!p) return
        pending.delete(m.id)
        if (m.result.ok) p.resolve(m.result.value)
        else p.reject(callError(m.result.error))
      } else if (m.kind === 'error') console.warn(`Fanout server: ${m.message}`)
    }
    socket.onclose = (ev: CloseEvent) => {
      if (ws !== socket) return
      ws = null
      const why = closeReason(ev?.code ?? 0)
      const lost = why ? why.replace(/\.$/, '') : 'Lost the connection to Fanout'
      for (const [, p] of pending)
        p.reject(new CallError('disconnected', `${lost} while trying to ${callWords(p.name)}; once it is back, check whether that happened.`))
      pending.clear()
      // A refused handshake never opens: after a few tries that is a wrong or stale token, not a restart.
      if (!everOpened && retry >= 3) {
        setState('unauthorized', 'The server refused this page. Its token is from an earlier launch: open the URL “fanout web” printed this time.')
        return
      }
      if (opened || lostAt === null) lostAt = deps.now()
      setState('closed', `${why ?? 'Lost the connection to Fanout.'} Reconnecting…`)
      if (!everOpened || opened) return retryLater()
      void deps.serverAnswers().then((answers) => {
        refused = answers ? refused + 1 : 0
        // The server is up but refuses this page twice in a row: it is a new launch with a new token.
        if (refused >= 2) return setState('unauthorized', RESTARTED_TEXT)
        if (deps.now() - lostAt! >= GIVE_UP_AFTER_MS) return setState('gone', GONE_TEXT)
        retryLater()
      })
    }
  }

  function retryLater(): void {
    const delay = Math.min(5000, 250 * 2 ** retry++)
    deps.setTimeout(connect, delay)
  }
  connect()

  return {
    mode: 'browser',
    call(name, request) {
      if (!ws || state !== 'open') return Promise.reject(new CallError('disconnected', notConnectedText(name, state)))
      const id = nextId++
      const frame = JSON.stringify({ id, call: name, payload: request ?? {} })
      // Refused here, with a sentence, rather than sent to be refused by the server (which closes the connection).
      const bytes = frameBytes(frame)
      if (bytes > WS_MAX_FRAME_BYTES)
        return Promise.reject(
          new CallError(
            'invalid_request',
            `Could not ${callWords(name)}: it is ${mib(bytes)}, and browser mode sends at most ${mib(WS_MAX_FRAME_BYTES)} at once. Shorten it.`
          )
        )
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject, name })
        ws!.send(frame)
      })
    },
    onEvents: pushes.onEvents,
    onNotice: pushes.onNotice,
    onConnection(l) {
      connectionListeners.add(l)
      l(state, detail)
      return () => connectionListeners.delete(l)
    }
  }
}
