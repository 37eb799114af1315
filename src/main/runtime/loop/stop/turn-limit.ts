// The turn ceiling: every agent has one (its own maxTurns, else the setting every agent gets).
import type { StopCondition } from './stop-condition'

export function turnLimit(maxTurns: number | undefined, from?: string): StopCondition {
  return {
    name: 'turn_limit',
    at: 'turn',
    check: ({ turns }) =>
      maxTurns !== undefined && turns >= maxTurns
        ? { limit: 'max_turns', message: `Stopped at the limit of ${maxTurns} turns${from ? ` (${from})` : ''} before finishing.` }
        : null
  }
}

/** Added to the result the parent receives, after the agent's last words, when the turn limit cut it short. */
export const turnLimitNote = (maxTurns: number | undefined) => `[Stopped after reaching the limit of ${maxTurns} turns before finishing the task.]`
