// Everything the scripted server counts, in one place: the size of a request (about four characters of its
// JSON a token: system prompt, tools and messages, as the model reads them after any context edits), the
// context window it enforces with the API's own 400, the API's clearing of old tool results
// (`context_management`, clear_tool_uses_20250919), and the `usage` block of each response, split as the
// simulated prompt cache (prompt-cache.ts) served the input, so that usage is still reported from one place.
import { CONTEXT_MANAGEMENT_BETA } from '../types'
import type { MessageReply, ParsedRequest } from './types'

/** A rough token count (4 characters a token), so usage, limits and cost have plausible magnitudes. */
export const estimateTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4))

/** What the model reads of a request, in tokens. */
export function requestTokens(body: { system?: unknown; tools?: unknown; messages?: unknown }): number {
  return estimateTokens(JSON.stringify(body.system ?? '') + JSON.stringify(body.tools ?? []) + JSON.stringify(body.messages ?? []))
}

/** The API's answer to a request larger than the window (its wording, as `invalid_request_error`). */
export const promptTooLongMessage = (tokens: number, window: number): string => `prompt is too long: ${tokens} tokens > ${window} maximum`

/** What the API put where it cleared a tool result. */
export const CLEARED_RESULT_TEXT = '[Tool result cleared by the API to save context]'

export interface AppliedEdits {
  clearedToolUses: number
  clearedInputTokens: number
}

/**
 * Applies `context_management` to a parsed body, as the API does before the model reads it: past the
 * trigger, the results of all but the last `keep` tool uses are replaced by a placeholder, when that clears
 * at least `clear_at_least` tokens. Returns the edit made (null: none), or the 400 message for a body the API
 * would refuse (the field without its beta header, an edit it does not know).
 */
export function applyContextManagement(body: any, headers: ParsedRequest['headers']): { edits: AppliedEdits | null } | { error: string } {
  const cm = body?.context_management
  if (cm === undefined) return { edits: null }
  const betas = String(headers['anthropic-beta'] ?? '')
    .split(',')
    .map((b) => b.trim())
  if (!betas.includes(CONTEXT_MANAGEMENT_BETA)) return { error: 'context_management: Extra inputs are not permitted' }
  const edits: any[] = Array.isArray(cm?.edits) ? cm.edits : []
  let applied = null as AppliedEdits | null
  for (const edit of edits) {
    if (edit?.type === 'clear_thinking_20251015') {
      clearThinking(body, edit.keep)
      continue
    }
    if (edit?.type !== 'clear_tool_uses_20250919') return { error: `context_management.edits: unknown edit type '${String(edit?.type)}'` }
    const trigger = edit.trigger?.value ?? 100_000
    const keep = edit.keep?.value ?? 3
    const atLeast = edit.clear_at_least?.value ?? 0
    if (requestTokens(body) <= trigger) continue
    const results: any[] = []
    for (const m of Array.isArray(body.messages) ? body.messages : [])
      if (Array.isArray(m.content)) for (const b of m.content) if (b?.type === 'tool_result' && b.content !== CLEARED_RESULT_TEXT) results.push(b)
    const clear = results.slice(0, Math.max(0, results.length - keep))
    const freed = clear.reduce((n, b) => n + estimateTokens(JSON.stringify(b.content)) - estimateTokens(JSON.stringify(CLEARED_RESULT_TEXT)), 0)
    if (!clear.length || freed < atLeast) continue
    for (const b of clear) b.content = CLEARED_RESULT_TEXT
    applied = { clearedToolUses: (applied?.clearedToolUses ?? 0) + clear.length, clearedInputTokens: (applied?.clearedInputTokens ?? 0) + freed }
  }
  return { edits: applied }
}

/** clear_thinking_20251015: thinking blocks of all but the last `keep` assistant turns go (default: all but the last; "all" keeps every one). */
function clearThinking(body: any, keep: unknown): void {
  if (keep === 'all') return
  const n = typeof (keep as { value?: unknown })?.value === 'number' ? (keep as { value: number }).value : 1
  const turns: any[] = (Array.isArray(body.messages) ? body.messages : []).filter((m: any) => m.role === 'assistant' && Array.isArray(m.content))
  for (const m of turns.slice(0, Math.max(0, turns.length - n)))
    m.content = m.content.filter((b: any) => b?.type !== 'thinking' && b?.type !== 'redacted_thinking')
}

/**
 * The `usage` block of a response to `req`, a reply's overrides first: its input as the simulated prompt cache
 * split it (uncached, read, written per lifetime) when there is one, else all of it uncached as counted; its
 * output by size.
 */
export function usageOf(reply: MessageReply, req: ParsedRequest) {
  const outputChars = reply.content.reduce((n, b) => n + JSON.stringify(b).length, 0)
  // A reply that states its input tokens states the whole usage: the simulated cache adds nothing to it.
  const cache = reply.usage?.input_tokens !== undefined ? undefined : req.cache
  const written = cache ? cache.write5m + cache.write1h : 0
  return {
    input_tokens: reply.usage?.input_tokens ?? cache?.uncached ?? req.inputTokens,
    output_tokens: reply.usage?.output_tokens ?? (outputChars ? Math.max(1, Math.ceil(outputChars / 4)) : 0),
    cache_read_input_tokens: reply.usage?.cache_read_input_tokens ?? cache?.read ?? 0,
    cache_creation_input_tokens: reply.usage?.cache_creation_input_tokens ?? written,
    // The split of the writes by lifetime, as the API reports it.
    cache_creation:
      reply.usage?.cache_creation_input_tokens !== undefined
        ? { ephemeral_5m_input_tokens: reply.usage.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 }
        : { ephemeral_5m_input_tokens: cache?.write5m ?? 0, ephemeral_1h_input_tokens: cache?.write1h ?? 0 }
  }
}
