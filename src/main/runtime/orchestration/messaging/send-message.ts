// SendMessage: one agent (or the person) writes to another, by id or name. A running agent reads the
// message at its next turn; a finished or stopped one is resumed with it. The person (session.sendMessage) may
// also write to one this process does not know (not started yet): it waits in its durable mailbox, read when
// it starts; the SendMessage tool refuses such a name instead, naming the agents there are. Every message is
// delivered exactly once.
import { z } from 'zod'
import { assertSafeId, claimMessages, postMessage } from '../../store'
import { isSafeId } from '../../store/data-dir'
import { defineTool, type Tool, toolInput } from '../../tools/define-tool'
import type { AgentHandle } from '../runs/agent-registry'
import { formatAgentMessage, SEND_MESSAGE_TOOL_NAME, sendDeliveryId } from './agent-message'
import type { Delivery, SessionContext } from '../types'
import { errorMessage } from '../../../../shared/error-message'

export { SEND_MESSAGE_TOOL_NAME, sendDeliveryId }

export interface SendOutcome {
  delivery: Delivery
  /** The agent it went to; null for a mailbox addressed by a name no agent has yet. */
  agentId: string | null
}

/**
 * Delivers one message. `from` is an agent id or `user`. Throws a clear error when it cannot be delivered at
 * all. Resolves once the delivery is on disk (a crash after that delivers it after the restart, once);
 * `deliveryId` names it (the SendMessage call's id), so the same message is never delivered twice.
 * `mailbox: false` (the SendMessage tool) refuses a name no agent has, naming those it could write to, instead of
 * keeping the message for an agent of that name that may never start.
 */
/** What messaging needs from its session: the agents (live or on disk), delivery, and its records. */
export type MessagingHost = Pick<SessionContext, 'sessionId' | 'dataDir' | 'mainAgentId' | 'registry' | 'delivery' | 'files' | 'findAgent' | 'main' | 'onError'>

export async function sendMessage(
  session: MessagingHost,
  to: string,
  message: string,
  from: string,
  summary?: string,
  opts: { mailbox?: boolean; deliveryId?: string } = {}
): Promise<SendOutcome> {
  const { deliveryId } = opts
  if (!to.trim()) throw new Error('SendMessage needs a recipient: an agent id or name.')
  if (!message.trim()) throw new Error('SendMessage needs a message; it was empty.')
  const sender = from === 'user' ? undefined : session.registry.get(from)
  const label = sender ? (sender.name ?? sender.id) : from
  const target = to === session.mainAgentId || to === 'main' ? session.main.getHandle() : (session.registry.find(to) ?? (await session.findAgent(to)))
  if (target) {
    if (target.id === from) throw new Error('An agent cannot send a message to itself.')
    const text = formatAgentMessage(label, message, summary)
    // An explicit message may restart an agent the person stopped; only automatic resumes skip those.
    if (!target.run) target.stoppedByUser = false
    const delivery = session.delivery.deliver(target, text, {
      from: sender ? sender.id : from,
      ...(summary ? { summary } : {}),
      reportTo: sender ? sender.id : null,
      ...(deliveryId ? { deliveryId } : {})
    })
    await session.files.durable(target.id)
    return { delivery, agentId: target.id }
  }
  if (opts.mailbox === false) throw new Error(`There is no agent '${to}' in this session, so the message was not sent. ${knownAgents(session, from)}`)
  if (!session.dataDir) throw new Error(`There is no agent '${to}' in this session. Use an agent id or a name given with the Agent tool's name parameter.`)
  try {
    assertSafeId(to, 'agent id or name')
  } catch {
    throw new Error(`There is no agent '${to}' in this session, and '${to}' cannot name a mailbox (use letters, digits, '.', '_' and '-').`)
  }
  await postMessage(session.dataDir, session.sessionId, to, { from: label, text: message, ...(summary ? { summary } : {}) })
  return { delivery: 'mailbox', agentId: null }
}

