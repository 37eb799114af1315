// Every waiting permission request, from every agent and session, oldest first.
import { PermissionCard } from '../components/permission-card'
import { formatTime } from '../lib/format'
import { pendingPermissions } from '../state/selectors'
import { ui, useApp } from '../state/store'
import { Dialog } from './dialog'
import { useShallow } from 'zustand/react/shallow'

export function PermissionQueue() {
  const requests = useApp(useShallow((s) => pendingPermissions(s.events, s.replayingSessionId)))
  const titles = useApp((s) => s.sessions)
  return (
    <Dialog title={`Permission requests${requests.length ? ` (${requests.length})` : ''}`} onClose={() => ui.setDialog(null)} wide testId="permission-queue">
      {/* An answered request's focus goes to the next one, and to Close when none is left. */}
      <div data-permission-scope data-permission-fallback="[data-testid=permission-queue] .dialog-close">
        {!requests.length && <div className="empty-state muted">Nothing is waiting for your approval.</div>}
        {requests.map((r) => (
          <div key={r.requestId} className="queue-item">
            <div className="queue-item-meta small muted">
              {titles.find((t) => t.sessionId === r.sessionId)?.title ?? r.sessionId} · {formatTime(r.ts)}
            </div>
            <PermissionCard request={r} />
          </div>
        ))}
      </div>
    </Dialog>
  )
}
