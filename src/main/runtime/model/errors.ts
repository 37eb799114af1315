// Errors the model layer throws, each with a message a person can act on.
import type { AgentLimit, ContentBlock } from '../../../shared/events'

export class MissingCredentialsError extends Error {
  constructor() {
    super(
      'No Anthropic credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a gateway token) in the environment, ' +
        'or add an API key in settings. Set ANTHROPIC_BASE_URL too when you use a gateway or a local server.'
    )
    this.name = 'MissingCredentialsError'
  }
}

export class UnknownModelError extends Error {
  constructor(
    readonly model: string,
    readonly from: string,
    readonly validAliases: string[]
  ) {
    super(`Unknown model "${model}" (${from}). Use one of ${[...validAliases, 'inherit'].join(', ')}, ` + 'or a full model id such as claude-sonnet-5-5.')
    this.name = 'UnknownModelError'
  }
}

/** A model call that failed for good: not retryable, or still failing after every retry. */
export class ModelCallError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly attempts: number,
    readonly retryable: boolean,
    /** Set when nothing answered at the address: why, in the system's words (`connect ECONNREFUSED …`). */
    readonly unreachable?: string,
    /** Set when the call gave up because its retries took longer than allowed. */
    readonly limit?: AgentLimit,
    /** What the API itself said (its error type and message), when it answered with an error. */
    readonly api?: { type?: string; message: string }
  ) {
    super(message)
    this.name = 'ModelCallError'
  }
}

/** The caller's signal aborted the call. `partial` holds what had streamed of the current attempt. */
export class ModelAbortedError extends Error {
  constructor(readonly partial: ContentBlock[]) {
    super('The model call was stopped.')
    this.name = 'ModelAbortedError'
  }
}

/** The stream ended (cleanly or not) before message_stop: the message is incomplete and must be retried. */
export class StreamIncompleteError extends Error {
  constructor(detail: string) {
    super(`The response stream ended before the message was complete (${detail}).`)
    this.name = 'StreamIncompleteError'
  }
}

/**
 * The stream broke the Messages API's protocol: a data line that is not JSON, an event out of order (a delta
 * for a block that never started, anything before message_start or after message_stop). The message cannot be
 * trusted, so the attempt is retried whole, like a 5xx.
 */
export class StreamMalformedError extends Error {
  constructor(detail: string) {
    super(`The response stream was malformed (${detail}).`)
    this.name = 'StreamMalformedError'
  }
}

/** A runaway guard refused the call (the session's budget): the run ends with this reason and `limit`. */
export class LimitReachedError extends Error {
  constructor(
    message: string,
    readonly limit: AgentLimit
  ) {
    super(message)
    this.name = 'LimitReachedError'
  }
}

/**
 * The API refused a request as larger than the model's context window ("prompt is too long: 208310 tokens >
 * 200000 maximum", or input plus max_tokens past the limit). Returns the sizes it gave, or null for any other failure.
 */
export function promptTooLong(err: unknown): { tokens?: number; maximum?: number } | null {
  if (!(err instanceof ModelCallError) || err.status !== 400) return null
  const long = /prompt is too long(?::\s*(\d+)\s*tokens?\s*>\s*(\d+)\s*maximum)?/i.exec(err.message)
  if (long) return long[1] ? { tokens: Number(long[1]), maximum: Number(long[2]) } : {}
  const sum = /input length and `?max_tokens`? exceed context limit:\s*(\d+)\s*\+\s*(\d+)\s*>\s*(\d+)/i.exec(err.message)
  if (sum) return { tokens: Number(sum[1]), maximum: Number(sum[3]) }
  return null
}
