// Preload: exposes `window.fanout` with one named function per contract call and two subscriptions,
// nothing else (no ipcRenderer, no Node). Generated from the contract's names so it cannot drift.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { CALL_NAMES, CALLS, PUSH_CHANNELS, channelOf } from '../shared/ipc-channels'

function subscribe(channel: string) {
  return (listener: (payload: unknown) => void): (() => void) => {
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload)
    ipcRenderer.on(channel, wrapped)
    return () => void ipcRenderer.removeListener(channel, wrapped)
  }
}

const api: Record<string, unknown> = {}
for (const name of CALL_NAMES) {
  const channel = channelOf(name)
  api[CALLS[name]] = (request: unknown) => ipcRenderer.invoke(channel, request ?? {})
}
api.onEvents = subscribe(PUSH_CHANNELS.events)
api.onNotice = subscribe(PUSH_CHANNELS.notice)

contextBridge.exposeInMainWorld('fanout', Object.freeze(api))
