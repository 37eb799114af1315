// How full an agent's context window is: the tokens of its conversation as of its latest model call
// (AgentState.contextTokens, folded from `usage` events) against the window of the model it runs on. One
// place for the figure every view shows (tiles, panels, cards), so a better source — a window the API
// reports, compaction resetting the count — changes it here.

/** Claude models take 200k tokens; ids marked `[1m]` (the long-context option) a million. */
export const DEFAULT_CONTEXT_WINDOW = 200_000

export function contextWindowOf(model: string | undefined): number {
  return model && /\[1m\]|-1m\b/i.test(model) ? 1_000_000 : DEFAULT_CONTEXT_WINDOW
}

export interface ContextUse {
  tokens: number
  window: number
  /** 0..1 (may pass 1 when a window is larger than we know). */
  fraction: number
}

/** From this share of its window on, an agent's context is shown as running high (tiles: the figure and the meter). */
const CONTEXT_HIGH = 0.8

/** Whether a context use is high enough to be marked (CONTEXT_HIGH). */
export const contextHigh = (use: ContextUse): boolean => use.fraction >= CONTEXT_HIGH

/** The agent's context use, or null before its first model call has answered. */
export function contextUse(agent: {
  contextTokens?: number
  resolvedModel?: string
  model: string
  context?: { tokens: number | null; window: number }
}): ContextUse | null {
  // The agent's own context state (its window from the run's settings, reset by each compaction) when it has one.
  const own = agent.context
  if (own && own.tokens !== null) return { tokens: own.tokens, window: own.window, fraction: own.tokens / own.window }
  if (agent.contextTokens === undefined) return null
  const window = contextWindowOf(agent.resolvedModel ?? agent.model)
  return { tokens: agent.contextTokens, window, fraction: agent.contextTokens / window }
}
