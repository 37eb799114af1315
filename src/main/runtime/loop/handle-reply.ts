// Phase 4, handle the reply: its usage and stop reason are counted, a tool call the output limit cut off ends
// the run (its input is incomplete), and the assistant message joins the conversation. What it asks for is
// the turn's tool calls (none: the agent may be done). A reply whose calls started while it streamed
// (early-calls.ts) is kept whatever happened to it: cut short by a failed stream, the model is told so with
// its results; with a call max_tokens cut, that call is answered as not run.
import type { ContentBlock } from '../../../shared/events'
import { modelMaxTokens } from '../model/effort'
import { DEFAULT_MAX_TOKENS } from '../model/request-body'
import type { ModelResponse } from '../model/types'
import type { EarlyCalls } from './early-calls'
import type { ToolCall } from './run-tools'
import type { Ended, RunState } from './run-state'

export function handleReply(run: RunState, turn: number, response: ModelResponse, early: EarlyCalls): { calls: ToolCall[] } | Ended {
  run.addUsage(response.usage)
  run.stopReason = response.stopReason
  run.send({ type: 'usage', usage: response.usage, model: response.model })
  const cutShort = response.cutShort
  if (cutShort) {
    // Calls of the reply had started when its stream failed (early-calls.ts): it ends where it got to.
    run.send({
      type: 'error',
      message: `The reply was cut short (${cutShort.replace(/\.$/, '')}) after calls in it had started. It was not asked again: the agent goes on with the calls it made.`,
      retrying: false,
      notice: true
    })
    run.replyNote = `Your previous reply was cut short (${cutShort.replace(/\.$/, '')}): the tool calls in it above ran, and their results are above; anything after them was lost. Go on from here, and make again any call you had not finished.`
  }
  let notRun: { id: string; why: string } | null = null
  if (response.cutToolUse && early.committed) {
    // Calls of the reply had started, so it is kept and not asked again: the cut call is answered as not run.
    const cut = response.cutToolUse
    const limit = (run.maxTokens ?? DEFAULT_MAX_TOKENS).toLocaleString('en-US')
    run.maxTokens = Math.max(run.maxTokens ?? DEFAULT_MAX_TOKENS, modelMaxTokens(run.opts.model))
    notRun = {
      id: cut.id,
      why: `${cut.name} was not run: your reply reached its output limit (max_tokens ${limit}) in the middle of this call, so its input is incomplete. The calls before it ran. Make this call again in full.`
    }
  } else if (response.cutToolUse) {
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
    .map((b) => ({ id: b.id, name: b.name, input: b.input, inputError: response.inputErrors[b.id], ...(b.id === notRun?.id ? { refused: notRun.why } : {}) }))
  return { calls }
}
