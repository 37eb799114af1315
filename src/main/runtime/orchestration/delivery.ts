// How text reaches an agent that is not waiting for it: SendMessage messages and task notifications. They
// go into the agent's inbox, which the loop empties at the start of every turn and before the agent may
// finish; a run that ends with messages still waiting (they arrived during its last moments) is followed by
// another run that reads them, so nothing sent to an agent is dropped or read twice.
import type { ContentBlock } from '../../../shared/events'
import type { AgentHandle } from './agent-registry'
import { formatAgentReport } from './report'
import type { ChildResult, DeliverOptions, Delivery, RunRequest, SessionContext } from './types'

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
  session.emit({ agentId: target.id, parentAgentId: target.parentId, parentToolUseId: target.parentToolUseId, sessionId: session.sessionId, ts: Date.now(), type: 'message_received', from: opts.from, text, ...(opts.summary ? { summary: opts.summary } : {}) })
  target.inbox.push(text)
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

/** The messages waiting in the inbox, as the opening user message of a run. */
export function inboxPrompt(handle: AgentHandle): ContentBlock[] {
  return handle.inbox.splice(0).map((text) => ({ type: 'text', text }))
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
  if (req.reportTo && !handle.quiet) {
    const { target, forwarded } = liveRecipient(session, req.reportTo, main)
    session.deliver(target, formatTaskNotification(handle, result, forwarded ? req.reportTo : undefined), {
      from: handle.id,
      summary: `${handle.description ?? handle.agentType}: ${result.status}`,
      // A run the person stopped does not restart anyone; the report waits for the recipient's next turn.
      wake: !handle.stoppedByUser
    })
  }
  if (!handle.inbox.length) return
  if (result.notStarted || result.status === 'stopped' || handle.stoppedByUser) return
  session.resumeFromInbox(handle, handle.parentId ?? session.mainAgentId)
}
