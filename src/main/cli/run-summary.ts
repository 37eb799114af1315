// The `--output-format json` result of a run: the answer, its cost, and what the subagents did, with each
// agent's own usage and cost (cache reads and writes counted apart, priced as the API bills them).
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
  /** Every agent of the run, the main one first: its own usage (its children's not included) and cost. */
  agents: Array<{ agent_id: string; agent_type: string; model: string; status: string; usage: Usage; cost_usd: number }>
}

export function summarizeRun(session: AgentSession, result: AgentRunResult, events: AgentEvent[], durationMs: number): RunSummary {
  const starts = events.filter((e): e is AgentStartEvent => e.type === 'agent_start' && e.depth > 0)
  const ends = events.filter((e): e is AgentEndEvent => e.type === 'agent_end' && e.agentId !== session.mainAgentId)
  const byType: Record<string, number> = {}
  for (const s of starts) byType[s.agentType] = (byType[s.agentType] ?? 0) + 1
  const usage = session.registry.totalUsage()
  const startOf = new Map(events.filter((e): e is AgentStartEvent => e.type === 'agent_start').map((e) => [e.agentId, e]))
  const agents = events
    .filter((e): e is AgentEndEvent => e.type === 'agent_end')
    .map((e) => ({ agent_id: e.agentId, agent_type: startOf.get(e.agentId)?.agentType ?? '', model: startOf.get(e.agentId)?.model ?? '', status: e.status, usage: e.usage, cost_usd: e.usage.costUsd }))
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
    agents
  }
}
