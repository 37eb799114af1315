// An agent's budget as a bar: how much of it the agent and its subagents have spent (the session's for the
// header), amber past the warning share, red once reached. Nothing when the agent has no budget.
import { memo } from 'react'
import { useApp } from '../state/store'
import { budgetUse, type BudgetUse } from '../../../shared/view/budget-use'

/** `short`: the percentage alone (cards); `bare`: the bar alone, its figures in the title (tiles, whose row is full); else the amounts ("$0.42 of $2.00"). */
function BudgetBarView({
  sessionId,
  agentId,
  short = false,
  bare = false
}: {
  sessionId: string
  agentId: string | null | undefined
  short?: boolean
  bare?: boolean
}) {
  // A string, not the object: the selector's answer must compare equal while nothing changed.
  const key = useApp((s) => {
    const u = budgetUse(s.events.sessions[sessionId], agentId)
    return u ? JSON.stringify(u) : ''
  })
  if (!key) return null
  const use = JSON.parse(key) as BudgetUse
  return (
    <span
      className={`budget-bar ${use.level}`}
      title={bare ? `${use.label} (${use.percent}%). ${use.detail}` : use.detail}
      data-testid="budget-bar"
      data-level={use.level}
      data-percent={use.percent}
      role="meter"
      aria-label="Budget spent"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={use.percent}
    >
      <span className="budget-bar-track" aria-hidden="true">
        <span className="budget-bar-fill" style={{ width: `${Math.max(2, use.percent)}%` }} />
      </span>
      {!bare && <span className="budget-bar-text">{short ? `${use.percent}%` : use.label}</span>}
    </span>
  )
}
// Drawn again only when its own props or store reads change, not with every render of what holds it: at a fan-out's start, the parents draw again at each agent's arrival.
export const BudgetBar = memo(BudgetBarView)
