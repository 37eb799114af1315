// Token counts without a tokenizer: about four characters of the JSON the API receives make a token, which is
// what the scripted server counts too; an image costs a fixed amount whatever its bytes. Used only between two
// responses (each response reports the true size of the request it answered) and before the first one.
import type { ChatMessage, ContentBlock } from '../../../shared/events'
import { toolsJson } from '../model/tools-json'

export const CHARS_PER_TOKEN = 4
/** What an image of common size costs (about 1,600 tokens for a 1,200 × 1,200 picture). */
export const IMAGE_TOKENS = 1_600
/** Per message: its role and the framing around it. */
const MESSAGE_OVERHEAD = 4

export const estimateTextTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN)

export function estimateBlockTokens(block: ContentBlock): number {
  if (block.type === 'image') return IMAGE_TOKENS
  return estimateTextTokens(JSON.stringify(block))
}

export function estimateMessageTokens(message: ChatMessage): number {
  if (typeof message.content === 'string') return MESSAGE_OVERHEAD + estimateTextTokens(JSON.stringify(message.content))
  let n = MESSAGE_OVERHEAD
  for (const b of message.content) n += estimateBlockTokens(b)
  return n
}

export function estimateMessagesTokens(messages: readonly ChatMessage[]): number {
  let n = 0
  for (const m of messages) n += estimateMessageTokens(m)
  return n
}

/** The part of every request that is not the conversation: the system prompt and the tool definitions. */
export function estimateFixedTokens(system: unknown, tools: unknown): number {
  return estimateTextTokens(JSON.stringify(system ?? '')) + estimateTextTokens(Array.isArray(tools) ? toolsJson(tools) : JSON.stringify(tools ?? []))
}
