// Helpers that build ScriptedReply values, so scripts read like the conversation they stand for:
//   reply.text('Done.')
//   reply.toolUse('Read', { file_path: 'a.ts' })
//   reply.message(block.thinking('Let me look.'), block.text('Reading both.'), block.toolUse('Glob', { pattern: '*.ts' }))
//   reply.rateLimited({ retryAfterSeconds: 0.05 }), reply.overloaded(), reply.dropAfter(2, reply.text('...'))
import type { HttpErrorReply, InterruptionKind, MessageReply, ReplyBlock, ScriptedReply, StreamShape } from './types'

export const block = {
  text: (text: string): ReplyBlock => ({ type: 'text', text }),
  thinking: (thinking: string, signature = 'scripted-signature'): ReplyBlock => ({ type: 'thinking', thinking, signature }),
  redactedThinking: (data = 'scripted-redacted'): ReplyBlock => ({ type: 'redacted_thinking', data }),
  toolUse: (name: string, input: unknown, id?: string): ReplyBlock => ({ type: 'tool_use', name, input, id }),
  /** A tool_use whose streamed input is exactly `rawJson` (use it to send JSON that does not parse). */
  toolUseRaw: (name: string, rawJson: string, id?: string): ReplyBlock => ({ type: 'tool_use', name, rawJson, id })
}

type MessageOptions = Omit<MessageReply, 'kind' | 'content'>

function message(...blocks: ReplyBlock[]): MessageReply {
  return { kind: 'message', content: blocks }
}

function httpError(status: number, errorType: string, message: string, extra: Partial<HttpErrorReply> = {}): HttpErrorReply {
  return { kind: 'http_error', status, errorType, message, ...extra }
}

function interrupted(reply: ScriptedReply, afterDeltas: number, how: InterruptionKind, errorType?: string): MessageReply {
  if (reply.kind !== 'message') throw new Error('Only a message reply can be interrupted mid-stream.')
  return { ...reply, interrupt: { afterDeltas, how, errorType, errorMessage: errorType === 'overloaded_error' ? 'Overloaded' : undefined } }
}

export const reply = {
  message,
  /** Same as message() with options (stop reason, usage, chunking, delays). */
  with: (opts: MessageOptions, ...blocks: ReplyBlock[]): MessageReply => ({ ...opts, kind: 'message', content: blocks }),
  text: (text: string, opts: MessageOptions = {}): MessageReply => ({ ...opts, kind: 'message', content: [block.text(text)] }),
  /** One tool call, optionally preceded by text. */
  toolUse: (name: string, input: unknown, opts: MessageOptions & { text?: string; id?: string } = {}): MessageReply => {
    const { text, id, ...rest } = opts
    return { ...rest, kind: 'message', content: [...(text ? [block.text(text)] : []), block.toolUse(name, input, id)] }
  },
  /** Several tool calls in one assistant message (they may run in parallel). */
  toolUses: (calls: Array<{ name: string; input: unknown; id?: string }>, opts: MessageOptions & { text?: string } = {}): MessageReply => {
    const { text, ...rest } = opts
    return { ...rest, kind: 'message', content: [...(text ? [block.text(text)] : []), ...calls.map((c) => block.toolUse(c.name, c.input, c.id))] }
  },
  /** Re-shapes the stream of a reply: chunk sizes and per-event delay. */
  shaped: (shape: StreamShape, r: MessageReply): MessageReply => ({ ...r, ...shape }),
  rateLimited: (opts: { retryAfterSeconds?: number; message?: string } = {}): HttpErrorReply =>
    httpError(429, 'rate_limit_error', opts.message ?? 'Number of request tokens has exceeded your per-minute rate limit', {
      retryAfterSeconds: opts.retryAfterSeconds
    }),
  overloaded: (opts: { retryAfterSeconds?: number } = {}): HttpErrorReply => httpError(529, 'overloaded_error', 'Overloaded', opts),
  serverError: (status = 500, message = 'Internal server error'): HttpErrorReply => httpError(status, 'api_error', message),
  badRequest: (message: string): HttpErrorReply => httpError(400, 'invalid_request_error', message),
  httpError,
  /** Streams `afterDeltas` deltas of `r`, then an SSE error event (default overloaded_error). */
  errorAfter: (afterDeltas: number, r: ScriptedReply, errorType = 'overloaded_error'): MessageReply => interrupted(r, afterDeltas, 'error', errorType),
  /** Streams `afterDeltas` deltas of `r`, then destroys the connection. */
  dropAfter: (afterDeltas: number, r: ScriptedReply): MessageReply => interrupted(r, afterDeltas, 'drop'),
  /** Streams `afterDeltas` deltas of `r`, then ends the response cleanly but without message_stop. */
  endAfter: (afterDeltas: number, r: ScriptedReply): MessageReply => interrupted(r, afterDeltas, 'end'),
  /** Streams `afterDeltas` deltas of `r`, then a data line that is not JSON, then the rest of `r`. */
  malformedAfter: (afterDeltas: number, r: ScriptedReply): MessageReply => interrupted(r, afterDeltas, 'malformed'),
  /** Streams `afterDeltas` deltas of `r`, then a delta for a content block that never started, then the rest of `r`. */
  outOfOrderAfter: (afterDeltas: number, r: ScriptedReply): MessageReply => interrupted(r, afterDeltas, 'out_of_order'),
  /** A 200 event stream that ends with no events at all (what `r` would have said is never sent). */
  emptyStream: (r: ScriptedReply): MessageReply => interrupted(r, 0, 'empty'),
  /**
   * `r` cut off by max_tokens in the middle of its last block, as the API sends it: the block stops with
   * `keep` characters of its input (or text) and the message stops with stop_reason max_tokens.
   */
  cutByMaxTokens: (r: MessageReply, keep = 12): MessageReply => {
    const last = r.content.at(-1)
    if (!last) throw new Error('cutByMaxTokens needs a reply with content.')
    const cut: ReplyBlock =
      last.type === 'tool_use'
        ? { type: 'tool_use', name: last.name, id: last.id, rawJson: (last.rawJson ?? JSON.stringify(last.input ?? {})).slice(0, keep) }
        : last.type === 'text'
          ? { type: 'text', text: last.text.slice(0, keep) }
          : last
    return { ...r, content: [...r.content.slice(0, -1), cut], stopReason: 'max_tokens' }
  }
}
