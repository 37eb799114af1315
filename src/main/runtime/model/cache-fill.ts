// Filling a shared prefix up to the model's cache minimum. A prefix (tools and system prompt) shorter than the
// model's minimum cacheable length is never cached: sixteen Explore siblings on Haiku (minimum 4,096 tokens,
// prefix ~2,300) each pay their whole prefix at the full price, every request. Adding context that helps them
// (the project's instructions, a listing of the folder: orchestration supplies it as `cacheFill`) until the
// prefix crosses the minimum makes it one cache write (1.25×) and fifteen reads (0.1×). Whether that pays is
// decided by the prices, per fan-out: filled, the prefix costs 1.25·F + 0.1·F·(n−1) for n requests sharing it;
// as it is, n·P. Two siblings rarely gain (the write costs more than they save); three and more usually do.
// The decision depends only on the request and its fill, so every sibling makes the same one and they share
// one prefix, and an agent keeps it for all its turns.
import { CACHE_PRICE, minCacheableTokens } from './prompt-cache-rules'
import { toolsJson } from './tools-json'
import type { ModelRequest } from './types'

/** Tokens of text, as the cache rules count them here (4 characters a token: the scripted server's count too). */
export const estimateTokens = (chars: number): number => chars / 4

/** How far past the minimum a filled prefix aims: token counts are estimates, and a prefix just short is worth nothing. */
const MARGIN = 1.15

/** Tokens of the stable prefix the system breakpoint covers: tools and system prompt. */
export function prefixTokens(request: Pick<ModelRequest, 'tools' | 'system'>): number {
  const system = typeof request.system === 'string' ? request.system : JSON.stringify(request.system ?? '')
  return estimateTokens(toolsJson(request.tools ?? []).length + system.length)
}

export interface FillPlan {
  /** The text to append to the system prompt ('' when filling does not pay or cannot reach the minimum). */
  text: string
  /** Billed input tokens of the prefix over the sharers' requests, as it is and filled (for the choice and tests). */
  cost: { plain: number; filled: number }
}

/** What to add to `request`'s prefix, given its fill and how many requests will share it. */
export function planFill(request: ModelRequest): FillPlan {
  const fill = request.cacheFill
  const plain = prefixTokens(request)
  const none = (filled = Number.POSITIVE_INFINITY): FillPlan => ({ text: '', cost: { plain: plain * (fill?.sharers ?? 1), filled } })
  if (!fill?.text || fill.sharers < 2 || request.promptCaching === false) return none()
  const minimum = minCacheableTokens(request.model)
  if (plain >= minimum) return none()
  const target = minimum * MARGIN
  const text = throughLine(fill.text, Math.ceil((target - plain) * 4) + 2)
  if (plain + estimateTokens(text.length + 2) < target) return none() // not enough that helps: no padding
  const filled = target * CACHE_PRICE.write5m + target * CACHE_PRICE.read * (fill.sharers - 1)
  if (filled >= plain * fill.sharers) return none(filled)
  return { text, cost: { plain: plain * fill.sharers, filled } }
}

/** Per fill: the system prompt it was planned for and the one sent, so every turn sends the very same value. */
const planned = new WeakMap<object, { system: ModelRequest['system']; tools: unknown; sent: ModelRequest['system'] }>()

/** The request as sent: its system prompt with the fill appended when that pays (see planFill). */
export function withCacheFill(request: ModelRequest): ModelRequest {
  const fill = request.cacheFill
  if (!fill) return request
  const { cacheFill: _fill, ...rest } = request
  const hit = planned.get(fill)
  if (hit && hit.system === request.system && hit.tools === request.tools) return { ...rest, system: hit.sent }
  const { text } = planFill(request)
  const system = request.system
  const sent = !text
    ? system
    : system === undefined || typeof system === 'string'
      ? system
        ? `${system}\n\n${text}`
        : text
      : [...system, { type: 'text' as const, text }]
  planned.set(fill, { system, tools: request.tools, sent })
  return { ...rest, system: sent }
}

/** The shortest start of `text` of at least `chars` characters that ends at a line's end (all of it when shorter). */
function throughLine(text: string, chars: number): string {
  const end = text.indexOf('\n', chars)
  return end === -1 ? text : text.slice(0, end)
}
