// Usage by agent: tokens in and out, prompt-cache reads and writes, cost, turns and time of each agent of a
// session, sortable by any column, with the session's totals. Opened from the header's token and cost
// figures (the same numbers, summed), or the palette's "Usage by agent".
import { memo, useMemo, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { agentFullName, agentTask, agentBadge } from '../lib/agent-naming'
import { formatClock, formatCost, formatTokens } from '../lib/format'
import { useNow } from '../lib/use-now'
import { elapsedMs } from '../state/selectors'
import { useApp } from '../state/store'
import { isActive, type AgentState } from '../../../shared/view/session-state'
import { addUsage, emptyUsage, usageBreakdown, type Usage } from '../../../shared/usage'
import { useAction } from '../commands/registry'
import { Dialog } from './dialog'

type Column = 'agent' | 'input' | 'output' | 'cacheRead' | 'cacheWrite' | 'cost' | 'turns' | 'duration'

interface Row {
  id: string
  agent: AgentState
  input: number
  output: number
  cacheRead: number
  cacheWrite: number
  cost: number
  turns: number
  duration: number
}

const COLUMNS: Array<{ key: Column; label: string; title: string }> = [
  { key: 'agent', label: 'Agent', title: 'The agent: its task, its type' },
  { key: 'input', label: 'In', title: 'Input tokens not read from or written to the prompt cache' },
  { key: 'output', label: 'Out', title: 'Output tokens' },
  { key: 'cacheRead', label: 'Cache read', title: 'Input tokens read from the prompt cache (billed at 0.1×)' },
  { key: 'cacheWrite', label: 'Cache write', title: 'Input tokens written to the prompt cache (billed at 1.25×)' },
  { key: 'cost', label: 'Cost', title: 'What its requests cost' },
  { key: 'turns', label: 'Turns', title: 'Model turns it took' },
  { key: 'duration', label: 'Time', title: 'How long it ran (all its runs)' }
]

function rowOf(agent: AgentState, now: number): Row {
  const u = agent.usage
  return {
    id: agent.id,
    agent,
    input: u.inputTokens,
    output: u.outputTokens,
    cacheRead: u.cacheReadTokens,
    cacheWrite: u.cacheWriteTokens,
    cost: u.costUsd,
    turns: agent.turn,
    duration: elapsedMs(agent, now)
  }
}

/** The token and cost columns, one agent's or the session's total. */
function UsageCells({ usage, costTestId }: { usage: Usage; costTestId: string }) {
  return (
    <>
      <td className="num">{formatTokens(usage.inputTokens)}</td>
      <td className="num">{formatTokens(usage.outputTokens)}</td>
      <td className="num">{formatTokens(usage.cacheReadTokens)}</td>
      <td className="num">{formatTokens(usage.cacheWriteTokens)}</td>
      <td className="num" data-testid={costTestId}>
        {formatCost(usage.costUsd)}
      </td>
    </>
  )
}

export function UsageTable({ sessionId }: { sessionId: string }) {
  const agents = useApp(useShallow((s) => Object.values(s.events.sessions[sessionId]?.agents ?? {})))
  const rootId = useApp((s) => s.events.sessions[sessionId]?.rootAgentId ?? null)
  const now = useNow(agents.some((a) => isActive(a.status)))
  const [sort, setSort] = useState<{ by: Column; down: boolean }>({ by: 'cost', down: true })
  const rows = useMemo(() => {
    const list = agents.map((a) => rowOf(a, now))
    const dir = sort.down ? -1 : 1
    return list.sort((a, b) => {
      const x = sort.by === 'agent' ? agentTask(a.agent).localeCompare(agentTask(b.agent)) : a[sort.by] - b[sort.by]
      return x * dir || a.agent.startedAt - b.agent.startedAt
    })
  }, [agents, now, sort])
  const total = agents.reduce((sum, a) => addUsage(sum, a.usage), emptyUsage())
  const turns = rows.reduce((n, r) => n + r.turns, 0)
  const toggle = (by: Column) => setSort((s) => (s.by === by ? { by, down: !s.down } : { by, down: by !== 'agent' }))
  return (
    <div className="usage-table-wrap">
      <table className="usage-table" data-testid="usage-table">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                scope="col"
                aria-sort={sort.by === c.key ? (sort.down ? 'descending' : 'ascending') : 'none'}
                className={c.key === 'agent' ? '' : 'num'}
              >
                <button className="usage-sort" onClick={() => toggle(c.key)} title={c.title} data-testid={`usage-sort-${c.key}`}>
                  {c.label}
                  {sort.by === c.key && <span aria-hidden="true">{sort.down ? ' ↓' : ' ↑'}</span>}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const badge = r.id === rootId ? 'main agent' : agentBadge(r.agent)
            return (
              <tr key={r.id} data-testid="usage-row" data-agent={r.id}>
                <th scope="row" className="usage-agent" title={agentFullName(r.agent)}>
                  <span className="usage-task">{r.id === rootId ? 'Main agent' : agentTask(r.agent)}</span>
                  {badge && r.id !== rootId && <span className="usage-type">{badge}</span>}
                </th>
                <UsageCells usage={r.agent.usage} costTestId="usage-cost" />
                <td className="num">{r.turns}</td>
                <td className="num">{formatClock(r.duration)}</td>
              </tr>
            )
          })}
        </tbody>
        <tfoot>
          <tr data-testid="usage-total" title={usageBreakdown(total)}>
            <th scope="row">Total ({rows.length} agents)</th>
            <UsageCells usage={total} costTestId="usage-total-cost" />
            <td className="num">{turns}</td>
            <td className="num" />
          </tr>
        </tfoot>
      </table>
    </div>
  )
}

/** The header's way in: the session's cost, a button that opens the table (and the palette's, by its action). */
function UsageButtonView({ sessionId, cost, title }: { sessionId: string; cost: string; title: string }) {
  const [open, setOpen] = useState(false)
  useAction({ id: 'session.usage', title: 'Usage by agent', group: 'Session', keywords: 'cost tokens price spend table', run: () => setOpen(true) })
  return (
    <>
      <button className="header-usage" onClick={() => setOpen(true)} title={`${title}\nClick for usage by agent`} data-testid="session-cost">
        {cost}
      </button>
      {open && (
        <Dialog title="Usage by agent" onClose={() => setOpen(false)} wide className="usage-dialog" testId="usage-dialog">
          <UsageTable sessionId={sessionId} />
        </Dialog>
      )}
    </>
  )
}
export const UsageButton = memo(UsageButtonView)
