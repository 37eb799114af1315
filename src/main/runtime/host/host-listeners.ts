// Who hears the host: the adapters' event and notice listeners (Electron IPC and browser mode each pump
// them to a page). Every part of the host sends through this one place.
import type { AgentEvent } from '../../../shared/events'
import type { HostNotice } from '../../../shared/ipc-contract'

export class HostListeners {
  private readonly eventListeners = new Set<(events: AgentEvent[]) => void>()
  private readonly noticeListeners = new Set<(notice: HostNotice) => void>()

  onEvents(listener: (events: AgentEvent[]) => void): () => void {
    this.eventListeners.add(listener)
    return () => this.eventListeners.delete(listener)
  }

  onNotice(listener: (notice: HostNotice) => void): () => void {
    this.noticeListeners.add(listener)
    return () => this.noticeListeners.delete(listener)
  }

  events(batch: AgentEvent[]): void {
    for (const l of this.eventListeners) l(batch)
  }

  /**
   * An empty batch: each UI pump sends what it holds now. sessions.open calls it once its view holds every
   * event up to `upTo`, so no batched delta straddles that line.
   */
  barrier(): void {
    this.events([])
  }

  notify(notice: HostNotice): void {
    for (const l of this.noticeListeners) l(notice)
  }

  /** A failure outside any run's own events (a run that could not start): shown where it happened. */
  error(sessionId: string, agentId: string, message: string): void {
    this.events([{ type: 'error', message, retrying: false, agentId, parentAgentId: null, parentToolUseId: null, sessionId, ts: Date.now() }])
  }
}
