// The desktop transport: the preload's `window.fanout`, whose one `call(name, request)` carries every call.
import type { AgentEvent } from '../../../shared/events'
import type { HostNotice, IpcResult } from '../../../shared/ipc-contract'
import { callError, type FanoutApi } from './types'

interface PreloadApi {
  onEvents(listener: (events: AgentEvent[]) => void): () => void
  onNotice(listener: (notice: HostNotice) => void): () => void
  /** Any call by name: main answers an IpcResult, `unknown_call` for a name the contract lacks. */
  call(name: string, request: unknown): Promise<IpcResult<unknown>>
}

declare global {
  interface Window {
    fanout?: PreloadApi
  }
}

export function createElectronTransport(preload: PreloadApi): FanoutApi {
  return {
    mode: 'electron',
    async call(name, request) {
      const result = await preload.call(name, request ?? {})
      if (!result.ok) throw callError(result.error)
      return result.value as never
    },
    onEvents: (listener) => preload.onEvents(listener),
    onNotice: (listener) => preload.onNotice(listener),
    onConnection(listener) {
      listener('open')
      return () => {}
    }
  }
}
