// The one check every crash and fault test runs on what the model was sent: each request the scripted server
// received keeps the rules of the Messages API for tool calls (see request-invariants.ts), and an agent's
// request never rewrites what its previous request said and the model answered (history is append-only: a
// compaction starts a new conversation, and old tool results cleared to save room are the one change allowed).
import type { ChatMessage } from '../../../../shared/events'
import { conversationViolations, historyRewrites } from '../request-invariants'
import type { ParsedRequest } from './types'

/** The message without what the request adds on the wire only (cache breakpoints). */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain)
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) if (k !== 'cache_control') out[k] = plain(v)
    return out
  }
  return value
}

/**
 * What is wrong with the requests a scripted server received, one sentence each (empty: nothing): a tool_use
 * id used twice, a call not answered exactly once in the next message, or an agent's request that rewrote the
 * history its previous request sent. Requests are told apart by agent through their system prompt and first
 * message (a compaction's summary request is not part of the conversation and is skipped for the prefix).
 */
export function requestLogViolations(requests: readonly ParsedRequest[]): string[] {
  const problems: string[] = []
  const last = new Map<string, unknown[]>()
  requests.forEach((r, n) => {
    if (r.path !== '/v1/messages' || !Array.isArray(r.messages)) return
    for (const p of conversationViolations(r.messages as ChatMessage[])) problems.push(`request ${n}: ${p}`)
    if (r.isSummaryRequest || !r.messages.length) return
    const messages = r.messages.map(plain)
    const key = `${r.system}\u0000${JSON.stringify(messages[0])}`
    const before = last.get(key)
    last.set(key, messages)
    if (!before) return
    for (const p of historyRewrites(before as ChatMessage[], messages as ChatMessage[])) problems.push(`request ${n}: ${p}`)
  })
  return problems
}
