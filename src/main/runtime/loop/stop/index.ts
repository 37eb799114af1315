// Every guard that ends a runaway agent, as one list (see stop-condition.ts). The loop builds each run's
// list from its options: the turn ceiling (`turn`), then the conditions its caller adds (`stopWhen`: the
// subtree budget, runs/budget.ts), then a hook's `continue: false` and the no-progress streak (`tools`).
// The session's own client asks the session's conditions before every call any agent makes (its budget, and
// agents that keep spawning past its limit: orchestration/runs/budget.ts `sessionStops`). Two guards are not
// predicates of a run and stay where they act: a background agent's stall is a timer that aborts it
// (runs/agent-run.ts; its verdict is ./stall.ts), and a spawn past the depth, count or budget limit is refused as the Agent call's
// result (runs/limits.ts SpawnGate.refusal), not by stopping the parent.
import type { AgentLoopOptions } from '../types'
import { hookHalt } from './hook-halt'
import { noProgress } from './no-progress'
import type { StopCondition } from './stop-condition'
import { turnLimit } from './turn-limit'

export { firstStop, guardedClient, StopError, type CallOutcome, type StopCondition, type StopMoment, type StopState, type StopVerdict } from './stop-condition'
export { DEFAULT_MAX_REPEATED_FAILURES, FailureStreak, noProgress } from './no-progress'
export { turnLimit, turnLimitNote } from './turn-limit'
export { hookHalt } from './hook-halt'
export { stallVerdict } from './stall'

/** One run's stop list, in the order its conditions are asked. */
export function runStops(opts: Pick<AgentLoopOptions, 'maxTurns' | 'maxTurnsFrom' | 'stopWhen' | 'halted' | 'maxRepeatedFailures'>): StopCondition[] {
  return [turnLimit(opts.maxTurns, opts.maxTurnsFrom), ...(opts.stopWhen ?? []), hookHalt(opts.halted), noProgress(opts.maxRepeatedFailures)]
}
