// The bottom line: connection, mode and folder on the left; live totals on the right.
import { formatCost, plural } from '../lib/format'
import { agentCounts, countParts } from '../state/agent-counts'
import { useApp } from '../state/store'

export function StatusBar() {
  const connection = useApp((s) => s.connection)
  const mode = useApp((s) => s.mode)
  const cwd = useApp((s) => s.workspace?.cwd)
  const counts = useApp((s) => (s.currentSessionId && s.events.sessions[s.currentSessionId] ? agentCounts(s.events.sessions[s.currentSessionId]) : null))
  const cost = useApp((s) => (s.currentSessionId ? s.events.sessions[s.currentSessionId]?.usage.costUsd : undefined))
  const label = { connecting: 'Connecting…', open: 'Connected', closed: 'Disconnected — reconnecting', unauthorized: 'Not authorized' }[connection]
  return (
    <footer className="status-bar">
      <span className={`conn conn-${connection}`} data-testid="connection">
        <span className="conn-dot" /> {label}
      </span>
      <span>{mode === 'electron' ? 'Desktop' : 'Browser mode'}</span>
      {cwd && <span className="status-cwd" title={cwd}>{cwd}</span>}
      <span className="spacer" />
      {counts && (
        <>
          {countParts(counts).map((p) => (
            <span key={p.group} className={`count-${p.group}`} data-testid={`status-count-${p.group}`}>
              {p.text}
            </span>
          ))}
          <span>{plural(counts.total, 'subagent')}</span>
          <span>{formatCost(cost ?? 0)}</span>
        </>
      )}
    </footer>
  )
}
