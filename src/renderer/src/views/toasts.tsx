// In-app notifications, at the foot of the sidebar (above Settings): click one to jump to its agent.
import { Icon } from '../components/icon'
import { openSession, ui } from '../state/store'
import { dismissToast, useToasts } from './notifications'

export function Toasts() {
  const toasts = useToasts((s) => s.toasts)
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role="status" data-testid="toast">
          <button
            className="toast-body"
            title={`${t.title}\n${t.body}`}
            onClick={() => {
              if (t.sessionId) void openSession(t.sessionId).then(() => t.agentId && ui.focusAgent(t.agentId))
              dismissToast(t.id)
            }}
          >
            <strong>{t.title}</strong>
            <span className="muted">{t.body}</span>
          </button>
          <button className="icon-button" onClick={() => dismissToast(t.id)} aria-label="Dismiss">
            <Icon name="x" size={12} />
          </button>
        </div>
      ))}
    </div>
  )
}
