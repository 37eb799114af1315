// "Waiting for the model": from a request going out (model_request) until anything of its reply arrives — a
// delta, a tool call starting, the whole message, its usage — or it fails, or the turn or the agent ends.
// Each wait is a span in the agent's `waits` (kind 'model'), so tiles, panels and the tree show it open with
// its elapsed time and the timeline draws it hatched, like a permission wait.
import type { ModelRequestEvent } from '../events'
import { closeWaits, openWait } from './agent-status'
import type { SessionDraft } from './session-draft'
import type { AgentState } from './session-state'

export function modelRequest(a: AgentState, e: ModelRequestEvent): void {
  // A retry's request follows its failed attempt: whatever that attempt left open ends here.
  closeWaits(a, e.ts)
  a.waits.push({ kind: 'model', start: e.ts, end: null })
}

/** Something of the reply arrived (or the call is over): the agent no longer waits on the model. */
export function modelAnswered(d: SessionDraft, agentId: string, ts: number): void {
  // Read before writing: a delta of a reply already streaming leaves the agent object as it was.
  if (openWait(d.peekAgent(agentId))?.kind !== 'model') return
  closeWaits(d.agent(agentId), ts)
}

/** Since when the agent has waited on the model, or null when it does not. */
export function waitingForModelSince(a: Pick<AgentState, 'waits'>): number | null {
  const w = openWait(a)
  return w?.kind === 'model' ? w.start : null
}

/** The time an agent spent waiting on the model in all (an open wait counted up to `now`). */
export function modelWaitMs(a: Pick<AgentState, 'waits'>, now: number): number {
  let ms = 0
  for (const w of a.waits) if (w.kind === 'model') ms += Math.max(0, (w.end ?? now) - w.start)
  return ms
}
