// Status as a colored dot plus a word: color alone never carries the meaning. A running agent's dot is
// still: a spinner per running agent (two per agent with its panel and its card) kept the compositor
// redrawing the whole window every frame and cost the main thread style and layer work per spinner per
// frame — the largest part of a 16-agent stream's frame. What moves is the agent's own text.
import type { AgentStatus } from '../../../shared/events'

export const STATUS_LABEL: Record<AgentStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  waiting_permission: 'Needs permission',
  completed: 'Done',
  failed: 'Failed',
  stopped: 'Stopped',
  max_turns: 'Turn limit',
  interrupted: 'Interrupted'
}

export function StatusDot({ status }: { status: AgentStatus }) {
  return <span className={`status-dot status-${status}`} aria-hidden="true" />
}

export function StatusBadge({ status, compact = false }: { status: AgentStatus; compact?: boolean }) {
  return (
    <span className={`status-badge status-${status}`} title={STATUS_LABEL[status]} data-status={status}>
      <StatusDot status={status} />
      {!compact && <span>{STATUS_LABEL[status]}</span>}
    </span>
  )
}
