// Phase 7, after a reply with no tool calls: the agent goes on for another turn when there is more for it (a
// reply cut off by max_tokens is asked to continue; messages that arrived while it worked; a Stop or
// SubagentStop hook that asks for more), and otherwise finishes.
import { MAX_TOKENS_NUDGE } from './conversation'
import type { RunState } from './run-state'
import type { AgentRunResult } from './types'

// How many times a reply cut off by max_tokens is asked to continue before the run accepts it as final.
const MAX_TOKENS_RECOVERIES = 3

/** Null when the agent takes another turn (what opens it is waiting in `run.pending`), else the run's result. */
export async function nextTurnOrFinish(run: RunState, turn: number): Promise<AgentRunResult | null> {
  run.send({ type: 'turn_end', turn, stopReason: run.stopReason })
  if (run.stopReason === 'max_tokens' && run.recoveries < MAX_TOKENS_RECOVERIES) {
    run.recoveries++
    run.pending = [{ type: 'text', text: MAX_TOKENS_NUDGE }]
    return null
  }
  // Messages that arrived while the agent worked are delivered before it is allowed to finish.
  const late = run.takeInbox()
  if (late.blocks.length) {
    run.pending = late.blocks
    run.pendingIds = late.ids
    return null
  }
  const more = await run.opts.beforeFinish?.(run.runText)
  // A Stop/SubagentStop hook's `continue: false`: the same signal as hook_halt's, asked as the agent finishes.
  const halt = run.opts.halted?.()
  if (halt) return { ...run.finish('completed'), hookStop: { terminal: 'stop_hook_prevented', reason: halt.reason } }
  if (more) {
    run.pending = [{ type: 'text', text: more }]
    return null
  }
  return run.finish('completed')
}
