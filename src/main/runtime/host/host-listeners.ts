// Who hears the host: the adapters' event and notice listeners (Electron IPC and browser mode each pump
// them to a page). Every part of the host sends through this one place.
import type { AgentEvent } from '../../../shared/events'
import type { HostNotice } from '../../../shared/ipc-contract'
import { pushListeners } from '../../../shared/push-listeners'

export class HostListeners {
  private readonly pushes = pushListeners()
  readonly onEvents = this.pushes.onEvents
  readonly onNotice = this.pushes.onNotice

  events(batch: AgentEvent[]): void {
    this.pushes.emitEvents(batch)
  }

  /**
   * An empty batch: each UI pump sends what it holds now. sessions.open calls it once its view holds every
   * event up to `upTo`, so no batched delta straddles that line.
   */
  barrier(): void {
    this.events([])
  }

  notify(notice: HostNotice): void {
    this.pushes.emitNotice(notice)
  }

  /** A failure outside any run's own events (a run that could not start): shown where it happened. */
  error(sessionId: string, agentId: string, message: string): void {
    this.events([{ type: 'error', message, retrying: false, agentId, parentAgentId: null, parentToolUseId: null, sessionId, ts: Date.now() }])
  }
}
