// Browser mode: the contract over one WebSocket, authenticated with the token from the URL fragment.
// Reconnects with backoff when the server goes away (e.g. restarted); calls made while disconnected
// fail at once with a sentence saying so, rather than hanging.
import type { AgentEvent } from '../../../shared/events'
import { WS_PATH, WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../../shared/ipc-channels'
import type { HostNotice, WsServerMessage } from '../../../shared/ipc-contract'
import { CallError, type ConnectionState, type FanoutApi } from './types'

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

export function createWebSocketTransport(token: string | null, url = `ws://${location.host}${WS_PATH}`): FanoutApi {
  const eventListeners = new Set<(e: AgentEvent[]) => void>()
  const noticeListeners = new Set<(n: HostNotice) => void>()
  const connectionListeners = new Set<(s: ConnectionState, detail?: string) => void>()
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; name: string }>()
  let state: ConnectionState = 'connecting'
  let detail: string | undefined
  let ws: WebSocket | null = null
  let nextId = 1
  let retry = 0
  let everOpened = false

  const setState = (s: ConnectionState, d?: string) => {
    state = s
    detail = d
    for (const l of connectionListeners) l(s, d)
  }

  function connect(): void {
    if (!token) {
      setState('unauthorized', 'This page was opened without its access token. Open the URL that `fanout web` printed.')
      return
    }
    setState('connecting')
    const socket = new WebSocket(url, [WS_PROTOCOL, WS_TOKEN_PREFIX + token])
    ws = socket
    socket.onopen = () => {
      retry = 0
      everOpened = true
      setState('open')
    }
    socket.onmessage = (ev) => {
      const m = JSON.parse(String(ev.data)) as WsServerMessage
      if (m.kind === 'events') for (const l of eventListeners) l(m.events)
      else if (m.kind === 'notice') for (const l of noticeListeners) l(m.notice)
      else if (m.kind === 'result') {
        const p = pending.get(m.id)
        if (!p) return
        pending.delete(m.id)
        if (m.result.ok) p.resolve(m.result.value)
        else p.reject(new CallError(m.result.error.code, m.result.error.message))
      } else if (m.kind === 'error') console.warn(`Fanout server: ${m.message}`)
    }
    socket.onclose = () => {
      if (ws !== socket) return
      ws = null
      for (const [, p] of pending) p.reject(new CallError('disconnected', `${p.name} did not finish: the connection to Fanout was lost.`))
      pending.clear()
      // A refused handshake never opens: after a few tries that is a wrong or stale token, not a restart.
      if (!everOpened && retry >= 3) {
        setState('unauthorized', 'The server refused this page. Its token is from an earlier launch: open the URL `fanout web` printed this time.')
        return
      }
      setState('closed', 'Lost the connection to Fanout. Reconnecting…')
      const delay = Math.min(5000, 250 * 2 ** retry++)
      setTimeout(connect, delay)
    }
  }
  connect()

  return {
    mode: 'browser',
    call(name, request) {
      if (!ws || state !== 'open') return Promise.reject(new CallError('disconnected', `Cannot ${name}: not connected to Fanout.`))
      const id = nextId++
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject, name })
        ws!.send(JSON.stringify({ id, call: name, payload: request ?? {} }))
      })
    },
    onEvents(l) {
      eventListeners.add(l)
      return () => eventListeners.delete(l)
    },
    onNotice(l) {
      noticeListeners.add(l)
      return () => noticeListeners.delete(l)
    },
    onConnection(l) {
      connectionListeners.add(l)
      l(state, detail)
      return () => connectionListeners.delete(l)
    }
  }
}
