// The desktop transport: the preload's `window.fanout`, one named function per call.
import type { AgentEvent } from '../../../shared/events'
import { CALLS } from '../../../shared/ipc-channels'
import type { HostNotice, IpcResult } from '../../../shared/ipc-contract'
import { CallError, callError, type FanoutApi } from './types'

interface PreloadApi {
  onEvents(listener: (events: AgentEvent[]) => void): () => void
  onNotice(listener: (notice: HostNotice) => void): () => void
  [method: string]: unknown
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
      const fn = preload[CALLS[name]] as ((req: unknown) => Promise<IpcResult<unknown>>) | undefined
      if (typeof fn !== 'function') throw new CallError('unknown_call', `This app build has no ${name} call.`)
      const result = await fn(request ?? {})
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
