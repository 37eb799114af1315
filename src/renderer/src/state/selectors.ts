// Derived views of the session state. Pure functions of the state (memoized where components call them
// on every render), so components select narrowly and re-render only when their slice changes.
import type { SessionSummary } from '../../../shared/ipc-contract'
import { addUsage, emptyUsage, type Usage } from '../../../shared/usage'
import { AGENT_TOOL_NAMES, type AgentState, type EventsState, type PermissionState, type SessionState, type WaitSpan } from '../../../shared/view/session-state'

/** An agent's usage with every descendant's. */
export function subtreeUsage(session: SessionState, agentId: string): Usage {
  const a = session.agents[agentId]
  if (!a) return emptyUsage()
  return a.children.reduce((sum, c) => addUsage(sum, subtreeUsage(session, c)), a.usage)
}

export interface TreeRow {
  id: string
  depth: number
}

const treeCache = new WeakMap<SessionState['agents'], TreeRow[]>()

/** Agents depth-first from the root (children in start order), then any whose parent is unknown. */
export function treeOrder(session: SessionState): TreeRow[] {
  const cached = treeCache.get(session.agents)
  if (cached) return cached
  const rows: TreeRow[] = []
  const seen = new Set<string>()
  const visit = (id: string, depth: number) => {
    if (seen.has(id) || !session.agents[id]) return
    seen.add(id)
    rows.push({ id, depth })
    for (const c of session.agents[id].children) visit(c, depth + 1)
  }
  for (const id of session.agentOrder) {
    const a = session.agents[id]
    if (a.parentId === null || !session.agents[a.parentId]) visit(id, a.parentId === null ? 0 : a.depth)
  }
  treeCache.set(session.agents, rows)
  return rows
}

/** Requests waiting for the person, oldest first; `replaying`: a session shown as a replay frame (its requests are the past). */
const comingCache = new WeakMap<SessionState['tools'], number>()

/**
 * Agent calls of the session whose agent has not started yet (its input streaming, or the call about to
 * run): the subagents about to appear. Memoized per tools object (it changes only when a tool does).
 */
export function agentsComing(session: SessionState | undefined): number {
  if (!session) return 0
  const cached = comingCache.get(session.tools)
  if (cached !== undefined) return cached
  let n = 0
  for (const id in session.tools) {
    const t = session.tools[id]
    if (AGENT_TOOL_NAMES.has(t.name) && !t.childAgentId && (t.status === 'streaming' || t.status === 'pending' || t.status === 'running')) n++
  }
  comingCache.set(session.tools, n)
  return n
}

export function pendingPermissions(state: EventsState, replaying: string | null = null): PermissionState[] {
  const out: PermissionState[] = []
  for (const s of Object.values(state.sessions)) if (s.id !== replaying) for (const id of s.permissionQueue) out.push(s.permissions[id])
  return out.sort((a, b) => a.ts - b.ts)
}

/**
 * The waiting requests "Always allow" on `request` would also answer: same session, same rule to add
 * (the rule is a prefix or a folder, so an identical suggestion means the same rule covers them). Includes
 * `request`; empty when it suggests no rule.
 */
export function pendingLike(state: EventsState, request: PermissionState): PermissionState[] {
  const rules = request.suggestedRules.join('\n')
  const s = state.sessions[request.sessionId]
  if (!rules || !s) return []
  return s.permissionQueue.map((id) => s.permissions[id]).filter((p) => p && p.toolName === request.toolName && p.suggestedRules.join('\n') === rules)
}

/**
 * A session's cost as every view shows it (its row, the header, the status bar, the summary): the host's
 * figure, pushed with the session's row whenever its cost grows (cache reads and writes at their prices,
 * agents from before a restart included). A replay frame is the session at a past moment: its own fold.
 */
export function sessionCostUsd(
  s: { sessions: readonly SessionSummary[]; events: EventsState; replayingSessionId: string | null },
  sessionId: string | null
): number {
  if (!sessionId) return 0
  if (sessionId === s.replayingSessionId) return s.events.sessions[sessionId]?.usage.costUsd ?? 0
  return s.sessions.find((x) => x.sessionId === sessionId)?.costUsd ?? 0
}

/** The time the agent has worked: its runs added up (not the hours between a crash and its resume), the current one to `now`. */
export function elapsedMs(agent: Pick<AgentState, 'startedAt' | 'endedAt' | 'runStartedAt' | 'priorRunsMs'>, now: number): number {
  return (agent.priorRunsMs ?? 0) + Math.max(0, (agent.endedAt ?? now) - (agent.runStartedAt ?? agent.startedAt))
}

export interface TimelineRow {
  id: string
  depth: number
  start: number
  end: number | null
  tools: Array<{ id: string; name: string; start: number; end: number | null; status: string }>
  waits: WaitSpan[]
  /** When its conversation was compacted. */
  compactions: number[]
}

/** Lifetimes, tool calls and waits of every agent, for the timeline. */
export function timelineRows(session: SessionState): { rows: TimelineRow[]; start: number; end: number | null } {
  const rows = treeOrder(session).map(({ id, depth }) => {
    const a = session.agents[id]
    return {
      id,
      depth,
      start: a.startedAt,
      end: a.endedAt,
      waits: a.waits,
      // Agent calls are drawn as their children's rows, not as marks on the parent.
      tools: a.toolIds
        .map((tid) => session.tools[tid])
        .filter((t) => t && !AGENT_TOOL_NAMES.has(t.name))
        .map((t) => ({ id: t.id, name: t.name, start: t.runStartedAt ?? t.startedAt, end: t.endedAt ?? null, status: t.status })),
      compactions: a.context?.compactedAt ?? []
    }
  })
  const start = rows.length ? Math.min(...rows.map((r) => r.start)) : 0
  const end = rows.some((r) => r.end === null) ? null : Math.max(0, ...rows.map((r) => r.end ?? 0))
  return { rows, start, end }
}
