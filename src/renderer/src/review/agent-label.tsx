// An agent as the Changes view names it: its color chip and type, and its task.
import { useAgentColor } from '../lib/use-agent-color'
import { useApp } from '../state/store'

export function AgentLabel({
  sessionId,
  agentId,
  fallbackType,
  showDescription = true
}: {
  sessionId: string
  agentId: string
  fallbackType?: string
  showDescription?: boolean
}) {
  const agent = useApp((s) => s.events.sessions[sessionId]?.agents[agentId])
  const type = agent?.agentType ?? fallbackType ?? 'agent'
  const color = useAgentColor(agent?.color, type, agent?.parentId === null)
  return (
    <span className="review-agent-label">
      <span className="agent-chip" style={color}>
        {agent?.name ?? type}
      </span>
      {showDescription && agent?.description && (
        <span className="review-agent-desc" title={agent.description}>
          {agent.description}
        </span>
      )}
    </span>
  )
}
