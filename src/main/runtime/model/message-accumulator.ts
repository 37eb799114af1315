// Builds one assistant message from the raw SSE events of the Messages API, reporting deltas as they
// arrive. Tool input arrives as JSON fragments split anywhere (even mid-token); it is parsed once the
// block stops, and a parse failure is recorded per tool_use id instead of throwing, so the loop can
// answer the model with an error it can act on.
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import type { ContentBlock } from '../../../shared/events'
import type { TokenCounts } from './pricing'
import type { StreamHandlers, ToolUseReady } from './types'
import { errorMessage } from '../../../shared/error-message'
import { StreamMalformedError } from './errors'

type Building =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; json: string; input?: unknown }

/** The token counts of an API `usage` object (a message's, or a stream's message_start); absent fields count 0. */
export function tokenCountsOf(usage: unknown): TokenCounts {
  const u = usage as any
  return {
    inputTokens: u?.input_tokens ?? 0,
    outputTokens: u?.output_tokens ?? 0,
    cacheReadTokens: u?.cache_read_input_tokens ?? 0,
    cacheWriteTokens: u?.cache_creation_input_tokens ?? 0,
    cacheWrite1hTokens: u?.cache_creation?.ephemeral_1h_input_tokens ?? 0
  }
}

export class MessageAccumulator {
  private blocks: Array<Building | undefined> = []
  readonly inputErrors: Record<string, string> = {}
  tokens: TokenCounts = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0 }
  stopReason: string | null = null
  /** What the API's context management cleared from the request (message_delta's context_management). */
  clearedToolUses: { toolUses: number; inputTokens: number } | undefined
  started = false
  stopped = false
  /** Blocks started and not yet stopped, and every block started: the protocol's order is checked against them. */
  private open = new Set<number>()
  private begun = new Set<number>()
  /** The tool calls whose input arrived whole so far (StreamHandlers.onToolUse). */
  private ready: ToolUseReady[] = []

  constructor(private readonly handlers: StreamHandlers = {}) {}

  add(event: RawMessageStreamEvent): void {
    this.checkOrder(event)
    switch (event.type) {
      case 'message_start': {
        this.started = true
        this.tokens = tokenCountsOf(event.message.usage)
        break
      }
      case 'content_block_start':
        this.startBlock(event.index, event.content_block as any)
        break
      case 'content_block_delta':
        this.delta(event.index, event.delta as any)
        break
      case 'content_block_stop':
        this.stopBlock(event.index)
        break
      case 'message_delta': {
        this.stopReason = event.delta.stop_reason ?? this.stopReason
        // message_delta usage is cumulative; fields it leaves null keep message_start's value.
        const u = event.usage as any
        if (u) {
          if (u.output_tokens != null) this.tokens.outputTokens = u.output_tokens
          if (u.input_tokens != null) this.tokens.inputTokens = u.input_tokens
          if (u.cache_read_input_tokens != null) this.tokens.cacheReadTokens = u.cache_read_input_tokens
          if (u.cache_creation_input_tokens != null) this.tokens.cacheWriteTokens = u.cache_creation_input_tokens
          if (u.cache_creation?.ephemeral_1h_input_tokens != null) this.tokens.cacheWrite1hTokens = u.cache_creation.ephemeral_1h_input_tokens
        }
        this.noteContextEdits((event as any).context_management)
        break
      }
      case 'message_stop':
        this.stopped = true
        break
    }
  }

  /** Throws StreamMalformedError for an event the protocol does not allow where it came. */
  private checkOrder(event: RawMessageStreamEvent): void {
    const bad = (why: string) => {
      throw new StreamMalformedError(why)
    }
    if (this.stopped) bad(`${event.type} after message_stop`)
    if (event.type === 'message_start') {
      if (this.started) bad('a second message_start')
      return
    }
    if (!this.started) bad(`${event.type} before message_start`)
    if (event.type === 'content_block_start') {
      if (this.begun.has(event.index)) bad(`content block ${event.index} started twice`)
      this.begun.add(event.index)
      this.open.add(event.index)
    } else if (event.type === 'content_block_delta' || event.type === 'content_block_stop') {
      if (!this.open.has(event.index)) bad(`${event.type} for content block ${event.index}, which is not open`)
      if (event.type === 'content_block_stop') this.open.delete(event.index)
    } else if (event.type === 'message_stop' && this.open.size) bad(`message_stop with content block ${[...this.open][0]} still open`)
  }

  private noteContextEdits(cm: any): void {
    const edits: any[] = Array.isArray(cm?.applied_edits) ? cm.applied_edits : []
    const cleared = edits.filter((e) => e?.type === 'clear_tool_uses_20250919')
    if (!cleared.length) return
    this.clearedToolUses = {
      toolUses: cleared.reduce((n, e) => n + (Number(e.cleared_tool_uses) || 0), 0),
      inputTokens: cleared.reduce((n, e) => n + (Number(e.cleared_input_tokens) || 0), 0)
    }
  }

  private startBlock(index: number, block: any): void {
    switch (block.type) {
      case 'text':
        this.blocks[index] = { type: 'text', text: block.text ?? '' }
        if (block.text) this.handlers.onText?.(block.text)
        break
      case 'thinking':
        this.blocks[index] = { type: 'thinking', thinking: block.thinking ?? '', signature: block.signature ?? '' }
        if (block.thinking) this.handlers.onThinking?.(block.thinking)
        break
      case 'redacted_thinking':
        this.blocks[index] = { type: 'redacted_thinking', data: block.data ?? '' }
        break
      case 'tool_use':
      case 'server_tool_use': {
        // Some servers put the whole input in the start block and send no deltas.
        const preset = block.input && Object.keys(block.input).length ? JSON.stringify(block.input) : ''
        this.blocks[index] = { type: 'tool_use', id: block.id, name: block.name, json: preset }
        this.handlers.onToolStart?.(block.id, block.name)
        if (preset) this.handlers.onToolInputDelta?.(block.id, preset)
        break
      }
      default:
        // Block types this runtime does not use (citations, server tool results) are dropped.
        this.blocks[index] = undefined
    }
  }

  private delta(index: number, delta: any): void {
    const block = this.blocks[index]
    if (!block) return
    if (delta.type === 'text_delta' && block.type === 'text') {
      block.text += delta.text
      this.handlers.onText?.(delta.text)
    } else if (delta.type === 'thinking_delta' && block.type === 'thinking') {
      block.thinking += delta.thinking
      this.handlers.onThinking?.(delta.thinking)
    } else if (delta.type === 'signature_delta' && block.type === 'thinking') {
      block.signature += delta.signature
    } else if (delta.type === 'input_json_delta' && block.type === 'tool_use') {
      block.json += delta.partial_json
      if (delta.partial_json) this.handlers.onToolInputDelta?.(block.id, delta.partial_json)
    }
  }

  private stopBlock(index: number): void {
    const block = this.blocks[index]
    if (block?.type !== 'tool_use') return
    block.input = parseToolInput(block.json, (err) => (this.inputErrors[block.id] = err))
    if (!this.handlers.onToolUse || this.inputErrors[block.id] !== undefined) return
    const ready = { id: block.id, name: block.name, input: block.input }
    this.ready.push(ready)
    this.handlers.onToolUse(ready, this.ready, () => this.content())
  }

  /**
   * The tool call max_tokens cut off: the reply stopped for max_tokens while its last block was a tool_use, so
   * that call's input is incomplete (even when what arrived happens to parse) and it must not run.
   */
  cutToolUse(): { id: string; name: string } | undefined {
    if (this.stopReason !== 'max_tokens') return undefined
    const last = this.blocks.findLast((b) => b !== undefined)
    return last?.type === 'tool_use' ? { id: last.id, name: last.name } : undefined
  }

  /** The message so far. A tool_use block whose input has not finished streaming (no content_block_stop yet) is left out. */
  content(): ContentBlock[] {
    const out: ContentBlock[] = []
    for (const b of this.blocks) {
      if (!b) continue
      if (b.type === 'text') {
        if (b.text) out.push({ type: 'text', text: b.text })
      } else if (b.type === 'thinking') {
        out.push(b.signature ? { type: 'thinking', thinking: b.thinking, signature: b.signature } : { type: 'thinking', thinking: b.thinking })
      } else if (b.type === 'redacted_thinking') {
        out.push({ type: 'redacted_thinking', data: b.data })
      } else if (b.input !== undefined) {
        out.push({ type: 'tool_use', id: b.id, name: b.name, input: b.input })
      }
    }
    return out
  }
}

function parseToolInput(json: string, onError: (message: string) => void): unknown {
  if (json.trim() === '') return {}
  try {
    return JSON.parse(json)
  } catch (err) {
    onError(`${errorMessage(err)}. The input received was: ${json.length > 500 ? json.slice(0, 500) + '…' : json}`)
    return {}
  }
}
