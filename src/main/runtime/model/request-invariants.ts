// What every Messages API request must hold about its tool calls, checked before one is sent: the API
// rejects a conversation that breaks it (a 400 no retry can mend), so a request that does is a bug of ours
// (a crash repaired wrong, an event written twice), and the run fails with what is wrong instead of sending
// it. The same check runs in tests on every request the scripted server receives (requestLogViolations).
// Across an agent's requests the history is append-only: what it sent once and the model answered is sent
// again as it was (SentHistory), until a compaction replaces the conversation.
import { contentBlocks, type ChatMessage } from '../../../shared/events'
import { redactValue } from '../../../shared/redact'

/** How an old tool result cleared to save room begins (compaction/tool-result-clearing.ts writes it). */
export const CLEARED_RESULT_PREFIX = '[Old tool result cleared'

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

const cleared = (block: unknown) => JSON.stringify((block as { content?: unknown }).content ?? '').includes(CLEARED_RESULT_PREFIX)

/**
 * Whether `later` says what `earlier` said: the same message, or the same but for tool results cleared to save
 * room on either side (clearing is the client's editing of its context, decided afresh by each run, not a
 * change of what the model said). Compared by identity first: an unchanged message is the same object.
 */
function sameMessage(earlier: ChatMessage, later: ChatMessage): boolean {
  if (earlier === later) return true
  if (earlier.role !== later.role) return false
  const a = contentBlocks(earlier)
  const b = contentBlocks(later)
  if (a.length !== b.length) return false
  return a.every((x, i) => {
    const y = b[i]
    if (x === y) return true
    if (x.type === 'tool_result' && y.type === 'tool_result' && x.tool_use_id === y.tool_use_id && (cleared(x) || cleared(y))) return true
    if (JSON.stringify(x) === JSON.stringify(y)) return true
    // What the session records of a message is redacted (credentials never reach transcripts, so neither the
    // conversation a later run is built from): the same message with a secret made [REDACTED] is no rewrite.
    return JSON.stringify(redactValue(x)) === JSON.stringify(redactValue(y))
  })
}

/**
 * What a request rewrites of the history its agent's previous request sent, one sentence each (empty: it only
 * extends it). The previous request's last message is spared: the model had not answered it yet, so a new
 * turn may be merged into it (a prompt after a failed request), or a kill may have taken it before it was
 * written. Cache breakpoints are not part of a message: pass messages without them.
 */
export function historyRewrites(before: readonly ChatMessage[], after: readonly ChatMessage[]): string[] {
  const answered = before.length - 1
  if (after.length < answered) return [`it sends ${after.length} messages, its previous request had ${answered} already answered`]
  for (let i = 0; i < answered; i++)
    if (!sameMessage(before[i], after[i])) return [`message ${i} differs from what its previous request sent (history rewritten)`]
  return []
}

/** A request that would rewrite history its agent already sent: the run fails with this instead of sending it. */
export class HistoryRewriteError extends InvalidConversationError {
  constructor(problems: string[]) {
    super(problems)
    this.message = `Fanout built a request that rewrites what this agent already sent the model, so it was not sent (a bug in Fanout; the transcript is kept): ${problems.join('; ')}.`
    this.name = 'HistoryRewriteError'
  }
}

/**
 * One agent's history as last sent, across its runs in this process: each request must extend it
 * (historyRewrites), except right after a compaction, which starts the conversation over.
 */
export class SentHistory {
  private last: ChatMessage[] | null

  /** `sent`: what was sent before this process (a restored agent's recorded conversation), if known. */
  constructor(sent?: readonly ChatMessage[]) {
    this.last = sent?.length ? sent.slice() : null
  }

  /** Throws HistoryRewriteError when `messages` rewrites what was sent; else records them as sent. */
  check(messages: readonly ChatMessage[]): void {
    const problems = this.last ? historyRewrites(this.last, messages) : []
    if (problems.length) throw new HistoryRewriteError(problems)
    this.last = messages.slice()
  }

  /** A compaction replaced the conversation: the next request starts a new history. */
  compacted(): void {
    this.last = null
  }
}
