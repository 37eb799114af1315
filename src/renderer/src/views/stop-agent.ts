// Stop, said plainly: the agent stops (and its subagents with it), and a toast says which one it was — its
// type, its task, how far it got — so a person who pressed Stop on a tile among sixty-four knows what they
// stopped without looking for it. A refusal comes back to the caller, to be shown by the control.
import type { SessionState } from '../../../shared/view/session-state'
import { isActive } from '../../../shared/view/session-state'
import { stopAgent, useApp } from '../state/store'
import { confirmToast } from './notifications'
import { formatClock, formatCost, plural } from '../lib/format'

/** What a toast says about a stop: "Stopped code-reviewer", "Review the lexer · turn 3 · 0:42 · $0.02 · and 2 subagents". */
export function stoppedText(session: SessionState, agentId: string, now: number): { title: string; body: string } {
  const a = session.agents[agentId]
  const isRoot = agentId === session.rootAgentId
  const running = (id: string): number =>
    session.agents[id].children.reduce((n, c) => n + (isActive(session.agents[c]?.status ?? 'completed') ? 1 : 0) + running(c), 0)
  const children = running(agentId)
  const parts = [
    a.description && !isRoot ? a.description : '',
    a.turn ? `turn ${a.turn}${a.maxTurns ? ` of ${a.maxTurns}` : ''}` : '',
    formatClock((a.endedAt ?? now) - a.startedAt),
    a.usage.costUsd ? formatCost(a.usage.costUsd) : '',
    children ? `and ${plural(children, 'subagent')} it started` : ''
  ].filter(Boolean)
  return { title: isRoot ? 'Stopped the main agent' : `Stopped ${a.name ?? a.agentType}`, body: parts.join(' · ') }
}

export async function stopWithToast(sessionId: string, agentId: string): Promise<void> {
  const session = useApp.getState().events.sessions[sessionId]
  // Said from the state before the stop: after it, the subagents it ends are no longer running.
  const text = session?.agents[agentId] ? stoppedText(session, agentId, Date.now()) : null
  await stopAgent(sessionId, agentId)
  if (text) confirmToast({ ...text, kind: 'info', key: `stopped:${agentId}` })
}