/** Who an agent can write to, for a refusal it can act on. */
function knownAgents(session: MessagingHost, from: string): string {
  const others = session.registry.all().filter((h) => h.id !== from)
  if (!others.length) return "Use 'main' for the main agent."
  const names = others
    .slice(0, 20)
    .map((h) => (h.id === session.mainAgentId ? "'main' (the main agent)" : h.name ? `'${h.name}' (${h.agentType}, ${h.id})` : `'${h.id}' (${h.agentType})`))
  return `Agents you can message: ${names.join(', ')}${others.length > 20 ? `, and ${others.length - 20} more` : ''}. Start a new agent with the Agent tool (its name parameter names it).`
}

/** Moves the messages waiting in the agent's durable mailboxes (its id's, and its name's when it has one) into its inbox. */
export async function claimMailbox(session: MessagingHost, handle: AgentHandle): Promise<void> {
  if (!session.dataDir) return
  const boxes = [handle.id, ...(handle.name && handle.name !== handle.id && isSafeId(handle.name) ? [handle.name] : [])]
  for (const box of boxes) {
    try {
      await claimMessages(session.dataDir, session.sessionId, box, {
        onProblem: (p) => session.onError(new Error(p)),
        // Delivered and on disk first, claimed after: a crash in between delivers them again, by the same ids.
        beforeClaim: async (messages) => {
          for (const m of messages)
            session.delivery.deliver(handle, formatAgentMessage(m.from, m.text, m.summary), {
              from: m.from,
              ...(m.summary ? { summary: m.summary } : {}),
              wake: false,
              deliveryId: `mail-${m.id}`
            })
          await session.files.durable(handle.id)
        }
      })
    } catch (err) {
      session.onError(new Error(`Could not read the mailbox of agent ${handle.id}: ${errorMessage(err)}`))
    }
  }
}

const sendMessageInput = toolInput('SendMessage', () =>
  z
    .object({
      to: z.string().trim().min(1, 'name the recipient: an agent id or name').describe("The recipient: an agent's id, or the name it was started with"),
      message: z.string().trim().min(1, 'the message is empty').describe('What to tell the agent'),
      summary: z.string().trim().min(1).max(200).optional().describe('A few words saying what the message is about (shown in the UI)')
    })
    .strict()
)

const CONFIRMATION: Record<Delivery, (to: string) => string> = {
  inbox: (to) => `Message sent to ${to}; it will read it at the start of its next turn.`,
  resumed: (to) => `${to} was not running, so it was resumed with your message. Its report will reach you as a <task-notification>.`,
  woke: (to) => `Message sent to ${to}, which will now answer it.`,
  held: (to) => `Message sent to ${to}; it is stopped and will read it when it is resumed.`,
  mailbox: (to) => `No agent '${to}' is running in this session. The message was saved to its mailbox and will be delivered when it starts or resumes.`
}

export function createSendMessageTool(session: MessagingHost, caller: AgentHandle): Tool {
  return defineTool({
    name: SEND_MESSAGE_TOOL_NAME,
    description: `Send a message to another agent of this session, by its id or name (e.g. a subagent you started, or 'main'). A running agent reads it at its next turn; an agent that has finished is resumed with it, and its report comes back to you as a <task-notification>.`,
    schema: sendMessageInput,
    readOnly: false,
    // Messages to different agents are independent; several in one turn go out together.
    concurrencySafe: true,
    async execute(input, ctx) {
      try {
        // Named by this call: after a crash, its delivery is known to have happened (or not) by that name.
        const out = await sendMessage(session, input.to, input.message, caller.id, input.summary, { mailbox: false, deliveryId: sendDeliveryId(ctx.toolUseId) })
        const shown = out.agentId ? (session.registry.get(out.agentId)?.name ?? out.agentId) : input.to
        return { content: CONFIRMATION[out.delivery](shown), details: { to: input.to, ...out } }
      } catch (err) {
        return { content: errorMessage(err), isError: true }
      }
    }
  })
}
