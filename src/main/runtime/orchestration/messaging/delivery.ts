// How text reaches an agent that is not waiting for it: SendMessage messages and task notifications. They
// go into the agent's inbox, which the loop empties at the start of every turn and before the agent may
// finish; a run that ends with messages still waiting (they arrived during its last moments) is followed by
// another run that reads them, so nothing sent to an agent is dropped or read twice.
//
// Across a crash too: each delivery has an id, recorded with it (`message_received`) and again with the
// user message that hands it to the agent (`message.deliveries`). Received and not consumed is delivered
// after a restart (delivery-ledger.ts); the same id arriving twice is dropped. A report is recorded in its
// run's agent_end before it is handed over (see afterSubagentRun), so one a crash caught in between is
// delivered after the restart, once.
import { randomBytes } from 'node:crypto'
import type { ContentBlock, ReportIntent } from '../../../../shared/events'
import type { AgentHandle } from '../runs/agent-registry'
import { formatAgentReport } from '../runs/report'
import type { ChildResult, DeliverOptions, Delivery, RunRequest, SessionContext } from '../types'

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\n/g, ' ')

/** A SendMessage message as the receiving agent sees it. */
export function formatAgentMessage(from: string, text: string, summary?: string): string {
  return `<agent-message from="${attr(from)}"${summary ? ` summary="${attr(summary)}"` : ''}>\n${text}\n</agent-message>`
}

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

/**
 * Hands text to an agent (SessionContext.deliver): into its inbox, and, unless told not to, starts it when it
 * is idle. The main agent runs its own queue (`main`): woken, it runs once it is free.
 */
export function deliverTo(session: SessionContext, main: { readonly busy: boolean; wake(): void }, target: AgentHandle, text: string, opts: DeliverOptions): Delivery {
  const deliveryId = opts.deliveryId ?? newDeliveryId()
  // Received before (a mailbox read again after a crash, a report redelivered): it is here already.
  if (target.received.has(deliveryId)) return target.run || (target.id === session.mainAgentId && main.busy) ? 'inbox' : 'held'
  target.received.add(deliveryId)
  session.emit({
    agentId: target.id,
    parentAgentId: target.parentId,
    parentToolUseId: target.parentToolUseId,
    sessionId: session.sessionId,
    ts: Date.now(),
    type: 'message_received',
    from: opts.from,
    text,
    ...(opts.summary ? { summary: opts.summary } : {}),
    deliveryId
  })
  target.inbox.push({ text, deliveryId })
  if (target.id === session.mainAgentId) {
    const busy = main.busy
    if (opts.wake !== false) main.wake()
    return busy ? 'inbox' : main.busy ? 'woke' : 'held'
  }
  if (target.run) return 'inbox'
  if (opts.wake === false) return 'held'
  session.resumeFromInbox(target, opts.reportTo ?? null)
  return 'resumed'
}

export const newDeliveryId = (): string => `d-${randomBytes(8).toString('hex')}`

/** The messages waiting in the inbox, as the opening user message of a run, and the deliveries it consumes. */
export function inboxPrompt(handle: AgentHandle): { blocks: ContentBlock[]; ids: string[] } {
  const items = handle.inbox.splice(0)
  return { blocks: items.map((i) => ({ type: 'text', text: i.text })), ids: items.flatMap((i) => (i.deliveryId ? [i.deliveryId] : [])) }
}

/**
 * The report a background run owes, decided as it ends: who it goes to (its reportTo, or the nearest
 * ancestor still running), the notification, and its delivery id. Recorded in the run's agent_end.
 */
export function reportIntent(session: SessionContext, handle: AgentHandle, result: ChildResult, req: RunRequest, main: () => AgentHandle): ReportIntent | null {
  if (!req.reportTo || handle.quiet) return null
  const { target, forwarded } = liveRecipient(session, req.reportTo, main)
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
 * Hands a recorded report to its recipient, or, if that one stopped running since, to its nearest running
 * ancestor (`retext` words the notification for that one, when the run is still at hand).
 */
export function deliverReport(session: SessionContext, from: string, report: ReportIntent, main: () => AgentHandle, retext?: (forwardedFrom: string) => string): void {
  const { target, forwarded } = liveRecipient(session, report.to, main)
  const text = forwarded && retext ? retext(report.to) : report.text
  session.deliver(target, text, { from, summary: report.summary, wake: report.wake, deliveryId: report.deliveryId })
}

/** The agent `id`, or its nearest running ancestor, or the main agent: someone who can still act on a report. */
export function liveRecipient(session: SessionContext, id: string, main: () => AgentHandle): { target: AgentHandle; forwarded: boolean } {
  let h = session.registry.get(id)
  let forwarded = false
  while (h && h.id !== session.mainAgentId && !h.run) {
    h = h.parentId ? session.registry.get(h.parentId) : undefined
    forwarded = true
  }
  if (!h) return { target: main(), forwarded: id !== session.mainAgentId }
  return { target: h, forwarded }
}

/**
 * After a subagent run: its report goes to whoever it reports to when nobody awaited it, and messages that
 * arrived too late for the run start the next one. An agent that was stopped (by the person, by its parent's
 * TaskStop) or never started keeps such messages for its next explicit resume instead of restarting itself.
 */
export function afterSubagentRun(session: SessionContext, handle: AgentHandle, result: ChildResult, req: RunRequest, main: () => AgentHandle): void {
  if (result.report) {
    // Recorded in the agent_end, which is on disk by now (startSubagentRun): a crash before this line
    // leaves it owed, delivered after the restart; after it, it is received.
    deliverReport(session, handle.id, result.report, main, (forwardedFrom) => formatTaskNotification(handle, result, forwardedFrom))
  } else {
    // A run that never started has no agent_end to record it in: its report goes at once.
    const report = reportIntent(session, handle, result, req, main)
    if (report) deliverReport(session, handle.id, report, main)
  }
  if (!handle.inbox.length) return
  if (result.notStarted || result.status === 'stopped' || handle.stoppedByUser) return
  session.resumeFromInbox(handle, handle.parentId ?? session.mainAgentId)
}
