// Where a conversation is cut for compaction, and what it becomes. The part kept as it is always begins with an
// assistant message, so every tool_use/tool_result pair lies wholly on one side of the cut: the summarised part
// ends with the user message that answered the calls before it, and the kept part opens with a reply whose
// calls are answered after it. The compacted conversation is one user message with the summary, then the
// kept turns, so roles still alternate.
import { contentBlocks, type ChatMessage } from '../../../shared/events'
import { estimateMessageTokens } from './estimate-tokens'
import { summaryMessage } from './summary-prompt'

export interface Cut {
  /** The messages the summary replaces. */
  summarize: ChatMessage[]
  /** The most recent turns, kept as they are. */
  keep: ChatMessage[]
}

/**
 * Keeps the longest tail of the conversation that starts with an assistant message and fits in `keepTokens`,
 * never the whole conversation (something must be summarised). Nothing is kept when even the last reply
 * with what follows it is too large.
 */
export function cutForCompaction(messages: readonly ChatMessage[], keepTokens: number): Cut {
  let size = 0
  let cut = messages.length
  for (let i = messages.length - 1; i >= 1; i--) {
    size += estimateMessageTokens(messages[i])
    if (size > keepTokens) break
    if (messages[i].role === 'assistant') cut = i
  }
  return { summarize: messages.slice(0, cut), keep: messages.slice(cut) }
}

const LATEST_REQUEST_MAX_CHARS = 20_000
const isReminder = (text: string) => /^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/.test(text)

/**
 * The most recent request in `messages`: the last text a user message brought that is not a reminder, a
 * tool result or a background agent's report (or, when an earlier summary is the latest, the request it quoted).
 */
export function latestRequest(messages: readonly ChatMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]
    if (m.role !== 'user') continue
    const texts = contentBlocks(m).flatMap((b) => (b.type === 'text' ? [b.text] : []))
    for (let j = texts.length - 1; j >= 0; j--) {
      const text = texts[j]
      if (!text.trim() || isReminder(text) || text.trimStart().startsWith('<task-notification>')) continue
      if (text.startsWith('This conversation was compacted:')) {
        const quoted = /<latest-request>\n([\s\S]*?)\n<\/latest-request>/.exec(text)
        if (quoted) return quoted[1]
        continue
      }
      return text.length > LATEST_REQUEST_MAX_CHARS
        ? `${text.slice(0, LATEST_REQUEST_MAX_CHARS)}\n[… ${text.length - LATEST_REQUEST_MAX_CHARS} more characters]`
        : text
    }
  }
  return undefined
}

/** The conversation after a compaction: the summary (with the latest request when it was summarised), then the kept turns. */
export function compactedConversation(summary: string, cut: Cut): ChatMessage[] {
  const keptRequest = latestRequest(cut.keep)
  const request = keptRequest === undefined ? latestRequest(cut.summarize) : undefined
  return [{ role: 'user', content: [{ type: 'text', text: summaryMessage(summary, request) }] }, ...cut.keep]
}
