// ModelRequest -> the Messages API body, with prompt-cache breakpoints placed so that what stays the same is
// cached apart from what moves (at most the API's four; see prompt-cache-rules.ts). An agent's first request:
//  - the last tool every agent of the session gets alike (`sharedTools`): agents with different system
//    prompts, such as the main agent and its subagents, read one entry for the tools;
//  - the end of the system prompt (instructions, CLAUDE.md, environment): siblings of one type share it;
//  - the last message: the entry its next turn reads.
// Once the conversation has a reply, the tools' breakpoint (which only other agents' first requests read) gives
// way to two in the conversation:
//  - the end of the previous request: its entry is found however many blocks the last turn added (a turn of
//    16 parallel tool calls adds 32, past the API's 20-block lookback);
//  - the latest reply: forks started by that turn carry the same conversation up to it, and read it there.
// A request that names its conversation's end (`cacheBreakpointAt`, a compaction's summary request) has these
// placed as if it ended there: what it adds after is sent once and never worth writing to the cache.
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

/** The latest assistant reply before the last message, -1 for none. */
export function latestReply(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 2; i >= 0; i--) if (messages[i].role === 'assistant') return i
  return -1
}

/** The message the previous request ended with: the one before the latest assistant reply. */
export function previousTail(messages: readonly ChatMessage[]): number {
  const reply = latestReply(messages)
  return reply > 0 ? reply - 1 : -1
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
  const end = Math.min(request.cacheBreakpointAt ?? Infinity, request.messages.length - 1)
  const conversation = request.messages.slice(0, end + 1)
  const reply = latestReply(conversation)
  const tail = new Set([previousTail(conversation), reply, end].filter((i) => i >= 0))
  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: cache ? withBlocksCached(request.messages, tail) : request.messages,
    stream: true
  }
  const system = systemBlocks(request.system, cache)
  if (system) body.system = system
  if (request.tools?.length) {
    const shared = reply === -1 ? Math.min(request.sharedTools ?? 0, request.tools.length) : 0
    body.tools = cache && shared > 0 ? request.tools.map((t, i) => (i === shared - 1 ? { ...t, cache_control: EPHEMERAL } : t)) : request.tools
  }
  if (request.thinking) body.thinking = request.thinking
  if (request.effort) body.output_config = { effort: request.effort }
  if (request.temperature !== undefined) body.temperature = request.temperature
  if (request.toolChoice && request.tools?.length) body.tool_choice = { type: request.toolChoice }
  if (request.contextManagement) body.context_management = request.contextManagement
  return body as unknown as MessageCreateParamsStreaming
}
