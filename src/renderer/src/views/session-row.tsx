// One session in the sidebar: open it; rename it in place; delete it (after asking; never while it runs).
import { useEffect, useRef, useState } from 'react'
import type { SessionSummary } from '../../../shared/ipc-contract'
import { isActive } from '../../../shared/view/session-state'
import { closeAgents } from '../agent-editor/editor-library'
import { Icon } from '../components/icon'
import { RelativeTime } from '../components/relative-time'
import { StatusDot, STATUS_LABEL } from '../components/status'
import { formatCost, plural } from '../lib/format'
import { deleteSession, openSession, renameSession } from '../state/store'
import { errorText } from '../transport/types'
import { Dialog } from './dialog'
import '../styles/session-row.css'


function RenameField({ session, onDone }: { session: SessionSummary; onDone(): void }) {
  const [title, setTitle] = useState(session.title)
  const [error, setError] = useState<string | null>(null)
  const ref = useRef<HTMLInputElement>(null)
  useEffect(() => ref.current?.select(), [])
  const save = async () => {
    const t = title.trim()
    if (!t) return setError('Enter a name, or press Escape to keep the old one.')
    if (t === session.title) return onDone()
    try {
      await renameSession(session.sessionId, t)
      onDone()
    } catch (err) {
      setError(errorText(err))
    }
  }
  return (
    <form
      className="session-rename"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <input
        ref={ref}
        value={title}
        maxLength={120}
        onChange={(e) => {
          setTitle(e.target.value)
          setError(null)
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation()
            onDone()
          }
        }}
        onBlur={() => void save()}
        aria-label="Session name"
        aria-invalid={error ? true : undefined}
        className={error ? 'invalid' : undefined}
        data-testid="session-rename-input"
      />
      {error && <span className="field-error">{error}</span>}
    </form>
  )
}

function DeleteSessionDialog({ session, onClose }: { session: SessionSummary; onClose(): void }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const running = isActive(session.status)
  const remove = async () => {
    setBusy(true)
    setError(null)
    try {
      await deleteSession(session.sessionId)
      onClose()
    } catch (err) {
      setError(errorText(err))
      setBusy(false)
    }
  }
  return (
    <Dialog title="Delete session" onClose={onClose} testId="delete-session-dialog">
      {running ? (
        <p>“{session.title || 'Untitled session'}” is still running. Stop it first, then delete it.</p>
      ) : (
        <p>
          Delete “{session.title || 'Untitled session'}”? Its transcripts go to your system’s trash, where you can restore them; where there is no trash, they are deleted for good.
          Files its agents changed in your project stay as they are.
        </p>
      )}
      {error && <div className="inline-error">{error}</div>}
      <div className="form-actions">
        <button className="btn" onClick={onClose} data-autofocus>
          {running ? 'Close' : 'Keep it'}
        </button>
        {!running && (
          <button className="btn btn-primary ae-danger" disabled={busy} onClick={() => void remove()} data-testid="delete-session-confirm">
            <Icon name="trash" size={13} /> Delete
          </button>
        )}
      </div>
    </Dialog>
  )
}

export function SessionRow({ session: s, active }: { session: SessionSummary; active: boolean }) {
  const [renaming, setRenaming] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [menu, setMenu] = useState(false)
  const menuRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!menu) return
    const away = (e: MouseEvent) => !menuRef.current?.contains(e.target as Node) && setMenu(false)
    window.addEventListener('mousedown', away)
    return () => window.removeEventListener('mousedown', away)
  }, [menu])
  const running = isActive(s.status)
  return (
    <div role="listitem" className={`session-row${active ? ' active' : ''}${menu ? ' menu-open' : ''}`} data-testid="session-row">
      {renaming ? (
        <RenameField session={s} onDone={() => setRenaming(false)} />
      ) : (
        <button
          className={`session-item${active ? ' active' : ''}`}
          onClick={() => {
            closeAgents()
            void openSession(s.sessionId)
          }}
          data-testid="session-item"
          title={`${s.title}\n${STATUS_LABEL[s.status]} · ${new Date(s.createdAt).toLocaleString()}`}
        >
          <StatusDot status={s.status} />
          <span className="session-item-body">
            <span className="session-title">
              <span className="session-title-text">{s.title || 'Untitled session'}</span>
              {s.demo && <span className="tag tag-subtle">scripted</span>}
            </span>
            <span className="session-meta">
              <RelativeTime ts={s.updatedAt} /> · {plural(s.agentCount, 'agent')} · {formatCost(s.costUsd)}
            </span>
          </span>
        </button>
      )}
      {!renaming && (
        <div className="session-actions" ref={menuRef}>
          <button className="icon-button session-more" aria-label={`Actions for ${s.title || 'this session'}`} aria-haspopup="menu" aria-expanded={menu} onClick={() => setMenu(!menu)} data-testid="session-more">
            <Icon name="more" size={14} strokeWidth={2.6} />
          </button>
          {menu && (
            <div className="session-menu" role="menu" onKeyDown={(e) => e.key === 'Escape' && setMenu(false)}>
              <button role="menuitem" autoFocus onClick={() => (setMenu(false), setRenaming(true))} data-testid="session-rename">
                <Icon name="pencil" size={13} /> Rename
              </button>
              <button role="menuitem" onClick={() => (setMenu(false), setDeleting(true))} title={running ? 'Stop the session before deleting it' : undefined} data-testid="session-delete">
                <Icon name="trash" size={13} /> Delete…
              </button>
            </div>
          )}
        </div>
      )}
      {deleting && <DeleteSessionDialog session={s} onClose={() => setDeleting(false)} />}
    </div>
  )
}
