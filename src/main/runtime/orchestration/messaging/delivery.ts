// How text reaches an agent that is not waiting for it: SendMessage messages and task notifications. They
// go into the agent's inbox, which the loop empties at the start of every turn and before the agent may
// finish; a run that ends with messages still waiting (they arrived during its last moments) is followed by
// another run that reads them, so nothing sent to an agent is dropped or read twice.
//
// Across a crash too: each delivery has an id, recorded with it (`message_received`) and again with the
// user message that hands it to the agent (`message.deliveries`). Received and not consumed is delivered
// after a restart (delivery-ledger.ts); the same id arriving twice is dropped. A report is recorded in its
// run's agent_end before it is handed over (see Deliveries.afterRun), so one a crash caught in between is
// delivered after the restart, once.
import { randomHex } from '../../random-hex'
import type { AgentEvent, ContentBlock, ReportIntent } from '../../../../shared/events'
import type { SessionIndex } from '../../store'
import type { AgentHandle, AgentRegistry } from '../runs/agent-registry'
import { formatAgentReport } from '../runs/report'
import type { ChildResult, RunRequest } from '../runs/run-types'
import type { DeliverOptions, Delivery } from './delivery-types'
import { formatAgentMessage } from './agent-message'
import type { OwedReport } from './delivery-ledger'

export { formatAgentMessage }

/** What the agent a run reports to receives when nobody awaited that run. */
export function formatTaskNotification(handle: AgentHandle, result: ChildResult, forwardedFrom?: string): string {
  const report = formatAgentReport(handle, result).content
  const what = handle.description ? `"${handle.description}"` : handle.id
  const summary =
    result.status === 'completed'
      ? `Agent ${what} completed`
      : result.status === 'failed'
        ? `Agent ${what} failed: ${result.error ?? 'unknown error'}`
        : result.status === 'max_turns'
          ? `Agent ${what} stopped at its turn limit`
          : `Agent ${what} was stopped`
  const lines = [
    '<task-notification>',
    `<task-id>${handle.id}</task-id>`,
    `<agent-type>${handle.agentType}</agent-type>`,
    ...(handle.name ? [`<name>${handle.name}</name>`] : []),
    `<status>${result.status}</status>`,
    `<summary>${summary}</summary>`,
    ...(forwardedFrom ? [`<note>This report was meant for agent ${forwardedFrom}, which is no longer running; it comes to you instead.</note>`] : []),
    `<result>\n${report}\n</result>`,
    ...(handle.outputFile ? [`<output-file>${handle.outputFile}</output-file>`] : []),
    '</task-notification>'
  ]
  return lines.join('\n')
}

export const newDeliveryId = (): string => `d-${randomHex(8)}`

/** The messages waiting in the inbox, as the opening user message of a run, and the deliveries it consumes. */
export function inboxPrompt(handle: AgentHandle): { blocks: ContentBlock[]; ids: string[] } {
  const items = handle.inbox.splice(0)
  return { blocks: items.map((i) => ({ type: 'text', text: i.text })), ids: items.flatMap((i) => (i.deliveryId ? [i.deliveryId] : [])) }
}

/** What delivery needs from its session. */
export interface DeliveryHost {
  readonly sessionId: string
  readonly mainAgentId: string
  readonly registry: AgentRegistry
  emit(event: AgentEvent): void
  /** The main agent, which runs its own queue: woken, it runs once it is free. */
  readonly main: { readonly busy: boolean; wake(): void; getHandle(): AgentHandle }
  /** Starts a run of an idle subagent that reads its inbox; that run reports to `reportTo` (runs/agent-run.ts). */
  startRun(handle: AgentHandle, reportTo: string | null): void
}

/**
 * Where text reaches an agent in one session: a message, a task notification, a background run's report (to
 * whom it goes when its run ends, and after a restart when a crash caught it on the way).
 */
export class Deliveries {
  constructor(private readonly host: DeliveryHost) {}

  /** Hands text to an agent: into its inbox, and, unless told not to, starts it when it is idle. */
  deliver(target: AgentHandle, text: string, opts: DeliverOptions): Delivery {
    const { host } = this
    const main = host.main
    const deliveryId = opts.deliveryId ?? newDeliveryId()
    // Received before (a mailbox read again after a crash, a report redelivered): it is here already.
    if (target.received.has(deliveryId)) return target.run || (target.id === host.mainAgentId && main.busy) ? 'inbox' : 'held'
    target.received.add(deliveryId)
    host.emit({
      agentId: target.id,
      parentAgentId: target.parentId,
      parentToolUseId: target.parentToolUseId,
      sessionId: host.sessionId,
      ts: Date.now(),
      type: 'message_received',
      from: opts.from,
      text,
      ...(opts.summary ? { summary: opts.summary } : {}),
      deliveryId
    })
    target.inbox.push({ text, deliveryId })
    if (target.id === host.mainAgentId) {
      const busy = main.busy
      if (opts.wake !== false) main.wake()
      return busy ? 'inbox' : main.busy ? 'woke' : 'held'
    }
    if (target.run) return 'inbox'
    if (opts.wake === false) return 'held'
    host.startRun(target, opts.reportTo ?? null)
    return 'resumed'
  }

