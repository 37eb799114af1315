// Agents a crash or a kill cut off. Their transcripts stop inside a run: no agent_end follows its last
// agent_start. Once the process that wrote the session is gone, such a run is over for good; it is closed
// with an `agent_end` of status `interrupted`, timed at the session's last recorded moment, so that every
// reader agrees it is not running and when it stopped: the index, the UI's fold, the process that takes
// the session over (which records these ends, see session-recorder.ts), and a resume.
import type { AgentEndEvent } from '../../../shared/events'
import type { RecordedEvent } from './transcript/migrations'
import { addUsage, emptyUsage } from '../../../shared/usage'

export const INTERRUPTED_AGENT_ERROR = 'Fanout stopped (it was closed or crashed) while this agent was working.'
export const NEVER_STARTED_ERROR = 'It was still waiting to start when Fanout stopped (it was closed or crashed); nothing of it ran.'

/**
 * The agent_end an agent's transcript lacks when it stops inside a run; null when its last run ended (or
 * it has no events). A transcript whose agent_start was lost counts as one run from its first event.
 */
export function interruptedEnd(events: readonly RecordedEvent[], stoppedAt?: { ts: number; seq: number }): (AgentEndEvent & { seq: number }) | null {
  if (!events.length) return null
  let start = 0
  for (let i = events.length - 1; i >= 0; i--) {
    const type = events[i].type
    if (type === 'agent_end') return null
    if (type === 'agent_start') {
      start = i
      break
    }
  }
  // As the loop counts a run: its turns, tool runs and usage.
  let usage = emptyUsage()
  let numTurns = 0
  let toolUses = 0
  for (let i = start; i < events.length; i++) {
    const e = events[i]
    if (e.type === 'usage') usage = addUsage(usage, e.usage)
    else if (e.type === 'turn_start') numTurns = e.turn
    else if (e.type === 'tool_run') toolUses++
  }
  const first = events[start]
  const last = events[events.length - 1]
  // Only `queued` notes, never an agent_start: the agent never ran. It is over (stopped), not cut off mid-work.
  const neverStarted = first.type !== 'agent_start' && events.every((e) => e.type === 'status')
  // Who ended: the agent and where it sits, as its first event placed it, in the session its last one names.
  const who = {
    type: 'agent_end' as const,
    agentId: last.agentId,
    parentAgentId: first.parentAgentId,
    parentToolUseId: first.parentToolUseId,
    sessionId: last.sessionId
  }
  if (neverStarted)
    return {
      ...who,
      ts: last.ts,
      seq: last.seq,
      status: 'stopped',
      result: '',
      error: NEVER_STARTED_ERROR,
      numTurns: 0,
      toolUses: 0,
      durationMs: 0,
      usage
    }
  return {
    ...who,
    // When Fanout stopped, as near as the record tells: the session's last recorded moment (`stoppedAt`),
    // for the agent worked (or waited on the model) until then, not only until its own last event.
    ts: Math.max(last.ts, stoppedAt?.ts ?? 0),
    // Its place is after that moment (a replay orders events by seq).
    seq: Math.max(last.seq, stoppedAt?.seq ?? 0),
    status: 'interrupted',
    result: '',
    error: INTERRUPTED_AGENT_ERROR,
    numTurns,
    toolUses,
    durationMs: Math.max(0, Math.max(last.ts, stoppedAt?.ts ?? 0) - first.ts),
    usage
  }
}
