// Session summaries and the replayed session state for the UI, from the store (past sessions) or a live session.
import type { AgentEvent } from '../../../shared/events'
import type { SessionSummary } from '../../../shared/ipc-contract'
import { applyEvents } from '../../../shared/view/reducer'
import { emptyEventsState, emptySession, type SessionState } from '../../../shared/view/session-state'
import type { AgentSession } from '../orchestration'
import { isFinished } from '../orchestration'
import type { OpenedSession, SessionSummary as StoredSummary } from '../store'

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
    ...(demo ? { demo: true } : {})
  }
}

export function openedSummaryView(o: OpenedSession, demo: boolean): SessionSummary {
  const main = Object.values(o.index.agents).find((a) => a.parentAgentId === null)
  return {
    sessionId: o.index.sessionId,
    title: o.index.title,
    cwd: o.index.cwd,
    status: o.index.status,
    createdAt: o.index.createdAt,
    updatedAt: o.index.updatedAt,
    costUsd: o.index.costUsd,
    agentCount: Object.keys(o.index.agents).length,
    ...(main?.model ? { model: main.model } : {}),
    ...(demo ? { demo: true } : {})
  }
}

export function liveSummaryView(session: AgentSession, meta: { title: string; createdAt: number; demo: boolean; priorCostUsd: number }): SessionSummary {
  const agents = session.registry.all()
  const main = session.registry.get(session.mainAgentId)
  const running = agents.some((a) => !isFinished(a.status))
  return {
    sessionId: session.sessionId,
    title: meta.title,
    cwd: session.cwd,
    status: main ? (running && isFinished(main.status) ? 'running' : main.status) : 'queued',
    createdAt: meta.createdAt,
    updatedAt: Date.now(),
    costUsd: meta.priorCostUsd + session.registry.totalUsage().costUsd,
    agentCount: agents.length,
    ...(main ? { model: main.model } : {}),
    ...(meta.demo ? { demo: true } : {})
  }
}

const DELTAS = new Set<AgentEvent['type']>(['text_delta', 'thinking_delta', 'tool_input_delta'])

/**
 * An agent's events without the streamed deltas that a later assistant `message` event repeats in full
 * (the UI rebuilds a finished reply from the message). Deltas after the agent's last assistant message
 * stay: that reply was still streaming, or was cut off. A long session replays several times smaller.
 */
export function withoutSettledDeltas(events: readonly AgentEvent[]): AgentEvent[] {
  let lastMessage = -1
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]
    if (e.type === 'message' && e.message.role === 'assistant') {
      lastMessage = i
      break
    }
  }
  return events.filter((e, i) => i > lastMessage || !DELTAS.has(e.type))
}

/** Every agent's events as one sequence in time order (ties keep each transcript's order). */
export function mergedEvents(o: OpenedSession): AgentEvent[] {
  const all: AgentEvent[] = []
  for (const t of Object.values(o.agents)) for (const e of withoutSettledDeltas(t.events)) all.push(e)
  return all.sort((a, b) => a.ts - b.ts)
}

/** The session as the UI shows it: its events folded by the UI's own reducer, as live batches are. */
export function foldSession(o: OpenedSession): SessionState {
  const id = o.index.sessionId
  return applyEvents(emptyEventsState(), mergedEvents(o)).sessions[id] ?? emptySession(id)
}
