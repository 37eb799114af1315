// Wires the contract onto ipcMain: one handler on the one call channel, refusing any sender but our own
// window's top frame, then checking the call's name and request and dispatching through the shared dispatcher. Runtime events and notices
// go to the window through the batching pump.
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron'
import { createEventPump } from '../../shared/event-pump'
import type { RuntimeHost } from '../../shared/host'
import { CALL_CHANNEL, PUSH_CHANNELS, type IpcResult } from '../../shared/ipc-contract'
import { dispatchCall, type ShellHandlers } from '../../shared/ipc-dispatch'
import { redactValue } from '../../shared/redact'
import { isAppUrl } from './app-protocol'

export interface IpcOptions {
  ipcMain: IpcMain
  host: RuntimeHost
  /** The one webContents allowed to call (the main window's). */
  contents: () => WebContents | null
  shell?: ShellHandlers
}

/** Only our window's top frame, showing our own renderer, may call the runtime. */
export function isTrustedSender(event: IpcMainInvokeEvent, contents: WebContents | null): boolean {
  const frame = event.senderFrame
  if (!contents || event.sender !== contents || !frame) return false
  if (frame.parent !== null) return false
  return isAppUrl(frame.url)
}

const FORBIDDEN: IpcResult<never> = { ok: false, error: { code: 'forbidden', message: 'This page may not call Fanout.' } }

export function registerIpc(options: IpcOptions): () => void {
  options.ipcMain.handle(CALL_CHANNEL, (event, name: unknown, payload: unknown) => {
    if (!isTrustedSender(event, options.contents())) return FORBIDDEN
    // Answers leave for the page here: no credential goes with them. A name the contract lacks: `unknown_call`.
    return dispatchCall(options.host, name, payload, options.shell).then(redactValue)
  })
  return () => options.ipcMain.removeHandler(CALL_CHANNEL)
}

/** Streams the host's events (batched) and notices to a window until it is destroyed. */
export function connectPushes(host: RuntimeHost, contents: WebContents): () => void {
  const send = (channel: string, payload: unknown) => {
    if (!contents.isDestroyed()) contents.send(channel, redactValue(payload))
  }
  const pump = createEventPump({ send: (batch) => send(PUSH_CHANNELS.events, batch) })
  const offEvents = host.onEvents((events) => pump.push(events))
  const offNotices = host.onNotice((notice) => send(PUSH_CHANNELS.notice, notice))
  const dispose = () => {
    offEvents()
    offNotices()
    pump.close()
  }
  contents.once('destroyed', dispose)
  return dispose
}
