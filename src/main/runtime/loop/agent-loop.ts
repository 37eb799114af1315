// The agent loop: (context, tools, model) -> a stream of AgentEvents pushed into `emit`, and a result.
// One turn = one model call: the user message that opens it (prompt, tool results, inbox, reminder),
// the streamed assistant reply, then its tool calls. It never throws: a failure that survives the
// model client's retries ends the run with status `failed`, so a parent agent always gets an answer.
import type { AgentEvent, AgentLimit, ChatMessage, ContentBlock, EventPayload } from '../../../shared/events'
import { addUsage, emptyUsage, type Usage } from '../../../shared/usage'
import { ContextControl, type RunIo } from '../compaction/context-control'
import { ModelAbortedError, ModelCallError, promptTooLong } from '../model/errors'
import { modelMaxTokens } from '../model/effort'
import { DEFAULT_MAX_TOKENS } from '../model/request-body'
import type { ApiToolSpec, ModelResponse, StreamHandlers } from '../model/types'
import { inboxBlocks, keepablePartial, MAX_TOKENS_NUDGE, promptBlocks, reminderBlock, textOf } from './conversation'
import { firstStop, guardedClient, runStops, turnLimitNote } from './stop'
import { runToolCalls, type ToolCall } from './run-tools'
import type { AgentLoopOptions, AgentRunResult, AgentRunStatus, EmitFn } from './types'
import { errorMessage } from '../../../shared/error-message'

// How many times a reply cut off by max_tokens is asked to continue before the run accepts it as final.
const MAX_TOKENS_RECOVERIES = 3
// Compactions after the API refused one turn's request as too long, before the run gives up.
const OVERFLOW_RECOVERIES = 2

