// Store subscriptions keyed by agent. With 64 agents on screen, each tile and card reads its agent through a
// dozen selectors, and every store update ran all of them — ~1,000 a frame while the agents stream, most for
// agents whose state had not moved. A frame whose events are only streamed output (text, thinking, a tool
// call's input being written) or model calls' usage changes nothing but the transcripts, tools, stream marks,
// waits and figures of the agents that wrote them, and the session's own totals; so such an update tells only
// those agents' subscribers. Any other update tells every one of them.
//
// The rule a keyed selector keeps: it reads its own agent's state, or anything that only events other than
// streamed output and usage change (statuses, permissions, tools starting or ending, the UI's own choices). It
// must not read another agent's transcript, stream or figures, nor the session's event counters or totals
// (those are read through the store's own subscription, which every update tells).
import { useCallback, useSyncExternalStore } from 'react'
import type { AgentEvent } from '../../../shared/events'
import { agentKey as keyOf } from './agent-key'
import { get, set, useApp, type AppState } from './app-state'

type Listener = () => void

/** The events that change only their own agent's view (and the session's totals): see the rule above. */
const AGENT_ONLY_TYPES: ReadonlySet<AgentEvent['type']> = new Set<AgentEvent['type']>(['text_delta', 'thinking_delta', 'tool_input_delta', 'usage'])

const listeners = new Map<string, Set<Listener>>()
/** The agents the update being made concerns alone, or null: it may concern any. */
let only: Set<string> | null = null

useApp.subscribe(() => {
  const keys = only
  only = null
  if (keys) {
    for (const key of keys) listeners.get(key)?.forEach((l) => l())
    return
  }
  for (const group of [...listeners.values()]) group.forEach((l) => l())
})

/** Tells `listener` of every store update that may change what `agentId` of `sessionId` shows. */
export function subscribeAgent(sessionId: string, agentId: string, listener: Listener): () => void {
  const key = keyOf(sessionId, agentId)
  let group = listeners.get(key)
  if (!group) listeners.set(key, (group = new Set()))
  group.add(listener)
  return () => {
    group.delete(listener)
    if (!group.size && listeners.get(key) === group) listeners.delete(key)
  }
}

/** A selector of one agent's view, run when an update may concern that agent (the rule above). */
export function useAgentApp<T>(sessionId: string, agentId: string, selector: (s: AppState) => T): T {
  const subscribe = useCallback((l: Listener) => subscribeAgent(sessionId, agentId, l), [sessionId, agentId])
  return useSyncExternalStore(subscribe, () => selector(get()))
}

/**
 * Applies live events to the store: when all of them are streamed output, only their agents' keyed
 * subscribers are told (the store's own subscribers always are).
 */
export function setFromEvents(events: readonly AgentEvent[], update: (s: AppState) => Partial<AppState>): void {
  let keys: Set<string> | null = new Set()
  const { sessions } = get().events
  for (const e of events) {
    // Output of an agent not known yet adds the agent (to its parent's children, its parent's tool): news for all.
    if (!AGENT_ONLY_TYPES.has(e.type) || !sessions[e.sessionId]?.agents[e.agentId]) {
      keys = null
      break
    }
    keys.add(keyOf(e.sessionId, e.agentId))
  }
  only = keys
  try {
    set(update)
  } finally {
    only = null
  }
}
