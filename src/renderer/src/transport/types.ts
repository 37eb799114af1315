// What the UI talks to: the contract's calls, the event and notice pushes, and the connection state.
// Two implementations: Electron's preload (`window.fanout`) and browser mode's WebSocket.
import type { AgentEvent } from '../../../shared/events'
import type { CallName, CallRequest, CallResponse, FieldErrors, HostNotice, IpcError, IpcErrorCode } from '../../../shared/ipc-contract'

/** `closed`: lost, reconnecting. `unauthorized` and `gone` are final: refused (a stale page), or nothing answers any more. */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'unauthorized' | 'gone'

export interface FanoutApi {
  readonly mode: 'electron' | 'browser'
  call<K extends CallName>(name: K, request: CallRequest<K>): Promise<CallResponse<K>>
  onEvents(listener: (events: AgentEvent[]) => void): () => void
  onNotice(listener: (notice: HostNotice) => void): () => void
  onConnection(listener: (state: ConnectionState, detail?: string) => void): () => void
}

/**
 * A failed call, with the contract's error code and a sentence to show where the action was taken; for a
 * request refused field by field, each field's sentence by its path in the request (see IpcError).
 */
export class CallError extends Error {
  constructor(
    readonly code: IpcErrorCode | 'disconnected',
    message: string,
    readonly fields: Readonly<FieldErrors> = {}
  ) {
    super(message)
    this.name = 'CallError'
  }
}

/** The error a call answered with, as either transport received it. */
export function callError(error: IpcError): CallError {
  const fields: FieldErrors = {}
  // Only sentences: whatever else arrived under `fields` is no field's message.
  if (typeof error.fields === 'object' && error.fields !== null) for (const [k, v] of Object.entries(error.fields)) if (typeof v === 'string') fields[k] = v
  return new CallError(error.code, error.message, fields)
}

/** The one errorMessage(), for the renderer's modules that import their transport types from here. */
export { errorMessage } from '../../../shared/error-message'
