// What one `fanout run` did, counted from the session's events as they happen: the main agent's turns over
// every run of this invocation (a coordinator woken by eleven reports made eleven runs, not one), usage per
// model, time spent waiting on the API, the subagents started (a resume is not a new agent), how they ended,
// which spawns the limits refused, and the tool calls that were denied. The result messages are built from it.
import type { AgentEndEvent, AgentEvent, AgentLimit, AgentStartEvent } from '../../../shared/events'
import { addUsage, emptyUsage, type Usage } from '../../../shared/usage'
import type { FanoutEstimate } from '../../../shared/budget'

export interface PermissionDenial {
  tool_name: string
  tool_use_id: string
  tool_input: Record<string, unknown>
}

export interface SubagentStats {
  spawned: number
  requested: { background: number; foreground: number; unset: number }
  started_in_background: number
  max_depth: number
  spawned_by_subagents: number
  completed: number
  failed: number
  killed: { parent: number; user: number; system: number }
  refused: { depth_limit: number; concurrency_limit: number; budget: number; session_limit: number }
  by_type: Record<string, number>
  /** Fanout: runs of agents that already existed (SendMessage to a finished agent, Agent with resume). */
  resumed: number
  /** Fanout: subagent runs a runaway guard ended (sessions-and-crashes.md): which agent, how, which limit, why. */
  limited: Array<{ agent_id: string; agent_type: string; status: AgentEndEvent['status']; limit: AgentLimit; reason: string }>
}

export class RunTally {
  readonly startedAt = Date.now()
  /** Model calls of the main agent, over every run of this invocation. */
  mainTurns = 0
  /** The main agent's own usage (Claude Code's `usage`: the main loop only). */
  mainUsage: Usage = emptyUsage()
  readonly byModel = new Map<string, Usage>()
  /** Summed time from each model call's start to its end, every agent's. */
  apiMs = 0
  lastStopReason: string | null = null
  /** Each agent's own usage (its children's not included), summed over its runs, by agent id in start order. */
  readonly byAgent = new Map<string, { type: string; model: string; status: string; usage: Usage }>()
  readonly denials: PermissionDenial[] = []
  /** Fanout: conversations compacted during the run (any agent's), and compactions that failed. */
  readonly compactions = { done: 0, failed: 0 }
  /** Fanout: what each fan-out was estimated to cost before it started (docs/budgets.md). */
  readonly estimates: Array<{ agent_id: string } & FanoutEstimate> = []
  /** Fanout: budgets that warned or were reached, on the agent holding them. */
  readonly budgets: Array<{
    agent_id: string
    level: 'warning' | 'reached'
    from: string
    limit: { usd?: number; tokens?: number }
    spent: { usd: number; tokens: number }
  }> = []
  readonly stats: SubagentStats = {
    spawned: 0,
    requested: { background: 0, foreground: 0, unset: 0 },
    started_in_background: 0,
    max_depth: 0,
    spawned_by_subagents: 0,
    completed: 0,
    failed: 0,
    killed: { parent: 0, user: 0, system: 0 },
    refused: { depth_limit: 0, concurrency_limit: 0, budget: 0, session_limit: 0 },
    by_type: {},
    resumed: 0,
    limited: []
  }
  private readonly seen = new Set<string>()
  private readonly starts = new Map<string, AgentStartEvent>()
  private readonly turnStarted = new Map<string, number>()

  constructor(private readonly mainAgentId: string) {}

  note(e: AgentEvent): void {
    switch (e.type) {
      case 'agent_start':
        this.starts.set(e.agentId, e)
        this.agent(e.agentId).type = e.agentType
        this.agent(e.agentId).model = e.model
        if (e.depth === 0) return
        if (this.seen.has(e.agentId)) {
          this.stats.resumed++
          return
        }
        this.seen.add(e.agentId)
        this.stats.spawned++
        this.stats.requested[e.background ? 'background' : 'foreground']++
        if (e.background) this.stats.started_in_background++
        if (e.depth > 1) this.stats.spawned_by_subagents++
        this.stats.max_depth = Math.max(this.stats.max_depth, e.depth)
        this.stats.by_type[e.agentType] = (this.stats.by_type[e.agentType] ?? 0) + 1
        return
      case 'agent_end':
        this.agent(e.agentId).status = e.status
        if (e.agentId === this.mainAgentId) return
        if (e.status === 'completed') this.stats.completed++
        else if (e.status === 'failed' || e.status === 'max_turns') this.stats.failed++
        else if (e.status === 'stopped') this.stats.killed[this.starts.get(e.agentId)?.background ? 'parent' : 'user']++
        if (e.limit)
          this.stats.limited.push({
            agent_id: e.agentId,
            agent_type: this.starts.get(e.agentId)?.agentType ?? '',
            status: e.status,
            limit: e.limit,
            reason: e.error ?? ''
          })
        return
      case 'turn_start':
        this.turnStarted.set(e.agentId, e.ts)
        if (e.agentId === this.mainAgentId) this.mainTurns++
        return
      case 'turn_end': {
        const at = this.turnStarted.get(e.agentId)
        if (at !== undefined) this.apiMs += Math.max(0, e.ts - at)
        if (e.agentId === this.mainAgentId) this.lastStopReason = e.stopReason
        return
      }
      case 'compaction':
        this.compactions[e.error ? 'failed' : 'done']++
        return
      case 'estimate':
        this.estimates.push({ agent_id: e.agentId, ...e.estimate })
        return
      case 'budget':
        this.budgets.push({ agent_id: e.agentId, level: e.level, from: e.from, limit: e.limit, spent: e.spent })
        return
      case 'usage':
        this.byModel.set(e.model, addUsage(this.byModel.get(e.model) ?? emptyUsage(), e.usage))
        if (e.agentId === this.mainAgentId) this.mainUsage = addUsage(this.mainUsage, e.usage)
        this.agent(e.agentId).usage = addUsage(this.agent(e.agentId).usage, e.usage)
        return
      default:
    }
  }

  private agent(id: string) {
    let a = this.byAgent.get(id)
    if (!a) this.byAgent.set(id, (a = { type: '', model: '', status: 'running', usage: emptyUsage() }))
    return a
  }

  /** A denied tool call (the permission layer's onDenied). */
  denied(toolName: string, toolUseId: string | undefined, input: unknown): void {
    this.denials.push({
      tool_name: toolName,
      tool_use_id: toolUseId ?? '',
      tool_input: input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {}
    })
  }

  /** The spawn gate's refusals (Fanout queues past maxConcurrent instead of refusing, so concurrency_limit stays 0). */
  refusals(refused: { depth_limit: number; session_limit: number; budget: number }): void {
    Object.assign(this.stats.refused, refused)
  }
}
