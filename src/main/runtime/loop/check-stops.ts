// Phase 6, check the stop conditions asked after a turn's tools (loop/stop/: a hook's `continue: false`, the
// no-progress streak, and what the caller added): the first that answers ends the run, with its sentence.
import type { RunState } from './run-state'
import type { ToolCall, ToolCallOutcome } from './run-tools'
import { firstStop } from './stop'
import type { AgentRunResult } from './types'

export function stopAfterTools(run: RunState, calls: ToolCall[], outcomes: ToolCallOutcome[]): AgentRunResult | null {
  const stop = firstStop(run.stops, 'tools', {
    turns: run.numTurns,
    outcomes: outcomes.map((o, k) => ({ ...o, input: run.tools.has(o.name) ? calls[k].input : undefined }))
  })
  if (!stop) return null
  run.flushPending()
  if (stop.hook) return { ...run.finish('completed'), hookStop: { terminal: 'hook_stopped', reason: stop.message } }
  run.send({ type: 'error', message: stop.message, retrying: false })
  return run.finish('failed', stop.message, stop.limit)
}
