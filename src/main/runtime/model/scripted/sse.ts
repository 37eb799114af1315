// Renders a scripted message as the Messages API renders it: the SSE event sequence for streaming
// requests, or one Message object for non-streaming ones.
import type { MessageReply, ParsedRequest, ReplyBlock } from './types'
import { usageOf } from './usage'

export interface Frame {
  /** The SSE text: `event: x\ndata: {...}\n\n`. */
  text: string
  isDelta: boolean
  /** A delta's generated characters (its text, thinking or JSON): what a model emits at its output rate. */
  chars?: number
}

export interface RenderIds {
  messageId: string
  toolUseId: (block: ReplyBlock & { type: 'tool_use' }) => string
}

const frame = (event: string, data: unknown, isDelta = false): Frame => ({ text: `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`, isDelta })

function chunks(text: string, size: number): string[] {
  if (!text) return []
  const out: string[] = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out
}

export function defaultStopReason(reply: MessageReply): string {
  return reply.stopReason ?? (reply.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn')
}

function toolJson(b: ReplyBlock & { type: 'tool_use' }): string {
  return b.rawJson ?? JSON.stringify(b.input ?? {})
}

export function renderStream(reply: MessageReply, req: ParsedRequest, ids: RenderIds): Frame[] {
  const usage = usageOf(reply, req)
  const model = reply.model ?? req.model
  const textChunk = Math.max(1, reply.textChunk ?? 48)
  const jsonChunk = Math.max(1, reply.jsonChunk ?? 7)
  const frames: Frame[] = [
    frame('message_start', {
      type: 'message_start',
      message: {
        id: ids.messageId,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 }
      }
    }),
    frame('ping', { type: 'ping' })
  ]
  reply.content.forEach((b, index) => {
    const delta = (d: { text?: string; thinking?: string; partial_json?: string; signature?: string; type: string }) =>
      frames.push({
        ...frame('content_block_delta', { type: 'content_block_delta', index, delta: d }, true),
        chars: (d.text ?? d.thinking ?? d.partial_json ?? '').length
      })
    if (b.type === 'text') {
      frames.push(frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }))
      for (const c of chunks(b.text, textChunk)) delta({ type: 'text_delta', text: c })
    } else if (b.type === 'thinking') {
      frames.push(frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }))
      for (const c of chunks(b.thinking, textChunk)) delta({ type: 'thinking_delta', thinking: c })
      if (b.signature) delta({ type: 'signature_delta', signature: b.signature })
    } else if (b.type === 'redacted_thinking') {
      frames.push(frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: b.data } }))
    } else {
      frames.push(
        frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: ids.toolUseId(b), name: b.name, input: {} } })
      )
      for (const c of chunks(toolJson(b), jsonChunk)) delta({ type: 'input_json_delta', partial_json: c })
    }
    frames.push(frame('content_block_stop', { type: 'content_block_stop', index }))
  })
  frames.push(
    frame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: defaultStopReason(reply), stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
      ...(req.contextEdits ? { context_management: contextManagementOf(req) } : {})
    }),
    frame('message_stop', { type: 'message_stop' })
  )
  return frames
}

/** A text delta for a content block that was never started (index 99): an event out of order. */
export function strayDelta(): Frame {
  return frame('content_block_delta', { type: 'content_block_delta', index: 99, delta: { type: 'text_delta', text: 'stray' } })
}

export function errorFrame(type: string, message: string): Frame {
  return frame('error', { type: 'error', error: { type, message } })
}

/** The non-streaming response body. A tool_use with unparseable rawJson is sent with an empty input. */
export function renderMessage(reply: MessageReply, req: ParsedRequest, ids: RenderIds): unknown {
  const content = reply.content.map((b) => {
    if (b.type !== 'tool_use') return b.type === 'thinking' ? { ...b, signature: b.signature ?? '' } : b
    let input: unknown = b.input ?? {}
    if (b.rawJson !== undefined) {
      try {
        input = JSON.parse(b.rawJson)
      } catch {
        input = {}
      }
    }
    return { type: 'tool_use', id: ids.toolUseId(b), name: b.name, input }
  })
  return {
    id: ids.messageId,
    type: 'message',
    role: 'assistant',
    model: reply.model ?? req.model,
    content,
    stop_reason: defaultStopReason(reply),
    stop_sequence: null,
    usage: usageOf(reply, req),
    context_management: req.contextEdits ? contextManagementOf(req) : null
  }
}

/** The API's report of what its context management cleared from the request. */
function contextManagementOf(req: ParsedRequest) {
  const e = req.contextEdits
  return { applied_edits: e ? [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: e.clearedToolUses, cleared_input_tokens: e.clearedInputTokens }] : [] }
}
