// The Changes view's navigation: the overview of every agent, then each agent with what its branch holds.
// Narrow windows get a select in its place (CSS shows one or the other).
import { useApp } from '../state/store'
import { AgentLabel } from './agent-label'
import { selectAgent, useReview } from './review-store'
import { workSummary } from './work-summary'

function NavItem({ sessionId, agentId, active }: { sessionId: string; agentId: string; active: boolean }) {
  const agent = useApp((s) => s.events.sessions[sessionId]?.agents[agentId])
  const list = useReview((s) => s.list)
  const summary = workSummary(agentId, agent, list)
  return (
    <button
      className={`list-row review-nav-item${active ? ' active' : ''}`}
      aria-current={active ? 'page' : undefined}
      onClick={() => void selectAgent(agentId)}
      data-testid="review-nav-agent"
      data-agent-id={agentId}
    >
      <AgentLabel sessionId={sessionId} agentId={agentId} showDescription={false} />
      <span className="review-nav-desc" title={agent?.description}>
        {agent?.description}
      </span>
      <span className={`review-nav-work tone-${summary.tone}`}>{summary.text}</span>
    </button>
  )
}

export function ReviewNav() {
  const view = useReview((s) => s.view)!
  const agents = useApp((s) => s.events.sessions[view.sessionId]?.agents)
  return (
    <>
      <nav className="review-nav" aria-label="Agents">
        <button
          className={`list-row review-nav-item overview${view.selected === null ? ' active' : ''}`}
          aria-current={view.selected === null ? 'page' : undefined}
          onClick={() => void selectAgent(null)}
          data-testid="review-nav-overview"
        >
          <span className="review-nav-title">All agents</span>
          <span className="review-nav-work">changes and conflict preview</span>
        </button>
        {view.agentIds.map((id) => (
          <NavItem key={id} sessionId={view.sessionId} agentId={id} active={view.selected === id} />
        ))}
      </nav>
      <label className="review-nav-select">
        <select value={view.selected ?? ''} onChange={(e) => void selectAgent(e.target.value || null)} aria-label="Show the changes of">
          <option value="">All agents</option>
          {view.agentIds.map((id) => (
            <option key={id} value={id}>
              {agents?.[id]?.agentType ?? id}: {agents?.[id]?.description ?? ''}
            </option>
          ))}
        </select>
      </label>
    </>
  )
}
