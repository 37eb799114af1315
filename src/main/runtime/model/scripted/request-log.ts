// The one check every crash and fault test runs on what the model was sent: each request the scripted server
// received keeps the rules of the Messages API for tool calls (see request-invariants.ts), and an agent's
// request never rewrites what its previous request said and the model answered (history is append-only: a
// compaction starts a new conversation, and old tool results cleared to save room are the one change allowed).
import type { ChatMessage } from '../../../../shared/events'
import { conversationViolations } from '../request-invariants'
import type { ParsedRequest } from './types'

const CLEARED = '[Old tool result cleared'

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

/** Whether `later` says what `earlier` said: the same, or a tool result of it cleared since. */
function sameMessage(earlier: unknown, later: unknown): boolean {
  const a = JSON.stringify(earlier)
  const b = JSON.stringify(later)
  if (a === b || !b.includes(CLEARED)) return a === b
  const ea = (earlier as ChatMessage).content
  const eb = (later as ChatMessage).content
  if (!Array.isArray(ea) || !Array.isArray(eb) || ea.length !== eb.length) return false
  return ea.every((x, i) => {
    const y = eb[i]
    if (x.type === 'tool_result' && y.type === 'tool_result' && x.tool_use_id === y.tool_use_id && JSON.stringify(y.content).includes(CLEARED)) return true
    return JSON.stringify(x) === JSON.stringify(y)
  })
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
    // What the model had answered: all but the previous request's last message. That one may be gone when a
    // kill came before it was written (its reply never recorded either): sent again, or another in its place.
    const answered = before.length - 1
    const shared = Math.min(answered, messages.length)
    if (messages.length < answered)
      problems.push(`request ${n}: sends ${messages.length} messages, its agent's previous request had ${answered} already answered`)
    for (let i = 0; i < shared; i++)
      if (!sameMessage(before[i], messages[i])) {
        problems.push(`request ${n}: message ${i} differs from what its agent's previous request sent (history rewritten)`)
        break
      }
  })
  return problems
}
