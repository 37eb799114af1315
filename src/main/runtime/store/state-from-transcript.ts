// An agent's state.json rebuilt from its transcript, for when the file is missing (a crash before its first
// write), does not parse, or does not validate. The transcript is the record of what happened; state.json
// only saves reading it. What the transcript cannot say is taken as the safe choice: not stopped by the
// person (a run the person stopped ended `stopped`, which is never resumed anyway).
import type { AgentEndEvent, AgentEvent, AgentStartEvent } from '../../../shared/events'
import type { AgentState } from './agent-state'

export function stateFromTranscript(events: readonly AgentEvent[], ids: { sessionId: string; agentId: string; sessionCwd: string }): AgentState | null {
  if (!events.length) return null
  let start: AgentStartEvent | null = null
  let end: AgentEndEvent | null = null
  let turns = 0
  // One run that had a worktree says the agent is an isolated one, even once a run removed it (no changes).
  let isolated = false
  for (const e of events) {
    if (e.type === 'agent_start') {
      start = e
      if (e.worktree) isolated = true
      end = null
    } else if (e.type === 'agent_end') end = e
    else if (e.type === 'turn_start') turns++
  }
  // Without an agent_start the transcript cannot say what the agent is (it never ran: only `queued` notes).
  if (!start) return null
  const first = events[0]
  const last = events[events.length - 1]
  const agentType = start.agentType
  // A worktree agent's transcript names its worktree; the checkout it was made from is the session's folder.
  const worktree = end?.worktree ? (end.worktree.kept ? { path: end.worktree.path, branch: end.worktree.branch } : undefined) : start.worktree
  return {
    version: 1,
    agentId: ids.agentId,
    sessionId: ids.sessionId,
    agentType,
    definition: { name: agentType, source: first.parentAgentId === null ? 'built-in' : 'project' },
    model: start.model,
    turnCount: turns,
    status: end ? end.status : 'running',
    stoppedByUser: false,
    ...(isolated ? { isolation: 'worktree' as const } : {}),
    ...(worktree ? { worktree } : {}),
    cwd: isolated ? ids.sessionCwd : start.cwd,
    parentAgentId: start.parentAgentId,
    parentToolUseId: start.parentToolUseId,
    ...(start.name ? { name: start.name } : {}),
    ...(start.background ? { background: true } : {}),
    updatedAt: last.ts
  }
}
