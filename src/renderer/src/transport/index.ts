// Picks the transport: the Electron preload when present, else browser mode's WebSocket.
import { createElectronTransport } from './electron-transport'
import { announceLaunch, followNewToken, takeCarried } from './launch-channel'
import type { FanoutApi } from './types'
import { createWebSocketTransport, takeToken } from './websocket-transport'

export function connectTransport(): FanoutApi {
  if (window.fanout) return createElectronTransport(window.fanout)
  takeCarried(window.location)
  const token = takeToken(window.location, window.history)
  const api = createWebSocketTransport(token)
  followNewToken()
  if (token) {
    const off = api.onConnection((state) => {
      if (state !== 'open') return
      announceLaunch(token)
      queueMicrotask(() => off())
    })
  }
  return api
}
