// A background agent that shows no activity for its stall timeout. A run that waits on a model or a tool asks
// no condition, so this guard is a timer that aborts the run (runs/agent-run.ts watchStall); its verdict is
// here with the others, one sentence for the agent's status and its result. It carries no `limit`: the run
// ends `failed`, as it always has.
import type { StopVerdict } from './stop-condition'

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`

export const stallVerdict = (ms: number): StopVerdict => ({
  by: 'stall',
  message: `The background agent showed no activity for ${seconds(ms)} and was stopped (its stall timeout); its output so far is kept.`
})
