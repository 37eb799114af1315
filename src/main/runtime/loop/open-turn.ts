// Phase 1, open the turn: the stops asked before a turn (the run was stopped, the turn limit), then the user
// message that opens it: what waits (the prompt, tool results, a nudge), the inbox, the critical reminder.
import { reminderBlock } from './conversation'
import type { Ended, RunState } from './run-state'
import { firstStop } from './stop'

/** The new turn's number, or the run's end. */
export function openTurn(run: RunState): { turn: number } | Ended {
  if (run.signal.aborted) {
    run.flushPending()
    return { end: run.finish('stopped') }
  }
  const ceiling = firstStop(run.stops, 'turn', { turns: run.numTurns })
  if (ceiling) {
    run.flushPending()
    const ended = run.finish('max_turns', ceiling.message, ceiling.limit)
    // Said where the agent's work is shown, not only in its status.
    run.send({ type: 'error', message: ended.error!, retrying: false })
    return { end: ended }
  }
  const turn = ++run.numTurns
  run.send({ type: 'turn_start', turn })
  const inbox = run.takeInbox()
  const opening = [...(run.pending ?? []), ...inbox.blocks]
  const delivered = [...run.pendingIds, ...inbox.ids]
  run.pending = null
  run.pendingIds = []
  if (opening.length) {
    if (run.opts.criticalSystemReminder) opening.push(reminderBlock(run.opts.criticalSystemReminder))
    run.append({ role: 'user', content: opening }, delivered)
  }
  return { turn }
}
