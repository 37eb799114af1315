// The session's event bus: every agent of a session emits here; transcripts, the UI pump and the CLI
// subscribe. A listener that throws is reported once and never breaks the agents or other listeners.
import type { AgentEvent } from '../../../../shared/events'
import { errorMessage } from '../../../../shared/error-message'

export type EventListener = (event: AgentEvent) => void

export class EventBus {
  private listeners: EventListener[] = []

  subscribe(listener: EventListener): () => void {
    this.listeners.push(listener)
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener)
    }
  }

  readonly emit = (event: AgentEvent): void => {
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch (err) {
        console.error(`fanout: an event listener failed on ${event.type}: ${errorMessage(err)}`)
      }
    }
  }
}
