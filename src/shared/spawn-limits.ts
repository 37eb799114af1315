// The limits a session's agents run under and their defaults. Settings (store) gives them defaults and
// orchestration enforces them (orchestration/limits.ts); they live here, below both, so the store never
// imports orchestration.

export interface SpawnLimits {
  /** Subagents running at once; further spawns wait in a queue (status `queued`). */
  maxConcurrent: number
  /** Deepest allowed nesting: the main agent is depth 0, its subagents depth 1. */
  maxDepth: number
  /** Total subagents one session may create. */
  maxAgentsPerSession: number
  /** Session spend ceiling in USD; 0 or Infinity means no ceiling. */
  budgetUsd: number
  /** Session ceiling in tokens (input, output and cache, every agent together); 0 means no ceiling. */
  budgetTokens: number
  /** Turns of any agent's run (the main agent's and every subagent's) that has no maxTurns of its own. */
  maxTurns: number
}

export const DEFAULT_LIMITS: SpawnLimits = { maxConcurrent: 20, maxDepth: 3, maxAgentsPerSession: 200, budgetUsd: 0, budgetTokens: 0, maxTurns: 200 }
