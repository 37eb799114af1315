// Session summaries for the UI, from the store (past sessions) or a live session.
import type { AgentStartEvent, PermissionRequestEvent } from '../../../shared/events'
import type { SessionSummary } from '../../../shared/ipc-contract'
import { redactValue } from '../../../shared/redact'
import { endsOnQuestion } from '../../../shared/view/question'
import type { AgentSession } from '../orchestration'
import { isFinished } from '../orchestration'
import { sessionAsksYou, type SessionIndex, type SessionSummary as StoredSummary } from '../store'
import { currentProcess } from '../store/process-identity'
import type { LockOwner } from '../store/session-lock'

/** The process running a session elsewhere, as the UI shows it. */
export function runningElsewhereView(owner: LockOwner): NonNullable<SessionSummary['runningElsewhere']> {
  return { app: owner.app, pid: owner.pid, ...(owner.hostname !== currentProcess().hostname ? { host: owner.hostname } : {}), since: owner.acquiredAt }
}

export function storedSummaryView(s: StoredSummary, demo: boolean): SessionSummary {
  return {
    sessionId: s.sessionId,
    title: s.title,
    cwd: s.cwd,
    status: s.status,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    costUsd: s.costUsd,
    agentCount: s.agentCount,
    ...(s.asksYou ? { asksYou: true } : {}),
    ...(demo ? { demo: true } : {})
  }
}

export function openedSummaryView(index: SessionIndex, demo: boolean): SessionSummary {
  const main = Object.values(index.agents).find((a) => a.parentAgentId === null)
  return {
    sessionId: index.sessionId,
    title: index.title,
    cwd: index.cwd,
    status: index.status,
    createdAt: index.createdAt,
    updatedAt: index.updatedAt,
    costUsd: index.costUsd,
    agentCount: Object.keys(index.agents).length,
    ...(main?.model ? { model: main.model } : {}),
    ...(sessionAsksYou(index) ? { asksYou: true } : {}),
    ...(demo ? { demo: true } : {})
  }
}

export function liveSummaryView(
  session: AgentSession,
  meta: { title: string; createdAt: number; updatedAt: number; demo: boolean; priorCostUsd: number; starts?: ReadonlyMap<string, AgentStartEvent> }
): SessionSummary {
  const agents = session.registry.all()
  const main = session.registry.get(session.mainAgentId)
  const running = agents.some((a) => !isFinished(a.status))
  const status = main ? (running && isFinished(main.status) ? 'running' : main.status) : 'queued'
  // A subagent blocked on a request leaves the main agent "running": the row says the session waits.
  const requests = session.pendingPermissions()
  const waitingPermissions = requests.length
  return {
    sessionId: session.sessionId,
    title: meta.title,
    cwd: session.cwd,
    status: waitingPermissions > 0 && !isFinished(status) ? 'waiting_permission' : status,
    waitingPermissions,
    // Redacted as the events that carried them were: the session's bus redacts what it sends, not what the broker holds.
    ...(waitingPermissions ? { pendingRequests: { requests: redactValue(requests), agents: askingAgents(requests, meta.starts) } } : {}),
    createdAt: meta.createdAt,
    updatedAt: meta.updatedAt,
    costUsd: meta.priorCostUsd + session.registry.totalUsage().costUsd,
    // A reopened session counts its agents from before the restart too, loaded again or not.
    agentCount: new Set([...(session.reopened?.agentIds ?? []), ...agents.map((a) => a.id)]).size,
    ...(main ? { model: main.model } : {}),
    ...(main?.status === 'completed' && !running && endsOnQuestion(main.lastResult?.result) ? { asksYou: true } : {}),
    ...(meta.demo ? { demo: true } : {})
  }
}

/** The agent_start of every agent a waiting request names (the one asking, and the one it reached). */
function askingAgents(requests: PermissionRequestEvent[], starts: ReadonlyMap<string, AgentStartEvent> | undefined): AgentStartEvent[] {
  const ids = new Set(requests.flatMap((r) => [r.requestingAgentId, r.agentId]))
  return [...ids].flatMap((id) => starts?.get(id) ?? [])
}
