// Messages delivered to an agent (`message_received`: a SendMessage, a task notification) and the user
// message that later hands them to the model. Each shows once, parsed (inbox-message.ts), where it was
// delivered: the user message that carries it is recognized by its text and not shown again. A delivery
// that arrives while a reply streams waits for that reply to end, so it never cuts a block in two.
import type { MessageReceivedEvent } from '../events'
import { humanNote, isFanoutNote } from './fanout-note'
import { isEnvelope, parseInbox } from './inbox-message'
import type { SessionDraft } from './session-draft'
import type { AgentState, InboxItem } from './session-state'
import { pushItem } from './transcript-items'

function inboxItem(d: SessionDraft, from: string, text: string, ts: number): Omit<InboxItem, 'key'> {
  const parsed = parseInbox(text, from)
  // Fanout's notes to the model show as a line for the person (fanout-note.ts).
  const message = parsed.type === 'note' ? { ...parsed, text: humanNote(parsed.text) } : parsed
  const sender = message.type === 'agent' && d.hasAgent(from) ? d.peekAgent(from) : undefined
  // The envelope names an unnamed sender by its id: its type reads better.
  const fromName = sender ? (sender.name ?? sender.agentType) : undefined
  return { kind: 'inbox', from, ...(fromName ? { fromName } : {}), message, ts }
}

export function messageReceived(d: SessionDraft, a: AgentState, e: MessageReceivedEvent): void {
  a.unread = [...(a.unread ?? []), e.text]
  const item = inboxItem(d, e.from, e.text, e.ts)
  if (a.streamFrom !== null) a.held = [...(a.held ?? []), item]
  else pushItem(d, a, item)
}

/** The agent's streamed reply ended (settled, replaced by its message, or dropped): deliveries held meanwhile follow it. */
export function endStream(d: SessionDraft, a: AgentState): void {
  a.streamFrom = null
  if (!a.held?.length) return
  const held = a.held
  a.held = undefined
  for (const item of held) pushItem(d, a, item)
}

/** A text block of a user message: shown already if it was delivered; an envelope or a note of Fanout's without a recorded delivery is parsed. */
export function userText(d: SessionDraft, a: AgentState, text: string, ts: number): void {
  const i = a.unread?.indexOf(text) ?? -1
  if (i !== -1) {
    a.unread = a.unread!.filter((_, j) => j !== i)
    return
  }
  if (isEnvelope(text)) pushItem(d, a, inboxItem(d, '', text, ts))
  else if (isFanoutNote(text)) pushItem(d, a, inboxItem(d, 'fanout', text, ts))
  else pushItem(d, a, { kind: 'user', text, ts })
}
