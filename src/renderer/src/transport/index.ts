// Picks the transport: the Electron preload when present, else browser mode's WebSocket.
import { createElectronTransport } from './electron-transport'
import type { FanoutApi } from './types'
import { createWebSocketTransport, takeToken } from './websocket-transport'

export function connectTransport(): FanoutApi {
  if (window.fanout) return createElectronTransport(window.fanout)
  return createWebSocketTransport(takeToken(window.location, window.history))
}