/** The tools as the API sees them. */
export const apiToolSpecs = (tools: AgentLoopOptions['tools']): ApiToolSpec[] =>
  tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputJsonSchema }))

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`)

export async function runAgentLoop(opts: AgentLoopOptions, emit: EmitFn): Promise<AgentRunResult> {
  const started = performance.now()
  const { agentId, parentAgentId, parentToolUseId, sessionId } = opts
  const send = (payload: EventPayload) => emit({ agentId, parentAgentId, parentToolUseId, sessionId, ts: Date.now(), ...payload } as AgentEvent)
  const signal = opts.signal ?? new AbortController().signal
  const tools = new Map(opts.tools.map((t) => [t.name, t]))
  const apiTools = apiToolSpecs(opts.tools)
  // The leading tools every agent of the session gets alike: the tools' cache breakpoint goes after them.
  const firstOwn = opts.tools.findIndex((t) => !t.sameForEveryAgent)
  const sharedTools = firstOwn === -1 ? apiTools.length : firstOwn
  const messages: ChatMessage[] = [...(opts.messages ?? [])]
  const historyLength = messages.length
  // The run's stop list: asked before each turn, before each model call (through `client`) and after each turn's tools.
  const stops = runStops(opts)
  let numTurns = 0
  const client = guardedClient(opts.client, stops, () => ({ turns: numTurns }))
  const context = opts.context ? new ContextControl({ ...opts.context, client, model: opts.model, system: opts.systemPrompt, tools: apiTools }) : null
  let pending: ContentBlock[] | null = promptBlocks(opts.prompt)
  // The deliveries `pending` carries: consumed once the message holding them is written.
  let pendingIds: string[] = [...(opts.promptDeliveries ?? [])]
  const takeInbox = () => {
    const items = (opts.drainInbox?.() ?? []).map((i) => (typeof i === 'string' ? { text: i } : i))
    return { blocks: inboxBlocks(items.map((i) => i.text)), ids: items.flatMap((i) => (i.deliveryId ? [i.deliveryId] : [])) }
  }
  // This run's last words: the text of its latest assistant message that had any (a compaction may summarise the message itself).
  let runText = ''
  let usage = emptyUsage()
  let toolUses = 0
  let stopReason: string | null = null
  let recoveries = 0
  // Raised once, to the model's own limit, when a tool call is cut off by max_tokens.
  let maxTokens = opts.maxTokens

  const append = (message: ChatMessage, deliveries: string[] = []) => {
    messages.push(message)
    if (message.role === 'assistant') runText = textOf(message.content).trim() || runText
    send({ type: 'message', message, ...(deliveries.length ? { deliveries } : {}) })
  }
  const io: RunIo = {
    emit: send,
    signal,
    bill: (u: Usage, model: string) => {
      usage = addUsage(usage, u)
      send({ type: 'usage', usage: u, model, purpose: 'compaction' })
    }
  }
  // A compaction replaces the conversation (the compaction event has already told the session so).
  const replaceMessages = (next: ChatMessage[]) => {
    messages.splice(0, messages.length, ...next)
    opts.sentHistory?.compacted()
  }
  // Tool results (or an undelivered prompt) must reach the conversation even when the run stops,
  // so that a resumed agent's history answers every tool_use.
  const flushPending = () => {
    if (pending?.length) append({ role: 'user', content: pending }, pendingIds)
    pending = null
    pendingIds = []
  }
  const finish = (status: AgentRunStatus, error?: string, limit?: AgentLimit, apiError?: AgentRunResult['apiError']): AgentRunResult => {
    let result = runText
    if (status === 'max_turns') {
      const note = turnLimitNote(opts.maxTurns)
      result = result ? `${result}\n\n${note}` : note
    }
    return {
      status,
      result,
      ...(error !== undefined ? { error } : {}),
      ...(limit ? { limit } : {}),
      ...(apiError ? { apiError } : {}),
      numTurns,
      toolUses,
      usage,
      durationMs: Math.round(performance.now() - started),
      messages,
      model: opts.model,
      stopReason
    }
  }

  const handlers: StreamHandlers = {
    onRequest: (attempt) => send({ type: 'model_request', model: opts.model, attempt }),
    // Held back by the API's rate limits: queued, as an agent waiting for a slot is, until its request goes.
    onWait: (reason) => send(reason === null ? { type: 'status', status: 'running' } : { type: 'status', status: 'queued', detail: reason }),
    // Deltas are the stream's bulk: each is built as one object (send's spread would build two).
    onText: (text) => emit({ agentId, parentAgentId, parentToolUseId, sessionId, ts: Date.now(), type: 'text_delta', text }),
    onThinking: (text) => emit({ agentId, parentAgentId, parentToolUseId, sessionId, ts: Date.now(), type: 'thinking_delta', text }),
    onToolStart: (toolUseId, name) => send({ type: 'tool_start', toolUseId, name }),
    onToolInputDelta: (toolUseId, partialJson) =>
      emit({ agentId, parentAgentId, parentToolUseId, sessionId, ts: Date.now(), type: 'tool_input_delta', toolUseId, partialJson }),
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

  const lastIsUser = historyLength > 0 && messages[historyLength - 1].role === 'user'
  if (!pending.length && !lastIsUser) {
    const error = 'The agent was given no prompt: pass a non-empty prompt, or history that ends with a user message.'
    send({ type: 'error', message: error, retrying: false })
    return finish('failed', error)
  }

  try {
    for (;;) {
      if (signal.aborted) {
        flushPending()
        return finish('stopped')
      }
      const ceiling = firstStop(stops, 'turn', { turns: numTurns })
      if (ceiling) {
        flushPending()
        const ended = finish('max_turns', ceiling.message, ceiling.limit)
        // Said where the agent's work is shown, not only in its status.
        send({ type: 'error', message: ended.error!, retrying: false })
        return ended
      }
      const turn = ++numTurns
      send({ type: 'turn_start', turn })
      const inbox = takeInbox()
      const opening = [...(pending ?? []), ...inbox.blocks]
      const delivered = [...pendingIds, ...inbox.ids]
      pending = null
      pendingIds = []
      if (opening.length) {
        if (opts.criticalSystemReminder) opening.push(reminderBlock(opts.criticalSystemReminder))
        append({ role: 'user', content: opening }, delivered)
      }

      if (context) {
        const compacted = await context.beforeRequest(messages, io)
        if (compacted) replaceMessages(compacted)
        if (signal.aborted) {
          send({ type: 'turn_end', turn, stopReason: 'aborted' })
          return finish('stopped')
        }
      }

      let response: ModelResponse
      let overflows = 0
      for (;;) {
        const sent = context?.request(messages) ?? { messages }
        try {
          // What this agent sent before is sent again as it was (history is append-only): a bug of ours fails here.
          opts.sentHistory?.check(sent.messages)
          response = await client.stream(
            {
              model: opts.model,
              system: opts.systemPrompt,
              messages: sent.messages,
              tools: apiTools,
              maxTokens,
              thinking: opts.thinking,
              effort: opts.effort,
              promptCaching: opts.promptCaching,
              sharedTools,
              ...(opts.cacheFill ? { cacheFill: opts.cacheFill } : {}),
              ...(sent.contextManagement ? { contextManagement: sent.contextManagement } : {})
            },
            handlers,
            signal
          )
          // A tool call cut off by max_tokens cannot run (its input is incomplete): asked again once with the
          // model's own output limit, when the request had less. The cut reply is void, like a retried attempt's.
          const cut = response.cutToolUse
          if (cut && (maxTokens ?? DEFAULT_MAX_TOKENS) < modelMaxTokens(opts.model)) {
            const from = maxTokens ?? DEFAULT_MAX_TOKENS
            maxTokens = modelMaxTokens(opts.model)
            usage = addUsage(usage, response.usage)
            send({ type: 'usage', usage: response.usage, model: response.model })
            send({
              type: 'error',
              message: `The reply reached max_tokens (${from.toLocaleString('en-US')}) in the middle of a call to ${cut.name}. Asking again with max_tokens ${maxTokens.toLocaleString('en-US')}.`,
              retrying: true,
              attempt: 1,
              maxAttempts: 2,
              delayMs: 0
            })
            continue
          }
          break
        } catch (err) {
          const tooLong = context && !(err instanceof ModelAbortedError) ? promptTooLong(err) : null
          if (tooLong && context && overflows < OVERFLOW_RECOVERIES) {
            overflows++
            const compacted = await context.onOverflow(messages, tooLong.tokens, io)
            if (compacted && !signal.aborted) {
              replaceMessages(compacted)
              continue
            }
          }
          if (err instanceof ModelAbortedError || signal.aborted) {
            const kept = err instanceof ModelAbortedError ? keepablePartial(err.partial) : []
            if (kept.length) append({ role: 'assistant', content: kept })
            send({ type: 'turn_end', turn, stopReason: 'aborted' })
            return finish('stopped')
          }
          const message = errorMessage(err)
          const advice = tooLong && context ? `${/[.!?]$/.test(message) ? '' : '.'} ${overflowAdvice(context.limits.autoCompact)}` : ''
          send({ type: 'error', message: message + advice, retrying: false })
          send({ type: 'turn_end', turn, stopReason: 'error' })
          // A guard that refused the call (the session's budget, the time its retries may take) names itself.
          return finish('failed', message + advice, (err as { limit?: AgentLimit } | null)?.limit, apiErrorOf(err))
        }
      }

      usage = addUsage(usage, response.usage)
      stopReason = response.stopReason
      send({ type: 'usage', usage: response.usage, model: response.model })
      if (response.cutToolUse) {
        // Running the call would act on a truncated input, and answering it would hide the cut from the run's
        // result: the agent fails, saying why. Its history keeps the request, so a retry asks it again.
        const limit = (maxTokens ?? DEFAULT_MAX_TOKENS).toLocaleString('en-US')
        const message = `The model's reply reached its output limit (max_tokens ${limit}) in the middle of a call to ${response.cutToolUse.name}, so the call was not run: its input is incomplete.`
        send({ type: 'error', message, retrying: false })
        send({ type: 'turn_end', turn, stopReason })
        return finish('failed', message)
      }
      // The API returns an empty message now and then; an empty one cannot be sent back.
      if (response.content.length) append({ role: 'assistant', content: response.content })
      context?.observe(messages, response.usage)

      const calls: ToolCall[] = response.content
        .filter((b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use')
        .map((b) => ({ id: b.id, name: b.name, input: b.input, inputError: response.inputErrors[b.id] }))
      if (calls.length) {
        toolUses += calls.length
        const refused = opts.beforeTools ? await opts.beforeTools(calls).catch(() => null) : null
        if (refused) for (const c of calls) if (refused.has(c.id)) c.refused = refused.get(c.id)
        const outcomes = await runToolCalls(calls, {
          tools,
          agentId,
          signal,
          ...(opts.beforeToolCall ? { beforeToolCall: opts.beforeToolCall } : {}),
          ...(opts.afterToolCall ? { afterToolCall: opts.afterToolCall } : {}),
          emit: send,
          maxConcurrency: opts.maxToolConcurrency ?? Infinity,
          ...(opts.toolOutputDir ? { outputDir: opts.toolOutputDir } : {}),
          ...(opts.writeAhead ? { writeAhead: opts.writeAhead } : {})
        })
        pending = outcomes.map((o) => ({ type: 'tool_result', tool_use_id: o.id, content: o.content, ...(o.isError ? { is_error: true } : {}) }))
        if (opts.afterTools) {
          const inputs = new Map(calls.map((c) => [c.id, c.input]))
          // Extra context only: a failure to read it must not fail the turn.
          const notes = await opts.afterTools(outcomes.map((o) => ({ name: o.name, input: inputs.get(o.id), isError: o.isError }))).catch(() => [])
          pending.push(...notes.map(reminderBlock))
        }
        send({ type: 'turn_end', turn, stopReason })
        const stop = firstStop(stops, 'tools', {
          turns: numTurns,
          outcomes: outcomes.map((o, k) => ({ ...o, input: tools.has(o.name) ? calls[k].input : undefined }))
        })
        if (stop) {
          flushPending()
          if (stop.hook) return { ...finish('completed'), hookStop: { terminal: 'hook_stopped', reason: stop.message } }
          send({ type: 'error', message: stop.message, retrying: false })
          return finish('failed', stop.message, stop.limit)
        }
        continue
      }
      send({ type: 'turn_end', turn, stopReason })

      if (stopReason === 'max_tokens' && recoveries < MAX_TOKENS_RECOVERIES) {
        recoveries++
        pending = [{ type: 'text', text: MAX_TOKENS_NUDGE }]
        continue
      }
      // Messages that arrived while the agent worked are delivered before it is allowed to finish.
      const late = takeInbox()
      if (late.blocks.length) {
        pending = late.blocks
        pendingIds = late.ids
        continue
      }
      const more = await opts.beforeFinish?.(runText)
      // A Stop/SubagentStop hook's `continue: false`: the same signal as hook_halt's, asked as the agent finishes.
      const halt = opts.halted?.()
      if (halt) return { ...finish('completed'), hookStop: { terminal: 'stop_hook_prevented', reason: halt.reason } }
      if (more) {
        pending = [{ type: 'text', text: more }]
        continue
      }
      return finish('completed')
    }
  } catch (err) {
    // A bug here or in a consumer (emit threw) still ends in a result, never a throw at the parent.
    const message = `Internal error in the agent loop: ${errorMessage(err)}`
    try {
      send({ type: 'error', message, retrying: false })
    } catch {}
    return finish('failed', message)
  }
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
