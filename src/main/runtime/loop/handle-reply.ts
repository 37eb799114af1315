// Phase 4, handle the reply: its usage and stop reason are counted, a tool call the output limit cut off ends
// the run (its input is incomplete), and the assistant message joins the conversation. What it asks for is
// the turn's tool calls (none: the agent may be done).
import type { ContentBlock } from '../../../shared/events'
import { DEFAULT_MAX_TOKENS } from '../model/request-body'
import type { ModelResponse } from '../model/types'
import type { ToolCall } from './run-tools'
import type { Ended, RunState } from './run-state'

export function handleReply(run: RunState, turn: number, response: ModelResponse): { calls: ToolCall[] } | Ended {
  run.addUsage(response.usage)
  run.stopReason = response.stopReason
  run.send({ type: 'usage', usage: response.usage, model: response.model })
  if (response.cutToolUse) {
    // Running the call would act on a truncated input, and answering it would hide the cut from the run's
    // result: the agent fails, saying why. Its history keeps the request, so a retry asks it again.
    const limit = (run.maxTokens ?? DEFAULT_MAX_TOKENS).toLocaleString('en-US')
    const message = `The model's reply reached its output limit (max_tokens ${limit}) in the middle of a call to ${response.cutToolUse.name}, so the call was not run: its input is incomplete.`
    run.send({ type: 'error', message, retrying: false })
    run.send({ type: 'turn_end', turn, stopReason: run.stopReason })
    return { end: run.finish('failed', message) }
  }
  // The API returns an empty message now and then; an empty one cannot be sent back.
  if (response.content.length) run.append({ role: 'assistant', content: response.content })
  run.context?.observe(run.messages, response.usage)
  const calls = response.content
    .filter((b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use')
    .map((b) => ({ id: b.id, name: b.name, input: b.input, inputError: response.inputErrors[b.id] }))
  return { calls }
}
