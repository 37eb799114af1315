// Phase 3, stream the model's reply. The model client retries, waits on rate limits and falls back to another
// model by itself (model/); here the run recovers what it can: a request the API refused as too long is
// compacted and sent again, a tool call cut off by max_tokens is asked again once with the model's own output
// limit. A stop ends the run `stopped` (keeping what streamed before it), any other failure `failed`.
import type { AgentLimit, ContentBlock } from '../../../shared/events'
import { errorMessage } from '../../../shared/error-message'
import { modelMaxTokens } from '../model/effort'
import { ModelAbortedError, ModelCallError, promptTooLong } from '../model/errors'
import { DEFAULT_MAX_TOKENS } from '../model/request-body'
import type { ModelResponse } from '../model/types'
import { keepablePartial } from './conversation'
import type { EarlyCalls } from './early-calls'
import { conversationToSend, requestFor } from './prepare-request'
import type { Ended, RunState } from './run-state'
import { streamHandlers } from './stream-handlers'
import type { AgentRunResult } from './types'

// Compactions after the API refused one turn's request as too long, before the run gives up.
const OVERFLOW_RECOVERIES = 2

export async function streamReply(run: RunState, turn: number, early: EarlyCalls): Promise<{ response: ModelResponse } | Ended> {
  const { context, signal } = run
  const handlers = streamHandlers(run, early)
  let overflows = 0
  for (;;) {
    const sent = conversationToSend(run)
    try {
      const request = requestFor(run, sent)
      // On disk before it is sent: a crash after this cannot take back what the model saw (see `recorded`).
      await run.opts.recorded?.()
      const response = await run.client.stream(request, handlers, signal)
      // A tool call cut off by max_tokens cannot run (its input is incomplete): asked again once with the
      // model's own output limit, when the request had less. The cut reply is void, like a retried attempt's.
      // Not when calls of the reply have started: it is kept, and the cut call answered as not run (handle-reply.ts).
      const cut = response.cutToolUse
      if (cut && !early.committed && (run.maxTokens ?? DEFAULT_MAX_TOKENS) < modelMaxTokens(run.opts.model)) {
        const from = run.maxTokens ?? DEFAULT_MAX_TOKENS
        run.maxTokens = modelMaxTokens(run.opts.model)
        run.addUsage(response.usage)
        run.send({ type: 'usage', usage: response.usage, model: response.model })
        run.send({
          type: 'error',
          message: `The reply reached max_tokens (${from.toLocaleString('en-US')}) in the middle of a call to ${cut.name}. Asking again with max_tokens ${run.maxTokens.toLocaleString('en-US')}.`,
          retrying: true,
          attempt: 1,
          maxAttempts: 2,
          delayMs: 0
        })
        continue
      }
      return { response }
    } catch (err) {
      const tooLong = context && !(err instanceof ModelAbortedError) ? promptTooLong(err) : null
      if (tooLong && context && overflows < OVERFLOW_RECOVERIES) {
        overflows++
        const compacted = await context.onOverflow(run.messages, tooLong.tokens, run.io)
        if (compacted && !signal.aborted) {
          run.replaceMessages(compacted)
          continue
        }
      }
      if (err instanceof ModelAbortedError || signal.aborted) {
        // The calls that started stay in the reply, answered with what they came to as they stopped.
        await keepPartial(run, early, err instanceof ModelAbortedError ? err.partial : early.head)
        run.send({ type: 'turn_end', turn, stopReason: 'aborted' })
        return { end: run.finish('stopped') }
      }
      if (early.committed) await keepPartial(run, early, early.head)
      const message = errorMessage(err)
      const advice = tooLong && context ? `${/[.!?]$/.test(message) ? '' : '.'} ${overflowAdvice(context.limits.autoCompact)}` : ''
      run.send({ type: 'error', message: message + advice, retrying: false })
      run.send({ type: 'turn_end', turn, stopReason: 'error' })
      // A guard that refused the call (the session's budget, the time its retries may take) names itself.
      return { end: run.finish('failed', message + advice, (err as { limit?: AgentLimit } | null)?.limit, apiErrorOf(err)) }
    }
  }
}

/**
 * What a reply that ended in a stop or a failure leaves in the conversation: its text, and the calls that started
 * while it streamed (early-calls.ts) followed by their results, so that every call that ran is answered.
 */
async function keepPartial(run: RunState, early: EarlyCalls, partial: ContentBlock[]): Promise<void> {
  const kept = keepablePartial(partial, (id) => early.has(id))
  if (kept.length) run.append({ role: 'assistant', content: kept })
  if (!early.committed) return
  const outcomes = await early.settle(kept.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])))
  run.pending = outcomes.map((o) => ({ type: 'tool_result', tool_use_id: o.id, content: o.content, ...(o.isError ? { is_error: true } : {}) }))
  run.flushPending()
}

/** A model call's final failure as Claude Code reports it: the status and the API's own words, else our sentence. */
function apiErrorOf(err: unknown): AgentRunResult['apiError'] {
  if (!(err instanceof ModelCallError)) return undefined
  return { status: err.status ?? null, ...(err.api?.type ? { type: err.api.type } : {}), message: err.api?.message ?? err.message }
}

function overflowAdvice(autoCompact: boolean): string {
  return autoCompact
    ? 'Compacting the conversation did not bring it under the limit; the conversation is kept whole, and a smaller task or a fresh session may help.'
    : 'Automatic compaction is off (Settings → Long sessions): compact this agent (its Compact button, or /compact) and send the message again.'
}
