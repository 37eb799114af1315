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
  /** What each subagent and its own subagents may spend when neither its Agent call nor its definition says (USD); 0: no limit. */
  subagentBudgetUsd: number
  /** The same in tokens; 0: no limit. */
  subagentBudgetTokens: number
  /** The share of any budget (percent) at which a warning goes out before it stops anything. */
  budgetWarnPercent: number
  /** Ask the person before a turn's subagents start when their estimate's high end is above this (USD); 0: never ask. */
  approveFanoutAboveUsd: number
}

/**
 * 128 subagents at once: twice the widest fan-out we measure (64 start in one wave), while 128 agents stay
 * within a desktop's limits: about 8 file descriptors each at their peak (a keep-alive socket, transcript
 * and state files, a tool's child process and its pipes) is ~1,000, under the common soft limit of 1,024,
 * and a few MB each (conversation, capped tool outputs) is well under a GB. How many of them talk to the
 * model at once is not this number's business: the rate limiter (model/rate-limiter.ts) learns that from
 * the API's answers and queues the rest.
 */
export const DEFAULT_MAX_CONCURRENT = 128

export const DEFAULT_LIMITS: SpawnLimits = {
  maxConcurrent: DEFAULT_MAX_CONCURRENT,
  maxDepth: 3,
  maxAgentsPerSession: 200,
  budgetUsd: 0,
  budgetTokens: 0,
  maxTurns: 200,
  subagentBudgetUsd: 0,
  subagentBudgetTokens: 0,
  budgetWarnPercent: 80,
  approveFanoutAboveUsd: 0
}