  /**
   * The report a background run owes, decided as it ends: who it goes to (its reportTo, or the nearest
   * ancestor still running), the notification, and its delivery id. Recorded in the run's agent_end.
   */
  reportIntent(handle: AgentHandle, result: ChildResult, req: RunRequest): ReportIntent | null {
    if (!req.reportTo || handle.quiet) return null
    const { target, forwarded } = this.liveRecipient(req.reportTo)
    return {
      to: target.id,
      deliveryId: `report-${handle.id}-${newDeliveryId().slice(2)}`,
      text: formatTaskNotification(handle, result, forwarded ? req.reportTo : undefined),
      summary: `${handle.description ?? handle.agentType}: ${result.status}`,
      // A run the person stopped does not restart anyone; the report waits for the recipient's next turn.
      wake: !handle.stoppedByUser
    }
  }

  /**
   * After a subagent run: its report goes to whoever it reports to when nobody awaited it, and messages that
   * arrived too late for the run start the next one. An agent that was stopped (by the person, by its parent's
   * TaskStop) or never started keeps such messages for its next explicit resume instead of restarting itself.
   */
  afterRun(handle: AgentHandle, result: ChildResult, req: RunRequest): void {
    if (result.report) {
      // Recorded in the agent_end, which is on disk by now (startSubagentRun): a crash before this line
      // leaves it owed, delivered after the restart; after it, it is received.
      this.deliverReport(handle.id, result.report, (forwardedFrom) => formatTaskNotification(handle, result, forwardedFrom))
    } else {
      // A run that never started has no agent_end to record it in: its report goes at once.
      const report = this.reportIntent(handle, result, req)
      if (report) this.deliverReport(handle.id, report)
    }
    if (!handle.inbox.length) return
    if (result.notStarted || result.status === 'stopped' || handle.stoppedByUser) return
    this.host.startRun(handle, handle.parentId ?? this.host.mainAgentId)
  }

  /**
   * Reports a run recorded before a crash and nobody received (see DeliveryLedger.owedReports): each goes,
   * once, to an agent that will read it: its recipient if that one was cut off too (it is resumed with it),
   * else the nearest such ancestor, else the main agent.
   */
  async deliverOwed(owed: readonly OwedReport[], index: SessionIndex, find: (id: string) => Promise<AgentHandle | undefined>): Promise<void> {
    const { mainAgentId } = this.host
    for (const { from, report } of owed) {
      let to = report.to
      for (let hops = 0; to !== mainAgentId && hops < 64; hops++) {
        const rec = index.agents[to]
        if (rec?.status === 'interrupted') break
        to = rec?.parentAgentId ?? mainAgentId
      }
      const main = this.host.main.getHandle()
      const target = to === mainAgentId ? main : ((await find(to).catch(() => undefined)) ?? main)
      this.deliver(target, report.text, { from, summary: report.summary, wake: false, deliveryId: report.deliveryId })
    }
  }

  /**
   * Hands a recorded report to its recipient, or, if that one stopped running since, to its nearest running
   * ancestor (`retext` words the notification for that one, when the run is still at hand).
   */
  private deliverReport(from: string, report: ReportIntent, retext?: (forwardedFrom: string) => string): void {
    const { target, forwarded } = this.liveRecipient(report.to)
    const text = forwarded && retext ? retext(report.to) : report.text
    this.deliver(target, text, { from, summary: report.summary, wake: report.wake, deliveryId: report.deliveryId })
  }

  /** The agent `id`, or its nearest running ancestor, or the main agent: someone who can still act on a report. */
  private liveRecipient(id: string): { target: AgentHandle; forwarded: boolean } {
    const { registry, mainAgentId } = this.host
    let h = registry.get(id)
    let forwarded = false
    while (h && h.id !== mainAgentId && !h.run) {
      h = h.parentId ? registry.get(h.parentId) : undefined
      forwarded = true
    }
    if (!h) return { target: this.host.main.getHandle(), forwarded: id !== mainAgentId }
    return { target: h, forwarded }
  }
}
