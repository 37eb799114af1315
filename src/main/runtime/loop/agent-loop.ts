// The agent loop: (context, tools, model) -> a stream of AgentEvents pushed into `emit`, and a result.
// One turn = one model call: the user message that opens it (prompt, tool results, inbox, reminder),
// the streamed assistant reply, then its tool calls. It never throws: a failure that survives the
// model client's retries ends the run with status `failed`, so a parent agent always gets an answer.
import type { AgentEvent, ChatMessage, ContentBlock, EventPayload } from '../../../shared/events'
import { addUsage, emptyUsage } from '../../../shared/usage'
import { ModelAbortedError } from '../model/errors'
import type { ApiToolSpec, ModelResponse, StreamHandlers } from '../model/types'
import { inboxBlocks, keepablePartial, lastAssistantText, MAX_TOKENS_NUDGE, promptBlocks, reminderBlock } from './conversation'
import { runToolCalls, type ToolCall } from './run-tools'
import type { AgentLoopOptions, AgentRunResult, AgentRunStatus, EmitFn } from './types'

// How many times a reply cut off by max_tokens is asked to continue before the run accepts it as final.
const MAX_TOKENS_RECOVERIES = 3

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`)

export async function runAgentLoop(opts: AgentLoopOptions, emit: EmitFn): Promise<AgentRunResult> {
  const started = performance.now()
  const { agentId, parentAgentId, parentToolUseId, sessionId } = opts
  const send = (payload: EventPayload) => emit({ agentId, parentAgentId, parentToolUseId, sessionId, ts: Date.now(), ...payload } as AgentEvent)
  const signal = opts.signal ?? new AbortController().signal
  const tools = new Map(opts.tools.map((t) => [t.name, t]))
  const apiTools: ApiToolSpec[] = opts.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputJsonSchema }))
  const sharedTools = opts.tools.findIndex((t) => !t.sameForEveryAgent)
  const messages: ChatMessage[] = [...(opts.messages ?? [])]
  const historyLength = messages.length
  let pending: ContentBlock[] | null = promptBlocks(opts.prompt)
  let usage = emptyUsage()
  let numTurns = 0
  let toolUses = 0
  let stopReason: string | null = null
  let recoveries = 0

  const append = (message: ChatMessage) => {
    messages.push(message)
    send({ type: 'message', message })
  }
  // Tool results (or an undelivered prompt) must reach the conversation even when the run stops,
  // so that a resumed agent's history answers every tool_use.
  const flushPending = () => {
    if (pending?.length) append({ role: 'user', content: pending })
    pending = null
  }
  const finish = (status: AgentRunStatus, error?: string): AgentRunResult => {
    let result = lastAssistantText(messages.slice(historyLength))
    if (status === 'max_turns') {
      const note = `[Stopped after reaching the limit of ${opts.maxTurns} turns before finishing the task.]`
      result = result ? `${result}\n\n${note}` : note
    }
    return {
      status,
      result,
      ...(error !== undefined ? { error } : {}),
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
    onText: (text) => send({ type: 'text_delta', text }),
    onThinking: (text) => send({ type: 'thinking_delta', text }),
    onToolStart: (toolUseId, name) => send({ type: 'tool_start', toolUseId, name }),
    onToolInputDelta: (toolUseId, partialJson) => send({ type: 'tool_input_delta', toolUseId, partialJson }),
    // Deltas of the failed attempt are void; consumers drop them when they see a retrying error.
    onRetry: (r) =>
      send({
        type: 'error',
        message: `${r.message}. Retrying in ${seconds(r.delayMs)} (attempt ${r.attempt + 1} of ${r.maxAttempts}).`,
        retrying: true,
        attempt: r.attempt
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
      if (opts.maxTurns !== undefined && numTurns >= opts.maxTurns) {
        flushPending()
        return finish('max_turns')
      }
      const turn = ++numTurns
      send({ type: 'turn_start', turn })
      const opening = [...(pending ?? []), ...inboxBlocks(opts.drainInbox?.() ?? [])]
      pending = null
      if (opening.length) {
        if (opts.criticalSystemReminder) opening.push(reminderBlock(opts.criticalSystemReminder))
        append({ role: 'user', content: opening })
      }

      let response: ModelResponse
      try {
        response = await opts.client.stream(
          {
            model: opts.model,
            system: opts.systemPrompt,
            messages,
            tools: apiTools,
            maxTokens: opts.maxTokens,
            thinking: opts.thinking,
            effort: opts.effort,
            promptCaching: opts.promptCaching,
            sharedTools: sharedTools === -1 ? apiTools.length : sharedTools
          },
          handlers,
          signal
        )
      } catch (err) {
        if (err instanceof ModelAbortedError) {
          const kept = keepablePartial(err.partial)
          if (kept.length) append({ role: 'assistant', content: kept })
          send({ type: 'turn_end', turn, stopReason: 'aborted' })
          return finish('stopped')
        }
        const message = err instanceof Error ? err.message : String(err)
        send({ type: 'error', message, retrying: false })
        send({ type: 'turn_end', turn, stopReason: 'error' })
        return finish('failed', message)
      }

      usage = addUsage(usage, response.usage)
      stopReason = response.stopReason
      send({ type: 'usage', usage: response.usage, model: response.model })
      // The API returns an empty message now and then; an empty one cannot be sent back.
      if (response.content.length) append({ role: 'assistant', content: response.content })

      const calls: ToolCall[] = response.content
        .filter((b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use')
        .map((b) => ({ id: b.id, name: b.name, input: b.input, inputError: response.inputErrors[b.id] }))
      if (calls.length) {
        toolUses += calls.length
        const outcomes = await runToolCalls(calls, {
          tools,
          cwd: opts.cwd,
          agentId,
          signal,
          canUseTool: opts.canUseTool,
          emit: send,
          maxConcurrency: opts.maxToolConcurrency ?? Infinity
        })
        pending = outcomes.map((o) => ({ type: 'tool_result', tool_use_id: o.id, content: o.content, ...(o.isError ? { is_error: true } : {}) }))
        send({ type: 'turn_end', turn, stopReason })
        continue
      }
      send({ type: 'turn_end', turn, stopReason })

      if (stopReason === 'max_tokens' && recoveries < MAX_TOKENS_RECOVERIES) {
        recoveries++
        pending = [{ type: 'text', text: MAX_TOKENS_NUDGE }]
        continue
      }
      // Messages that arrived while the agent worked are delivered before it is allowed to finish.
      const late = inboxBlocks(opts.drainInbox?.() ?? [])
      if (late.length) {
        pending = late
        continue
      }
      const more = await opts.beforeFinish?.(lastAssistantText(messages.slice(historyLength)))
      if (more) {
        pending = [{ type: 'text', text: more }]
        continue
      }
      return finish('completed')
    }
  } catch (err) {
    // A bug here or in a consumer (emit threw) still ends in a result, never a throw at the parent.
    const message = `Internal error in the agent loop: ${err instanceof Error ? err.message : String(err)}`
    try {
      send({ type: 'error', message, retrying: false })
    } catch {}
    return finish('failed', message)
  }
}
