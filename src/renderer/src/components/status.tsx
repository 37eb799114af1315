// Status as a colored dot plus a word: color alone never carries the meaning.
import type { AgentStatus } from '../../../shared/events'
import { Spinner } from './icon'

export const STATUS_LABEL: Record<AgentStatus | 'interrupted', string> = {
  queued: 'Queued',
  running: 'Running',
  waiting_permission: 'Needs permission',
  completed: 'Done',
  failed: 'Failed',
  stopped: 'Stopped',
  max_turns: 'Turn limit',
  interrupted: 'Interrupted'
}

export function StatusDot({ status }: { status: AgentStatus | 'interrupted' }) {
  if (status === 'running') return <Spinner size={10} />
  return <span className={`status-dot status-${status}`} aria-hidden="true" />
}

export function StatusBadge({ status, compact = false }: { status: AgentStatus | 'interrupted'; compact?: boolean }) {
  return (
    <span className={`status-badge status-${status}`} title={STATUS_LABEL[status]} data-status={status}>
      <StatusDot status={status} />
      {!compact && <span>{STATUS_LABEL[status]}</span>}
    </span>
  )
}
