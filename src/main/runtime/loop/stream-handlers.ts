// What the model client tells the loop while a reply streams, turned into the agent's events: each request,
// waits behind the rate limits, the streamed deltas, a model fallback and each retry with its budget.
import type { StreamHandlers } from '../model/types'
import type { EarlyCalls } from './early-calls'
import type { RunState } from './run-state'

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`)

export function streamHandlers(run: RunState, early: EarlyCalls): StreamHandlers {
  const { send, emit, opts } = run
  const { agentId, parentAgentId, parentToolUseId, sessionId } = opts
  return {
    onRequest: (attempt) => send({ type: 'model_request', model: opts.model, attempt }),
    // Held back by the API's rate limits: queued, as an agent waiting for a slot is, until its request goes.
    onWait: (reason) => send(reason === null ? { type: 'status', status: 'running' } : { type: 'status', status: 'queued', detail: reason }),
    // Deltas are the stream's bulk: each is built as one object (send's spread would build two).
    onText: (text) => emit({ agentId, parentAgentId, parentToolUseId, sessionId, ts: Date.now(), type: 'text_delta', text }),
    onThinking: (text) => emit({ agentId, parentAgentId, parentToolUseId, sessionId, ts: Date.now(), type: 'thinking_delta', text }),
    onToolStart: (toolUseId, name) => send({ type: 'tool_start', toolUseId, name }),
    onToolInputDelta: (toolUseId, partialJson) =>
      emit({ agentId, parentAgentId, parentToolUseId, sessionId, ts: Date.now(), type: 'tool_input_delta', toolUseId, partialJson }),
    // A call that streamed whole starts now when it may (early-calls.ts); one that waits for the reply's end may
    // still be readied for (toolUseStreamed), with the other calls that wait.
    onToolUse: (call, sofar, message) => {
      if (early.offer(call, sofar, message) || !opts.toolUseStreamed) return
      opts.toolUseStreamed(
        call,
        sofar.filter((c) => !early.has(c.id))
      )
    },
    committed: () => early.committed,
    startedCalls: (names) => early.startedOf(names),
    // Deltas of the failed attempt are void; consumers drop them when they see a retrying error.
    // The budget is said while waiting: which attempt comes next, when, and how long retrying may go on in all.
    onFallback: ({ from, to }) =>
      send({ type: 'error', message: `Switched to ${to} due to high demand for ${from}`, retrying: false, notice: true, modelFallback: { from, to } }),
    onRetry: (r) =>
      send({
        type: 'error',
        message: `${r.message.replace(/\.$/, '')}. Retrying in ${seconds(r.delayMs)} (attempt ${r.attempt + 1} of ${r.maxAttempts}; ${seconds(r.spentMs)} spent of at most ${seconds(r.maxRetryTimeMs)} retrying).`,
        retrying: true,
        attempt: r.attempt,
        maxAttempts: r.maxAttempts,
        delayMs: r.delayMs
      })
  }
}
