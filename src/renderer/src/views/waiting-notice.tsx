// Requests waiting for the person in sessions not on screen (after a reload, the new-session page has no
// session bar and so no Permissions button): one line that says how many and opens the queue.
import { Icon } from '../components/icon'
import { pendingPermissions } from '../state/selectors'
import { ui, useApp } from '../state/store'

export function WaitingNotice() {
  const count = useApp((s) => pendingPermissions(s.events, s.replayingSessionId).length)
  if (!count) return null
  return (
    <div className="waiting-notice" role="status" data-testid="waiting-notice">
      <Icon name="shield" size={13} />
      <span>
        {count === 1 ? 'An agent is' : `${count} agents are`} waiting for your permission in {count === 1 ? 'a session' : 'running sessions'}.
      </span>
      <button className="btn btn-primary btn-sm" onClick={() => ui.setDialog('permissions')} data-testid="waiting-notice-open">
        Review
      </button>
    </div>
  )
}
