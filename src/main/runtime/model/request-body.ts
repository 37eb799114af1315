// ModelRequest -> the Messages API body. Prompt-cache breakpoints go on the system prompt (which covers
// the tools before it) and on the last message (or the one the request names), so each turn re-reads the previous turn's prefix from cache.
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

function withBlockCached(messages: ChatMessage[], at: number): unknown[] {
  return messages.map((m, i) => {
    if (i !== at) return m
    const content = contentBlocks(m)
    if (!content.length) return m
    const last = content[content.length - 1]
    // Thinking blocks cannot carry cache_control; leave such a message as it is.
    if (last.type === 'thinking' || last.type === 'redacted_thinking') return m
    return { role: m.role, content: [...content.slice(0, -1), { ...last, cache_control: EPHEMERAL }] }
  })
}

export function buildRequestBody(request: ModelRequest): MessageCreateParamsStreaming {
  const cache = request.promptCaching !== false
  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: cache ? withBlockCached(request.messages, Math.min(request.cacheBreakpointAt ?? Infinity, request.messages.length - 1)) : request.messages,
    stream: true
  }
  const system = systemBlocks(request.system, cache)
  if (system) body.system = system
  if (request.tools?.length) body.tools = request.tools
  if (request.thinking) body.thinking = request.thinking
  if (request.effort) body.output_config = { effort: request.effort }
  if (request.temperature !== undefined) body.temperature = request.temperature
  if (request.toolChoice && request.tools?.length) body.tool_choice = { type: request.toolChoice }
  if (request.contextManagement) body.context_management = request.contextManagement
  return body as unknown as MessageCreateParamsStreaming
}
