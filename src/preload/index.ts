// Preload: exposes `window.fanout` with one function, `call(name, request)`, and two subscriptions, nothing
// else (no ipcRenderer, no Node). It knows no call names: main serves only the contract's calls, refuses any
// other name (`unknown_call`) and validates every request, so adding a call never touches this file.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { CALL_CHANNEL, PUSH_CHANNELS } from '../shared/ipc-channels'

function subscribe(channel: string) {
  return (listener: (payload: unknown) => void): (() => void) => {
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload)
    ipcRenderer.on(channel, wrapped)
    return () => void ipcRenderer.removeListener(channel, wrapped)
  }
}

const api = {
  call: (name: unknown, request: unknown) => ipcRenderer.invoke(CALL_CHANNEL, name, request ?? {}),
  onEvents: subscribe(PUSH_CHANNELS.events),
  onNotice: subscribe(PUSH_CHANNELS.notice)
}

contextBridge.exposeInMainWorld('fanout', Object.freeze(api))
