// ModelRequest -> the Messages API body, with prompt-cache breakpoints placed so that what stays the same is
// cached apart from what moves (at most the API's four; see prompt-cache-rules.ts):
//  1. the last tool every agent of the session gets alike (`sharedTools`): agents with different system
//     prompts, such as the main agent and its subagents, read one entry for the tools;
//  2. the end of the system prompt (instructions, CLAUDE.md, environment): siblings of one type share it;
//  3. the end of the previous request's conversation: its entry is found however many blocks the last turn
//     added (a turn of 16 parallel tool calls adds 32, past the API's 20-block lookback);
//  4. the last message: the entry the next turn reads.
// The breakpoints are added to copies: the conversation itself never carries cache_control.
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages'
import { contentBlocks, type ChatMessage } from '../../../shared/events'
import type { ModelRequest } from './types'

export const DEFAULT_MAX_TOKENS = 32_000

const EPHEMERAL = { type: 'ephemeral' as const }

function systemBlocks(system: ModelRequest['system'], cache: boolean): MessageCreateParamsStreaming['system'] {
  if (system === undefined) return undefined
  const blocks = typeof system === 'string' ? (system ? [{ type: 'text' as const, text: system }] : []) : system.filter((b) => b.text)
  if (!blocks.length) return undefined
  return blocks.map((b, i) => (cache && i === blocks.length - 1 ? { ...b, cache_control: EPHEMERAL } : { ...b }))
}

/** The message the previous request ended with: the one before the latest assistant reply. */
export function previousTail(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 2; i > 0; i--) if (messages[i].role === 'assistant') return i - 1
  return -1
}

function withBlocksCached(messages: ChatMessage[], at: ReadonlySet<number>): unknown[] {
  return messages.map((m, i) => {
    if (!at.has(i)) return m
    const content = contentBlocks(m)
    // The last block that can carry a breakpoint: thinking blocks cannot.
    let j = content.length - 1
    while (j >= 0 && (content[j].type === 'thinking' || content[j].type === 'redacted_thinking')) j--
    if (j < 0) return m
    return { role: m.role, content: content.map((b, k) => (k === j ? { ...b, cache_control: EPHEMERAL } : b)) }
  })
}

export function buildRequestBody(request: ModelRequest): MessageCreateParamsStreaming {
  const cache = request.promptCaching !== false
  const tail = new Set([previousTail(request.messages), request.messages.length - 1].filter((i) => i >= 0))
  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: cache ? withBlocksCached(request.messages, tail) : request.messages,
    stream: true
  }
  const system = systemBlocks(request.system, cache)
  if (system) body.system = system
  if (request.tools?.length) {
    const shared = Math.min(request.sharedTools ?? 0, request.tools.length)
    body.tools = cache && shared > 0 ? request.tools.map((t, i) => (i === shared - 1 ? { ...t, cache_control: EPHEMERAL } : t)) : request.tools
  }
  if (request.thinking) body.thinking = request.thinking
  if (request.effort) body.output_config = { effort: request.effort }
  if (request.temperature !== undefined) body.temperature = request.temperature
  return body as unknown as MessageCreateParamsStreaming
}
