// The bottom line: connection, mode and folder on the left; live totals on the right.
import { formatCost } from '../lib/format'
import { agentCounts } from '../state/selectors'
import { useApp } from '../state/store'

export function StatusBar() {
  const connection = useApp((s) => s.connection)
  const mode = useApp((s) => s.mode)
  const cwd = useApp((s) => s.workspace?.cwd)
  const counts = useApp((s) => (s.currentSessionId && s.events.sessions[s.currentSessionId] ? agentCounts(s.events.sessions[s.currentSessionId], { withRoot: true }) : null))
  const cost = useApp((s) => (s.currentSessionId ? s.events.sessions[s.currentSessionId]?.usage.costUsd : undefined))
  const label = { connecting: 'Connecting…', open: 'Connected', closed: 'Disconnected — reconnecting', unauthorized: 'Not authorized', gone: 'Not connected' }[connection]
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
          {counts.waiting > 0 && <span className="warn-text">{counts.waiting} waiting for permission</span>}
          <span>{counts.active} running</span>
          <span>{counts.total} agents</span>
          <span>{formatCost(cost ?? 0)}</span>
        </>
      )}
    </footer>
  )
}
