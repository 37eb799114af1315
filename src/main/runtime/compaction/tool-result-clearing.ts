// Old tool results are what fills a working agent's context, and rarely what it needs again. Once a request
// grows past the clearing trigger, the results of all but the most recent tool calls are replaced by a one-line
// stub, but only when that frees a worthwhile amount (clear_at_least), so the prompt's cached prefix changes
// seldom. Models with the API's context management do it on the API's side (`context_management`, beta
// `context-management-2025-06-27`); for the others, the same rule is applied here, to what is sent only: the
// conversation itself (and its transcript) keeps every result whole.
import type { ChatMessage, ContentBlock } from '../../../shared/events'
import { CLEARED_RESULT_PREFIX } from '../model/request-invariants'
import type { ContextManagement } from '../model/types'
import { CHARS_PER_TOKEN } from './estimate-tokens'

export type ClearingMode = 'api' | 'local' | 'off'

export interface ClearingPolicy {
  mode: ClearingMode
  /** Clearing starts once a request is larger than this (tokens). */
  trigger: number
  /** The most recent tool calls whose results are always kept whole. */
  keep: number
  /** Clear only when at least this many tokens can be freed. */
  clearAtLeast: number
}

/** The request field that asks the API to do it. */
export function apiContextManagement(policy: ClearingPolicy): ContextManagement {
  return {
    edits: [
      {
        type: 'clear_tool_uses_20250919',
        trigger: { type: 'input_tokens', value: policy.trigger },
        keep: { type: 'tool_uses', value: policy.keep },
        clear_at_least: { type: 'input_tokens', value: policy.clearAtLeast }
      }
    ]
  }
}

const SAVED_IN = /whole output is saved in (\S+?)(?:\s|\]|$)/

const resultText = (b: Extract<ContentBlock, { type: 'tool_result' }>) => (typeof b.content === 'string' ? b.content : b.content.map((c) => c.text).join('\n'))

function size(chars: number): string {
  return chars < 1024 ? `${chars} characters` : `${(chars / 1024).toFixed(1)} KB`
}

/** The one line an old result becomes. A result whose whole output went to a file keeps the file's path. */
export function clearedStub(toolName: string | undefined, content: string): string {
  const saved = SAVED_IN.exec(content)?.[1]
  const what = toolName ? `this ${toolName} call` : 'this tool call'
  const again = saved ? `Its whole output is saved in ${saved}.` : 'Call the tool again if you need it.'
  return `${CLEARED_RESULT_PREFIX} to keep the context small: ${what} returned ${size(content.length)}. ${again}]`
}

/** Clearing done here, for a model without the API's context management. One per agent run. */
export class LocalToolResultClearing {
  private readonly cleared = new Set<string>()

  constructor(private readonly policy: ClearingPolicy) {}

  get clearedCount(): number {
    return this.cleared.size
  }

  /** What to send for `messages`, whose next request is about `tokens` large. Unchanged messages are the same objects. */
  view(messages: readonly ChatMessage[], tokens: number): ChatMessage[] {
    if (this.policy.mode !== 'local') return [...messages]
    if (tokens > this.policy.trigger) this.clearMore(messages)
    if (!this.cleared.size) return [...messages]
    return stubResults(messages, this.cleared)
  }

  private clearMore(messages: readonly ChatMessage[]): void {
    const calls = toolCalls(messages)
    const candidates = calls.slice(0, Math.max(0, calls.length - this.policy.keep)).filter((c) => !this.cleared.has(c.id) && c.resultChars > 0)
    // A stub costs about 50 tokens: what a result frees is the rest of it.
    const freed = candidates.reduce((n, c) => n + Math.max(0, Math.ceil(c.resultChars / CHARS_PER_TOKEN) - 50), 0)
    if (!candidates.length || freed < this.policy.clearAtLeast) return
    for (const c of candidates) this.cleared.add(c.id)
  }
}

interface CallInfo {
  id: string
  resultChars: number
}

function toolCalls(messages: readonly ChatMessage[]): CallInfo[] {
  const out: CallInfo[] = []
  const byId = new Map<string, CallInfo>()
  for (const m of messages) {
    if (typeof m.content === 'string') continue
    for (const b of m.content) {
      if (b.type === 'tool_use') {
        const info = { id: b.id, resultChars: 0 }
        byId.set(b.id, info)
        out.push(info)
      } else if (b.type === 'tool_result') {
        const info = byId.get(b.tool_use_id)
        if (info) info.resultChars = resultText(b).length
      }
    }
  }
  return out
}

/** `messages` with the results of `ids` replaced by stubs. */
export function stubResults(messages: readonly ChatMessage[], ids: ReadonlySet<string>): ChatMessage[] {
  const names = new Map<string, string>()
  return messages.map((m) => {
    if (typeof m.content === 'string') return m
    if (m.role === 'assistant') {
      for (const b of m.content) if (b.type === 'tool_use') names.set(b.id, b.name)
      return m
    }
    if (!m.content.some((b) => b.type === 'tool_result' && ids.has(b.tool_use_id))) return m
    const content = m.content.map((b) =>
      b.type === 'tool_result' && ids.has(b.tool_use_id) ? { ...b, content: clearedStub(names.get(b.tool_use_id), resultText(b)) } : b
    )
    return { role: m.role, content }
  })
}

/** `messages` with every tool result but the last `keep` stubbed: to make a too-large conversation fit a summary request. */
export function stubAllBut(messages: readonly ChatMessage[], keep: number): ChatMessage[] {
  const calls = toolCalls(messages)
  return stubResults(messages, new Set(calls.slice(0, Math.max(0, calls.length - keep)).map((c) => c.id)))
}
