// The model layer's contract with the loop. The loop never touches the SDK directly: it hands a
// ModelRequest to a ModelClient and gets deltas through StreamHandlers and one complete ModelResponse.
import type { ChatMessage, ContentBlock } from '../../../shared/events'
import type { Usage } from '../../../shared/usage'

export type Effort = 'low' | 'medium' | 'high' | 'xhigh' | 'max'

/** Passed through to the API's `thinking` parameter. */
export type ThinkingConfig =
  | { type: 'enabled'; budget_tokens: number; display?: 'summarized' | 'omitted' }
  | { type: 'adaptive'; display?: 'summarized' | 'omitted' }
  | { type: 'disabled' }

export interface SystemBlock {
  type: 'text'
  text: string
}

/** A tool as the API sees it. */
export interface ApiToolSpec {
  name: string
  description: string
  input_schema: Record<string, unknown>
}

export interface ModelRequest {
  /** A full model id (aliases are resolved before this point, see resolveModel). */
  model: string
  system?: string | SystemBlock[]
  messages: ChatMessage[]
  tools?: ApiToolSpec[]
  /** Default 32000. */
  maxTokens?: number
  thinking?: ThinkingConfig
  effort?: Effort
  temperature?: number
  /** Places prompt-cache breakpoints (see request-body.ts). Default true. */
  promptCaching?: boolean
  /** How many leading tools every agent of the session gets alike: the tools' breakpoint goes after them. */
  sharedTools?: number
  /**
   * Context that helps the agent (project instructions, a listing of its folder), appended to the system prompt
   * when its prefix is under the model's cache minimum and filling it pays for the `sharers` requests expected
   * to share it (a fan-out's siblings): model/cache-fill.ts. The same object for every turn of a run.
   */
  cacheFill?: { text: string; sharers: number }
  /** The message whose last block is the conversation's cache breakpoint (default the last one). */
  cacheBreakpointAt?: number
  /** `none`: the reply may not call tools (it keys the messages' cache apart: a summary request uses it only as a fallback). */
  toolChoice?: 'none'
  /** Clearing of old tool results on the API's side (sent with the `context-management-2025-06-27` beta). */
  contextManagement?: ContextManagement
}

/** The API's `context_management` request field (the edits Fanout uses). */
export interface ContextManagement {
  edits: Array<{
    type: 'clear_tool_uses_20250919'
    trigger?: { type: 'input_tokens'; value: number }
    keep?: { type: 'tool_uses'; value: number }
    clear_at_least?: { type: 'input_tokens'; value: number }
  }>
}

export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27'

/** One retry the client is about to make, reported before it waits. */
export interface RetryInfo {
  /** The attempt that just failed, 1-based. */
  attempt: number
  maxAttempts: number
  delayMs: number
  /** What went wrong, for people: "Overloaded (529)". */
  message: string
  status?: number
  /** Time the call has spent so far, attempts and waits (ms). */
  spentMs: number
  /** The most the call may spend retrying before it gives up (ms). */
  maxRetryTimeMs: number
}

export interface StreamHandlers {
  /**
   * A request is about to go out (the first attempt, or a retry after its wait): from here until the first
   * delta the agent waits on the model, and the UI says so.
   */
  onRequest?(attempt: number): void
  /**
   * The request waits for the rate limiter (rate-limiter.ts) before it goes: `reason` says why, and null
   * says the wait is over (onRequest follows). The agent shows as queued meanwhile.
   */
  onWait?(reason: string | null): void
  onText?(text: string): void
  onThinking?(text: string): void
  /** A tool_use block began; its input follows as JSON fragments. */
  onToolStart?(toolUseId: string, name: string): void
  onToolInputDelta?(toolUseId: string, partialJson: string): void
  /**
   * A tool_use block's input arrived whole and parsed (its content_block_stop) while the message may go on:
   * `sofar` is every such block of this attempt's message, this one last. For work that may be readied ahead
   * (a subagent's prompt prefix warmed in the cache, or the call started: loop/early-calls.ts). `message` reads
   * the reply so far: every block before this one and this one, all complete.
   */
  onToolUse?(block: ToolUseReady, sofar: readonly ToolUseReady[], message: () => ContentBlock[]): void
  /**
   * True once the caller has acted on this attempt's reply (a call in it started while it streamed): the
   * attempt is then never retried nor asked again. A failure after that ends the reply where it got to
   * (ModelResponse.cutShort) instead, so that the calls that ran stay in the conversation with their results.
   */
  committed?(): boolean
  /**
   * How many of this attempt's calls to any of `names` the caller started while the reply streams (none when
   * unset): each makes its own requests while this reply still holds its connection.
   */
  startedCalls?(names: ReadonlySet<string>): number
  /**
   * The current attempt failed and will be retried. Deltas already reported for this attempt are void:
   * the next attempt streams the message again from its start.
   */
  onRetry?(info: RetryInfo): void
  /** The model was overloaded too often: the call goes on with the fallback model (--fallback-model). */
  onFallback?(info: { from: string; to: string }): void
}

/** A tool call whose input streamed whole (StreamHandlers.onToolUse). */
export interface ToolUseReady {
  id: string
  name: string
  input: unknown
}

export interface ModelResponse {
  /** The complete assistant content, in order. */
  content: ContentBlock[]
  stopReason: string | null
  usage: Usage
  /** The model id that was requested. */
  model: string
  /** tool_use ids whose streamed input was not valid JSON, with the parser's complaint. */
  inputErrors: Record<string, string>
  /** Attempts it took (1 when nothing was retried). */
  attempts: number
  /** The tool call max_tokens cut off in the middle (stop_reason max_tokens while its input streamed): it must not run. */
  cutToolUse?: { id: string; name: string }
  /** What the API's context management cleared from this request, when it cleared anything. */
  clearedToolUses?: { toolUses: number; inputTokens: number }
  /**
   * The reply ended before its message_stop, after calls in it had started (StreamHandlers.committed): why (the
   * failure, in words). `content` is what arrived whole; it was not retried.
   */
  cutShort?: string
}

/** Information about a model the endpoint offers (GET /v1/models). */
export interface ModelListing {
  id: string
  createdAt?: string
  displayName?: string
  /** `haiku`, `sonnet`, `opus` when the endpoint says so. */
  line?: string | null
  lifecycle?: string
}

export interface ModelClient {
  /** Streams one assistant message. Retries transient failures itself. Throws ModelAbortedError or ModelCallError. */
  stream(request: ModelRequest, handlers?: StreamHandlers, signal?: AbortSignal): Promise<ModelResponse>
  /** GET /v1/models (all pages). Throws when the endpoint does not offer it. */
  listModels(signal?: AbortSignal): Promise<ModelListing[]>
  /**
   * Writes the request's stable prefix (tools, system prompt) to the prompt cache ahead of requests that will
   * share it (a `max_tokens: 0` request), unless it is cached or on its way already, or cache sharing is off.
   * Resolves with what the warming cost, null when nothing was sent; never throws.
   */
  warm?(request: ModelRequest, signal?: AbortSignal): Promise<Usage | null>
  /**
   * Opens a connection to the API ahead of the first call, when none is open or opening (the connection is
   * closed unused after a few seconds, and never keeps the process alive). Sends nothing.
   */
  connect?(): void
  readonly baseURL: string
}
