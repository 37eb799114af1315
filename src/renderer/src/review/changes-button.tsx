// The entry points to the Changes view: a button on each agent panel (or tile) of an agent that worked in a
// worktree, and one in the session header for every agent's changes together. Small on purpose: the views
// that hold them only place them.
import { memo } from 'react'
import { Icon } from '../components/icon'
import { useApp } from '../state/store'
import type { AgentState } from '../../../shared/view/session-state'
import { openReview } from './review-store'

export function ChangesButton({ agent }: { agent: AgentState }) {
  if (!agent.worktree) return null
  return (
    <button
      className="icon-button"
      title={`Changes on ${agent.worktree.branch}: files, diff, merge or discard`}
      aria-label={`Changes of ${agent.agentType} (${agent.worktree.branch})`}
      onClick={() => void openReview(agent.sessionId, agent.id)}
      data-testid="panel-changes"
    >
      <Icon name="diff" size={14} />
    </button>
  )
}

function SessionChangesButtonView({ sessionId }: { sessionId: string }) {
  const count = useApp((s) => {
    const session = s.events.sessions[sessionId]
    return session ? session.agentOrder.filter((id) => session.agents[id]?.worktree).length : 0
  })
  if (!count) return null
  return (
    <button
      className="icon-button permissions-button"
      onClick={() => void openReview(sessionId, null)}
      title={`What the ${count === 1 ? 'agent' : `${count} agents`} in worktrees changed: review, preview conflicts, merge or discard`}
      data-testid="session-changes-button"
    >
      <Icon name="diff" />
      <span>Changes</span>
      <span className="tag" data-testid="session-changes-count">
        {count}
      </span>
    </button>
  )
}
export const SessionChangesButton = memo(SessionChangesButtonView)
