// The `--output-format json` result of a run: the answer, its cost, and what the subagents did.
import type { AgentEndEvent, AgentEvent, AgentStartEvent } from '../../shared/events'
import type { Usage } from '../../shared/usage'
import type { AgentRunResult } from '../runtime/loop/types'
import type { AgentSession } from '../runtime/orchestration'

export interface RunSummary {
  result: string
  is_error: boolean
  status: AgentRunResult['status']
  error?: string
  num_turns: number
  duration_ms: number
  session_id: string
  usage: Usage
  total_cost_usd: number
  subagents: { spawned: number; completed: number; failed: number; max_depth: number; by_type: Record<string, number> }
  /** Conversations compacted during the run (any agent's), and compactions that failed. */
  compactions: { done: number; failed: number }
}

export function summarizeRun(session: AgentSession, result: AgentRunResult, events: AgentEvent[], durationMs: number): RunSummary {
  const starts = events.filter((e): e is AgentStartEvent => e.type === 'agent_start' && e.depth > 0)
  const compactions = events.filter((e) => e.type === 'compaction')
  const ends = events.filter((e): e is AgentEndEvent => e.type === 'agent_end' && e.agentId !== session.mainAgentId)
  const byType: Record<string, number> = {}
  for (const s of starts) byType[s.agentType] = (byType[s.agentType] ?? 0) + 1
  const usage = session.registry.totalUsage()
  return {
    result: result.result,
    is_error: result.status !== 'completed',
    status: result.status,
    ...(result.error ? { error: result.error } : {}),
    num_turns: result.numTurns,
    duration_ms: durationMs,
    session_id: session.sessionId,
    usage,
    total_cost_usd: usage.costUsd,
    subagents: {
      spawned: starts.length,
      completed: ends.filter((e) => e.status === 'completed').length,
      failed: ends.filter((e) => e.status === 'failed').length,
      max_depth: starts.reduce((m, s) => Math.max(m, s.depth), 0),
      by_type: byType
    },
    compactions: { done: compactions.filter((e) => !e.error).length, failed: compactions.filter((e) => e.error).length }
  }
}
