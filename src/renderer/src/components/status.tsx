// Status as a colored dot plus a word: color alone never carries the meaning. A running agent's dot is
// still: a spinner per running agent (two per agent with its panel and its card) kept the compositor
// redrawing the whole window every frame and cost the main thread style and layer work per spinner per
// frame — the largest part of a 16-agent stream's frame. What moves is the agent's own text.
import { memo, type CSSProperties } from 'react'
import type { AgentLimit, AgentStatus } from '../../../shared/events'

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

/** What a runaway guard that ended a run is called, in place of the bare status ("Failed" says too little). */
export const LIMIT_LABEL: Record<AgentLimit, string> = {
  max_turns: 'Turn limit',
  no_progress: 'No progress',
  budget: 'Budget reached',
  retry_time: 'API gave up',
  spawn_limit: 'Spawn limit'
}

/** The word for an agent's state: its limit when one ended it, else its status. */
export const statusWord = (a: { status: AgentStatus; limit?: AgentLimit }): string =>
  a.limit && !['running', 'queued', 'waiting_permission'].includes(a.status) ? LIMIT_LABEL[a.limit] : STATUS_LABEL[a.status]

/** theme.css names a status's color `--st-<status>`, in short where the status's own name is long. */
const THEME_NAME: Partial<Record<AgentStatus, string>> = { waiting_permission: 'waiting', completed: 'done', interrupted: 'stopped', max_turns: 'maxturns' }

/** The status's color as `--status` on what shows it (a dot's fill, a status word's color): one table, not a CSS rule a status a use. */
export const statusStyle = (status: AgentStatus): CSSProperties => ({ '--status': `var(--st-${THEME_NAME[status] ?? status})` }) as CSSProperties

function StatusDotView({ status }: { status: AgentStatus }) {
  return <span className={`status-dot status-${status}`} style={statusStyle(status)} aria-hidden="true" />
}
export const StatusDot = memo(StatusDotView)

function StatusBadgeView({ status, limit, compact = false }: { status: AgentStatus; limit?: AgentLimit; compact?: boolean }) {
  const word = statusWord({ status, limit })
  return (
    <span className={`status-badge status-${status}`} style={statusStyle(status)} title={word} data-status={status} {...(limit ? { 'data-limit': limit } : {})}>
      <StatusDot status={status} />
      {!compact && <span>{word}</span>}
    </span>
  )
}
export const StatusBadge = memo(StatusBadgeView)
