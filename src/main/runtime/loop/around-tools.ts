// Phase 5, run the tools, around the one call into tool execution (run-tools.ts, from agent-loop.ts): before it
// the calls are counted and the caller may refuse some (a fan-out's estimate the person declined,
// spawn/fanout-estimate.ts); after it their results wait to open the next turn, with any notes the caller
// adds (e.g. instructions of a folder a tool reached), and the turn ends.
import type { ContentBlock } from '../../../shared/events'
import { reminderBlock } from './conversation'
import type { EarlyCalls } from './early-calls'
import type { RunState } from './run-state'
import type { ToolCall, ToolCallOutcome } from './run-tools'

/** Counts the turn's calls and marks those the caller refuses (never one that started early); returns them. */
export async function beforeTools(run: RunState, calls: ToolCall[], early: EarlyCalls): Promise<ToolCall[]> {
  run.toolUses += calls.length
  const started = new Set(calls.filter((c) => early.has(c.id)).map((c) => c.id))
  const answer = run.opts.beforeTools ? await run.opts.beforeTools(calls, started).catch(() => null) : null
  const refused = answer?.refused
  if (refused) for (const c of calls) if (refused.has(c.id) && !started.has(c.id)) c.refused = refused.get(c.id)
  run.toolsNote = answer?.note
  return calls
}

/** The results become what opens the next turn (with the caller's notes), and the turn ends. */
export async function afterTools(run: RunState, turn: number, calls: ToolCall[], outcomes: ToolCallOutcome[]): Promise<void> {
  const pending: ContentBlock[] = outcomes.map((o) => ({
    type: 'tool_result',
    tool_use_id: o.id,
    content: o.content,
    ...(o.isError ? { is_error: true } : {})
  }))
  run.pending = pending
  if (run.toolsNote) pending.push({ type: 'text', text: run.toolsNote })
  if (run.replyNote) pending.push(reminderBlock(run.replyNote))
  run.toolsNote = undefined
  run.replyNote = undefined
  if (run.opts.afterTools) {
    const inputs = new Map(calls.map((c) => [c.id, c.input]))
    // Extra context only: a failure to read it must not fail the turn.
    const notes = await run.opts.afterTools(outcomes.map((o) => ({ name: o.name, input: inputs.get(o.id), isError: o.isError }))).catch(() => [])
    pending.push(...notes.map(reminderBlock))
  }
  run.send({ type: 'turn_end', turn, stopReason: run.stopReason })
}
