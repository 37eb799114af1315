// The bottom line: connection, mode and folder on the left; live totals on the right.
import { formatCost } from '../lib/format'
import { countAgents } from '../state/selectors'
import { useApp } from '../state/store'

export function StatusBar() {
  const connection = useApp((s) => s.connection)
  const mode = useApp((s) => s.mode)
  const cwd = useApp((s) => s.workspace?.cwd)
  const session = useApp((s) => (s.currentSessionId ? s.events.sessions[s.currentSessionId] : undefined))
  const counts = session ? countAgents(session, session.agentOrder) : null
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
          {counts.waiting > 0 && <span className="warn-text">{counts.waiting} waiting for permission</span>}
          <span>{counts.active} running</span>
          <span>{counts.total} agents</span>
          <span>{formatCost(session!.usage.costUsd)}</span>
        </>
      )}
    </footer>
  )
}
