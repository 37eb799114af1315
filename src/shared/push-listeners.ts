// The listeners of the host's two pushes, event batches and notices, as each host (the runtime's, the
// recording one of tests) and the browser-mode transport keeps them: subscribe (returning the unsubscribe
// function) and send to every listener.
import type { AgentEvent } from './events'
import type { HostNotice } from './ipc-contract'

export interface PushListeners {
  onEvents(listener: (events: AgentEvent[]) => void): () => void
  onNotice(listener: (notice: HostNotice) => void): () => void
  emitEvents(events: AgentEvent[]): void
  emitNotice(notice: HostNotice): void
}

export function pushListeners(): PushListeners {
  const events = new Set<(events: AgentEvent[]) => void>()
  const notices = new Set<(notice: HostNotice) => void>()
  return {
    onEvents(listener) {
      events.add(listener)
      return () => void events.delete(listener)
    },
    onNotice(listener) {
      notices.add(listener)
      return () => void notices.delete(listener)
    },
    emitEvents(batch) {
      for (const l of events) l(batch)
    },
    emitNotice(notice) {
      for (const l of notices) l(notice)
    }
  }
}
