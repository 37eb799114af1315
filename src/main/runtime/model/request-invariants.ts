// What every Messages API request must hold about its tool calls, checked before one is sent: the API
// rejects a conversation that breaks it (a 400 no retry can mend), so a request that does is a bug of ours
// (a crash repaired wrong, an event written twice), and the run fails with what is wrong instead of sending
// it. The same check runs in tests on every request the scripted server receives (requestLogViolations).
import { contentBlocks, type ChatMessage } from '../../../shared/events'

/**
 * What is wrong with this conversation's tool calls, one sentence each; empty when nothing is:
 * every tool_use id is used once, and every tool_use is answered by exactly one tool_result in the next
 * message (a user message), which answers nothing else.
 */
export function conversationViolations(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = []
  const seen = new Set<string>()
  let asked: string[] = [] // the previous assistant message's calls
  messages.forEach((m, i) => {
    const blocks = contentBlocks(m)
    if (m.role === 'assistant') {
      if (asked.length) problems.push(`message ${i}: tool calls ${asked.join(', ')} are not answered before it`)
      asked = []
      for (const b of blocks) {
        if (b.type !== 'tool_use') continue
        if (seen.has(b.id)) problems.push(`message ${i}: tool_use id ${b.id} is used twice`)
        seen.add(b.id)
        asked.push(b.id)
      }
      return
    }
    const answered = new Map<string, number>()
    for (const b of blocks) if (b.type === 'tool_result') answered.set(b.tool_use_id, (answered.get(b.tool_use_id) ?? 0) + 1)
    for (const id of asked) {
      const n = answered.get(id) ?? 0
      if (n !== 1) problems.push(`message ${i}: tool call ${id} is answered ${n} times (once expected)`)
    }
    for (const id of answered.keys()) if (!asked.includes(id)) problems.push(`message ${i}: a tool_result answers ${id}, which the message before did not call`)
    asked = []
  })
  if (asked.length) problems.push(`the conversation ends with tool calls ${asked.join(', ')} unanswered`)
  return problems
}

/** A request the runtime built that the API would reject: the run fails with this instead of sending it. */
export class InvalidConversationError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Fanout built a request the Messages API would reject, so it was not sent (a bug in Fanout; the transcript is kept): ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? `; and ${problems.length - 3} more` : ''}.`
    )
    this.name = 'InvalidConversationError'
  }
}

/** Throws InvalidConversationError when the conversation breaks the rules above. */
export function assertSendable(messages: readonly ChatMessage[]): void {
  const problems = conversationViolations(messages)
  if (problems.length) throw new InvalidConversationError(problems)
}
