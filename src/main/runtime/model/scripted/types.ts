// The scripted model server's vocabulary: what a script sees (ParsedRequest) and what it answers (ScriptedReply).

/** A tool result found in the last user message of a request. */
export interface SeenToolResult {
  toolUseId: string
  /** The result text (text blocks joined). */
  content: string
  isError: boolean
}

/** One request as the server received it, with the fields scripts route on already pulled out. */
export interface ParsedRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  /** The raw JSON body (null for GET). */
  body: any
  model: string
  /** The system prompt's text, blocks joined with "\n". */
  system: string
  messages: Array<{ role: 'user' | 'assistant'; content: any }>
  tools: Array<{ name: string; description?: string; input_schema?: unknown }>
  toolNames: string[]
  stream: boolean
  maxTokens: number | undefined
  thinking: unknown
  /** Text of the first user message (the agent's task, for most agents). */
  firstUserText: string
  /** Text blocks of the last user message, joined with "\n" (system-reminders included). */
  lastUserText: string
  toolResults: SeenToolResult[]
  /** Assistant messages already in the conversation: 0 on an agent's first call, 1 on its second... (after a compaction it counts only what the compacted conversation holds). */
  turn: number
  /** What the simulated prompt cache made of it (set when the request arrives; absent when the cache is off). */
  cache?: { uncached: number; read: number; write5m: number; write1h: number }
  /** The request's size as the model reads it, in tokens (see usage.ts); reported as usage.input_tokens. */
  inputTokens: number
  /** What the API's context management cleared from it (null: nothing). */
  contextEdits: { clearedToolUses: number; clearedInputTokens: number } | null
  /** A compaction's summary request (its last user message is Fanout's summary request). */
  isSummaryRequest: boolean
}

export interface RecordedRequest extends ParsedRequest {
  /** performance.now() when the request arrived (its headers). */
  receivedAt: number
  /** performance.now() when the connection it came on was accepted (before receivedAt when the connection was reused or opened ahead). */
  connectedAt: number
  /**
   * performance.now() when its whole body had been read: the model's latency counts from here, so the server's
   * own work on a request (parsing it, the simulated cache) is not added to the model's time.
   */
  readAt: number
  /** Index in arrival order. */
  index: number
  /** How long its reply's output takes at the server's output rate (outputTokensPerSecond), in ms; 0 without one. */
  outputMs?: number
  /** performance.now() when its streamed reply's last event went out (absent until then, and for other replies). */
  repliedAt?: number
}

export interface RespondContext {
  /** This request's index in arrival order. */
  index: number
  /**
   * How many earlier requests had exactly this body: 0 the first time, 1 for its first retry, ...
   * Retry-safe and concurrency-safe, unlike a counter.
   */
  attempt: number
  /** Every request so far (this one included). */
  requests: readonly RecordedRequest[]
}

export type ReplyBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  /** `rawJson` sends that exact text as the input (e.g. invalid JSON) instead of `input`. */
  | { type: 'tool_use'; id?: string; name: string; input?: unknown; rawJson?: string }

export interface StreamShape {
  /** Characters per text/thinking delta. Default 48. */
  textChunk?: number
  /** Characters per input_json_delta. Default 7: small enough that JSON tokens are split mid-token. */
  jsonChunk?: number
  /** Delay before each SSE event after the first (ms). Default 0: the whole stream goes out in one write. */
  chunkDelayMs?: number
  /** Holds the stream after this many content deltas until `until` settles: a test that must catch it mid-way. */
  pause?: { afterDeltas: number; until: Promise<void> }
}

export type InterruptionKind = 'error' | 'drop' | 'end' | 'malformed' | 'out_of_order' | 'empty'

export interface Interruption {
  /** content_block_delta events sent before the interruption. */
  afterDeltas: number
  /**
   * `error`: an SSE error event; `drop`: the socket is destroyed; `end`: the response ends cleanly without
   * message_stop; `malformed`: a data line that is not JSON, then the rest of the stream; `out_of_order`: a
   * delta for a block that never started, then the rest of the stream; `empty`: a 200 event stream with no
   * events at all (`afterDeltas` is ignored).
   */
  how: InterruptionKind
  errorType?: string
  errorMessage?: string
}

export interface MessageReply extends StreamShape {
  kind: 'message'
  content: ReplyBlock[]
  /** Default: `tool_use` when the content has a tool_use block, else `end_turn`. */
  stopReason?: string
  /** Overrides of the reported usage; the rest comes from the request's size and the simulated cache. */
  usage?: {
    input_tokens?: number
    output_tokens?: number
    cache_read_input_tokens?: number
    cache_creation_input_tokens?: number
  }
  /** Model id reported back. Default: the requested one. */
  model?: string
  /** Extra wait before the response starts, on top of the server's latency. */
  delayMs?: number
  interrupt?: Interruption
}

export interface HttpErrorReply {
  kind: 'http_error'
  status: number
  /** Anthropic error type: rate_limit_error, overloaded_error, api_error, invalid_request_error... */
  errorType: string
  message: string
  /** Sent as `retry-after` (seconds; may be fractional here so tests stay fast). */
  retryAfterSeconds?: number
  headers?: Record<string, string>
  delayMs?: number
}

export type ScriptedReply = MessageReply | HttpErrorReply

export type Respond = (req: ParsedRequest, ctx: RespondContext) => ScriptedReply | Promise<ScriptedReply>
