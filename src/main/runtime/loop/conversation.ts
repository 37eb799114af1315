// Small pure helpers over the conversation: building user content, reminders, and the text a parent receives.
import type { ChatMessage, ContentBlock } from '../../../shared/events'

export function reminderBlock(text: string): ContentBlock {
  return { type: 'text', text: `<system-reminder>\n${text}\n</system-reminder>` }
}

export function inboxBlocks(items: string[]): ContentBlock[] {
  return items.filter((t) => t.trim() !== '').map((text) => ({ type: 'text', text }))
}

export function promptBlocks(prompt: string | ContentBlock[] | undefined): ContentBlock[] {
  if (prompt === undefined) return []
  if (typeof prompt === 'string') return prompt.trim() === '' ? [] : [{ type: 'text', text: prompt }]
  return prompt
}

export function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content
  return content
    .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
}

/** The text of the last assistant message that has any. */
export function lastAssistantText(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]
    if (m.role !== 'assistant') continue
    const text = textOf(m.content).trim()
    if (text) return text
  }
  return ''
}

/**
 * What an interrupted assistant message keeps in the conversation: its text (and signed thinking), and the tool
 * calls that started while it streamed (`started`), whose results follow. Other tool calls are dropped because
 * they were never answered, and unsigned thinking would be rejected on resume.
 */
export function keepablePartial(content: ContentBlock[], started: (id: string) => boolean = () => false): ContentBlock[] {
  return content.filter(
    (b) =>
      (b.type === 'text' && b.text !== '') ||
      (b.type === 'thinking' && !!b.signature) ||
      b.type === 'redacted_thinking' ||
      (b.type === 'tool_use' && started(b.id))
  )
}

export const MAX_TOKENS_NUDGE =
  'Your response was cut off because it hit the output token limit. Continue exactly where you stopped, without repeating anything; ' +
  'if you were in the middle of a tool call, make it again in full.'

/**
 * `opening` as the next user turn: merged into a trailing user message the model has not answered (interrupted
 * results, a failed request's), as the API itself takes two user messages in a row; else a message of its own.
 * A run opened on such a history sends it so, and a rebuild of its transcript (store/rebuild-conversation.ts)
 * makes the same message: what was sent is sent again as it was.
 */
export function withUserTurn(messages: readonly ChatMessage[], opening: ChatMessage['content']): ChatMessage[] {
  const last = messages[messages.length - 1]
  if (last?.role !== 'user') return [...messages, { role: 'user', content: opening }]
  return [...messages.slice(0, -1), { role: 'user', content: [...blocksOf(last.content), ...blocksOf(opening)] }]
}

/** A message's content as blocks: a string is one text block (none when empty). */
export const blocksOf = (content: ChatMessage['content']): ContentBlock[] =>
  typeof content === 'string' ? (content ? [{ type: 'text', text: content }] : []) : content
