// An agent's name where agents sit side by side (tiles, tree rows, "needs you" chips, panel headers): the
// task first, the type (or a team member's name) as a small badge in the agent's colour, the whole in the tooltip.
import type { CSSProperties } from 'react'
import { agentBadge, agentFullName, agentTask } from '../lib/agent-naming'
import type { AgentState } from '../../../shared/view/session-state'

type Named = Pick<AgentState, 'agentType' | 'name' | 'description'>

export function AgentTypeBadge({ agent, style }: { agent: Named; style?: CSSProperties }) {
  const badge = agentBadge(agent)
  if (!badge) return null
  return (
    <span className="agent-type-badge" style={style} title={agent.name && agent.name !== agent.agentType ? `${badge} (${agent.agentType})` : badge}>
      <span className="agent-type-badge-text">{badge}</span>
    </span>
  )
}

/** Task then badge; `taskClass` keeps a view's own class on the task (its ellipsis, its colour). */
export function AgentName({ agent, style, taskClass = 'agent-task' }: { agent: Named; style?: CSSProperties; taskClass?: string }) {
  return (
    <>
      <span className={taskClass} title={agentFullName(agent)}>
        {agentTask(agent)}
      </span>
      <AgentTypeBadge agent={agent} style={style} />
    </>
  )
}
