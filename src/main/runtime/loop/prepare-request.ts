// Phase 2, prepare the request: the context window first (compaction at the threshold, compaction/), then, for
// each attempt, the request itself: the conversation as the context control sends it (old tool results
// cleared), checked to repeat what this agent sent before, with the run's tools, limits and cache settings.
// When requests that share a prefix go out (the prompt cache's gate) is the model client's (model/cache-sharing.ts).
import type { ModelRequest } from '../model/types'
import type { RunState } from './run-state'
import type { AgentRunResult } from './types'

/** Compacts the conversation when it is due; the run's end when it was stopped meanwhile. */
export async function prepareContext(run: RunState, turn: number): Promise<AgentRunResult | null> {
  if (!run.context) return null
  const compacted = await run.context.beforeRequest(run.messages, run.io)
  if (compacted) run.replaceMessages(compacted)
  if (!run.signal.aborted) return null
  run.send({ type: 'turn_end', turn, stopReason: 'aborted' })
  return run.finish('stopped')
}

/** The conversation as this attempt sends it: old tool results cleared by the context control, if any. */
export type SentConversation = Pick<ModelRequest, 'messages' | 'contextManagement'>

export function conversationToSend(run: RunState): SentConversation {
  return run.context?.request(run.messages) ?? { messages: run.messages }
}

/** The model request for this attempt. Throws when the history sent before was changed (a bug of ours). */
export function requestFor(run: RunState, sent: SentConversation): ModelRequest {
  const { model, systemPrompt: system, thinking, effort, promptCaching, cacheFill, sentHistory } = run.opts
  // What this agent sent before is sent again as it was (history is append-only): a bug of ours fails here.
  sentHistory?.check(sent.messages)
  const { apiTools: tools, maxTokens, sharedTools } = run
  const request: ModelRequest = { model, system, messages: sent.messages, tools, maxTokens, thinking, effort, promptCaching, sharedTools }
  if (cacheFill) request.cacheFill = cacheFill
  if (sent.contextManagement) request.contextManagement = sent.contextManagement
  return request
}
