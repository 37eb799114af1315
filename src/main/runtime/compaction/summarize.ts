// The model writes the summary of a conversation. The request is the conversation as the agent last sent it
// (same system prompt, same tools, the same old results cleared, no tool_choice) with the summary request after
// it, so the whole conversation is read from the prompt cache: tool_choice is part of the messages' cache key,
// so ruling tools out up front would bill the conversation again. The request asks for no tool calls; a reply
// that makes one anyway is asked again with tool_choice `none`. A conversation too
// large for one request (the API already refused it) is summarised in parts: the oldest part that fits first,
// then that summary with the next part, until the rest fits.
import { type ChatMessage, type ContentBlock } from '../../../shared/events'
import type { Usage } from '../../../shared/usage'
import { textOf } from '../loop/conversation'
import { promptTooLong } from '../model/errors'
import type { ApiToolSpec, ModelClient, SystemBlock } from '../model/types'
import { estimateFixedTokens, estimateMessagesTokens, estimateTextTokens } from './estimate-tokens'
import { summaryMessage, summaryRequest } from './summary-prompt'
import { stubAllBut } from './tool-result-clearing'

export interface SummarizerOptions {
  client: ModelClient
  model: string
  system: string | SystemBlock[]
  tools: ApiToolSpec[]
  window: number
  /** Room for the summary (the request's max_tokens). */
  maxTokens: number
  instructions?: string
  signal?: AbortSignal
  /** The conversation as it is sent (old tool results cleared); default as it is. */
  view?: (messages: ChatMessage[]) => ChatMessage[]
  /** Real tokens per estimated token, learned from the API's refusals (at least 1). */
  calibration: { scale: number }
  /** Each summary call's usage, to be billed to the agent. */
  onUsage(usage: Usage, model: string): void
}

/** Headroom for what the estimate misses. */
const MARGIN_TOKENS = 1_000
/** Tool results left whole when a conversation must be made smaller to fit. */
const KEEP_RESULTS_WHEN_SHRINKING = 3
const MAX_PARTS = 50

export async function writeSummary(messages: ChatMessage[], o: SummarizerOptions): Promise<string> {
  if (!messages.length) throw new Error('there is nothing to summarise')
  let parts = 0
  let rest = o.view ? o.view(messages) : messages
  for (;;) {
    if (++parts > MAX_PARTS) throw new Error(`the conversation did not fit in ${MAX_PARTS} summary requests`)
    const budget = requestBudget(o)
    const size = (m: ChatMessage[]) => Math.ceil(estimateMessagesTokens(m) * o.calibration.scale)
    if (size(rest) > budget) rest = stubAllBut(rest, KEEP_RESULTS_WHEN_SHRINKING)
    if (size(rest) <= budget) {
      const summary = await attempt(rest, o)
      if (summary !== null) return summary
      continue // refused as too long: the calibration learned from it, try again smaller
    }
    // The oldest part that fits, up to (not including) an assistant message, so no tool call is cut from its result.
    let end = 0
    let used = 0
    for (let i = 0; i < rest.length; i++) {
      used += size([rest[i]])
      if (used > budget) break
      if (i + 1 < rest.length && rest[i + 1].role === 'assistant') end = i + 1
    }
    if (end === 0) {
      rest = [shrinkFirst(rest[0], budget, o.calibration.scale), ...rest.slice(1)]
      continue
    }
    const partial = await attempt(rest.slice(0, end), o)
    if (partial === null) continue
    rest = [{ role: 'user', content: [{ type: 'text', text: summaryMessage(partial) }] }, ...rest.slice(end)]
  }
}

function requestBudget(o: SummarizerOptions): number {
  const fixed = estimateFixedTokens(o.system, o.tools) + estimateTextTokens(summaryRequest(o.instructions))
  const budget = Math.floor((o.window - o.maxTokens - MARGIN_TOKENS) / o.calibration.scale) - fixed
  if (budget < 1_000) throw new Error(`the context window of ${o.window.toLocaleString('en-US')} tokens leaves no room for a summary request`)
  return budget
}

/** One message larger than a whole request (a huge first prompt): its text is cut to fit, saying so. */
function shrinkFirst(message: ChatMessage, budget: number, scale: number): ChatMessage {
  const chars = Math.max(1_000, Math.floor((budget / scale) * 4 * 0.8))
  const blocks: ContentBlock[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
  const text = textOf(blocks)
  const cut =
    text.length > chars ? `${text.slice(0, chars)}\n[… ${text.length - chars} more characters not shown: the message was too large to summarise whole]` : text
  return { role: message.role, content: [{ type: 'text', text: cut || '(a message with no text)' }] }
}

/** One summary request; null when the API refused it as too long (the calibration is raised first). */
async function attempt(messages: ChatMessage[], o: SummarizerOptions): Promise<string | null> {
  const request: ChatMessage[] = [...messages, { role: 'user', content: [{ type: 'text', text: summaryRequest(o.instructions) }] }]
  try {
    const ask = async (toolChoice?: 'none') => {
      const response = await o.client.stream(
        {
          model: o.model,
          system: o.system,
          tools: o.tools,
          messages: request,
          maxTokens: o.maxTokens,
          cacheBreakpointAt: messages.length - 1,
          ...(toolChoice ? { toolChoice } : {})
        },
        {},
        o.signal
      )
      o.onUsage(response.usage, response.model)
      return response
    }
    let response = await ask()
    // A reply that called a tool instead: asked again with tool calls ruled out (that request pays for the conversation uncached).
    if (!textOf(response.content).trim() && response.content.some((b) => b.type === 'tool_use')) response = await ask('none')
    const summary = textOf(response.content).trim()
    if (!summary) throw new Error('the model wrote an empty summary')
    return summary
  } catch (err) {
    const tooLong = promptTooLong(err)
    if (!tooLong) throw err
    const estimated = estimateMessagesTokens(request) + estimateFixedTokens(o.system, o.tools)
    const learned = tooLong.tokens ? tooLong.tokens / estimated : o.calibration.scale * 1.25
    // Without a rise the same request would be refused again.
    o.calibration.scale = Math.max(o.calibration.scale * 1.1, learned)
    if (o.calibration.scale > 8) throw err
    return null
  }
}
