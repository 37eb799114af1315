// Every waiting permission request, from every agent and session, oldest first; alike requests in one card
// with one answer for all. Once the person has answered the last one, the dialog closes by itself.
import { useEffect, useRef } from 'react'
import { PermissionGroup, groupAlike } from '../components/permission-group'
import { formatTime } from '../lib/format'
import { pendingPermissions } from '../state/selectors'
import { ui, useApp } from '../state/store'
import { Dialog } from './dialog'
import { useShallow } from 'zustand/react/shallow'

export function PermissionQueue() {
  const requests = useApp(useShallow((s) => pendingPermissions(s.events, s.replayingSessionId)))
  const titles = useApp((s) => s.sessions)
  const answered = useRef(false)
  useEffect(() => {
    if (answered.current && !requests.length) ui.setDialog(null)
  }, [requests.length])
  const groups = groupAlike(requests)
  return (
    <Dialog title={`Permission requests${requests.length ? ` (${requests.length})` : ''}`} onClose={() => ui.setDialog(null)} wide testId="permission-queue">
      {/* An answered request's focus goes to the next one, and to Close when none is left. */}
      <div
        data-permission-scope
        data-permission-fallback="[data-testid=permission-queue] .dialog-close"
        onClickCapture={(e) => {
          if ((e.target as HTMLElement).closest('[data-testid^=perm-]')) answered.current = true
        }}
      >
        {!requests.length && <div className="empty-state muted">Nothing is waiting for your approval.</div>}
        {groups.map((g) => (
          <div key={g[0].requestId} className="queue-item">
            <div className="queue-item-meta small muted">
              {titles.find((t) => t.sessionId === g[0].sessionId)?.title ?? g[0].sessionId} · {formatTime(g[0].ts)}
            </div>
            <PermissionGroup requests={g} />
          </div>
        ))}
      </div>
    </Dialog>
  )
}
