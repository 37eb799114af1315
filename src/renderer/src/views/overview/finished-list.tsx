// Agents that finished while others work, one row each below the grid: status, task, result, time and cost,
// and two ways back — into the grid, or its whole transcript.
import { Icon, type IconName } from '../../components/icon'
import { AgentName } from '../../components/agent-name'
import { IconButton } from '../../components/icon-button'
import { RetryAgentButton } from '../../components/retry-button'
import { StatusBadge } from '../../components/status'
import { formatClock, formatCost } from '../../lib/format'
import { plainPreview } from '../../lib/plain-preview'
import { ChangesButton } from '../../review/changes-button'
import { useAgentColor } from '../../lib/use-agent-color'
import { elapsedMs } from '../../state/selectors'
import { ui, useApp } from '../../state/store'

/** A finished agent's two ways back: into the grid, or its whole transcript. */
const WAYS_BACK: ReadonlyArray<{ icon: IconName; title: string; label: string; testId: string; run(agentId: string): void }> = [
  { icon: 'grid', title: 'Show it in the grid', label: 'Show it in the grid', testId: 'finished-expand', run: (id) => ui.toggleExpanded(id) },
  {
    icon: 'transcript',
    title: 'Open its whole transcript, the full width of the pane',
    label: 'Open its transcript',
    testId: 'finished-open',
    run: (id) => ui.maximize(id)
  }
]

function FinishedRow({ sessionId, agentId }: { sessionId: string; agentId: string }) {
  const agent = useApp((s) => s.events.sessions[sessionId]?.agents[agentId])
  const color = useAgentColor(agent?.color, agent?.agentType ?? '')
  if (!agent) return null
  return (
    <div className="finished-row" style={color} data-testid="finished-row" data-agent-id={agentId}>
      <span className="finished-bar" />
      <StatusBadge status={agent.status} limit={agent.limit} />
      {/* Task first, as tiles name agents; the type (or member name) as its badge. */}
      <span className="finished-name">
        <AgentName agent={agent} style={color} taskClass="finished-desc agent-task" />
      </span>
      <span className="finished-result muted" title={agent.error ?? agent.result}>
        {plainPreview(agent.error ?? agent.result ?? '', 140)}
      </span>
      <span className="finished-stats muted">
        {agent.endedAt !== null && formatClock(elapsedMs(agent, agent.endedAt))} · {formatCost(agent.usage.costUsd)}
      </span>
      <RetryAgentButton sessionId={sessionId} agentId={agentId} />
      <ChangesButton agent={agent} />
      {WAYS_BACK.map((w) => (
        <IconButton key={w.testId} icon={w.icon} title={w.title} aria-label={w.label} onClick={() => w.run(agentId)} data-testid={w.testId} />
      ))}
    </div>
  )
}

export function FinishedList({
  sessionId,
  ids,
  open,
  onToggle,
  maxHeight
}: {
  sessionId: string
  ids: string[]
  open: boolean
  onToggle: () => void
  maxHeight: number
}) {
  return (
    <div className="finished-section" data-testid="finished-section">
      <button className="finished-toggle" onClick={onToggle} aria-expanded={open}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={12} /> Finished ({ids.length})
      </button>
      {open && (
        <div className="finished-rows" style={{ maxHeight }}>
          {ids.map((id) => (
            <FinishedRow key={id} sessionId={sessionId} agentId={id} />
          ))}
        </div>
      )}
    </div>
  )
}
