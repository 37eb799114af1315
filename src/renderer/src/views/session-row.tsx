// One session in the sidebar: open it; rename it in place; delete it (after asking; never while it runs).
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { SessionSummary } from '../../../shared/ipc-contract'
import { isActive } from '../../../shared/view/session-state'
import { closeAgents } from '../agent-editor/editor-library'
import { DialogActions } from '../components/dialog-actions'
import { Icon } from '../components/icon'
import { RelativeTime } from '../components/relative-time'
import { StatusDot, STATUS_LABEL } from '../components/status'
import { SubmitForm } from '../components/submit-form'
import { ownerText } from './running-elsewhere'
import { refocusWhenLost } from '../lib/focus'
import { formatCost, formatDateTime } from '../lib/format'
import { useTask } from '../lib/use-task'
import { listedSubagents, subagentsText } from '../state/agent-counts'
import { sessionCostUsd } from '../state/selectors'
import { deleteSession, openSession, renameSession, useApp } from '../state/store'
import { Dialog } from './dialog'
import '../styles/session-row.css'

function RenameField({ session, onDone }: { session: SessionSummary; onDone(): void }) {
  const [title, setTitle] = useState(session.title)
  const { error, setError, run } = useTask()
  const ref = useRef<HTMLInputElement>(null)
  useEffect(() => ref.current?.select(), [])
  const save = async () => {
    const t = title.trim()
    if (!t) return setError('Enter a name, or press Escape to keep the old one.')
    if (t === session.title) return onDone()
    await run(async () => {
      await renameSession(session.sessionId, t)
      onDone()
    })
  }
  return (
    <SubmitForm className="session-rename" onSubmit={save}>
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
    </SubmitForm>
  )
}

function DeleteSessionDialog({ session, onClose }: { session: SessionSummary; onClose(): void }) {
  const { error, busy, run } = useTask()
  const running = isActive(session.status)
  // Gone from the list once deleted: busy until then, so Delete cannot be pressed twice.
  const remove = () =>
    run(
      async () => {
        await deleteSession(session.sessionId)
        onClose()
      },
      { stayBusy: true }
    )
  return (
    <Dialog title="Delete session" onClose={onClose} testId="delete-session-dialog">
      {running ? (
        <p>“{session.title || 'Untitled session'}” is still running. Stop it first, then delete it.</p>
      ) : (
        <p>
          Delete “{session.title || 'Untitled session'}”? Its transcripts go to your system’s trash, where you can restore them; where there is no trash, they
          are deleted for good. Files its agents changed in your project stay as they are.
        </p>
      )}
      {error && <div className="inline-error">{error}</div>}
      <DialogActions
        onCancel={onClose}
        cancelLabel={running ? 'Close' : 'Keep it'}
        focus="cancel"
        confirm={
          running ? undefined : (
            <>
              <Icon name="trash" size={13} /> Delete
            </>
          )
        }
        danger
        busy={busy}
        onConfirm={() => void remove()}
        confirmTestId="delete-session-confirm"
      />
    </Dialog>
  )
}

/** Up/Down (wrapping), Home and End move between a menu's items (the WAI-ARIA menu pattern). */
function moveInMenu(menu: HTMLElement, key: string): boolean {
  const items = [...menu.querySelectorAll<HTMLElement>('[role=menuitem]:not(:disabled)')]
  if (!items.length) return false
  const at = items.indexOf(document.activeElement as HTMLElement)
  const next = { ArrowDown: (at + 1) % items.length, ArrowUp: (at - 1 + items.length) % items.length, Home: 0, End: items.length - 1 }[key]
  if (next === undefined) return false
  items[next].focus()
  return true
}

export function SessionRow({ session: s, active }: { session: SessionSummary; active: boolean }) {
  const [renaming, setRenaming] = useState(false)
  const cost = useApp((st) => sessionCostUsd(st, s.sessionId))
  const [deleting, setDeleting] = useState(false)
  // Which item takes focus when the menu opens: the first (Enter, Space, Down, a click) or the last (Up).
  const [menu, setMenu] = useState<false | 'first' | 'last'>(false)
  const menuRef = useRef<HTMLDivElement>(null)
  const moreRef = useRef<HTMLButtonElement>(null)
  const itemRef = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (!menu) return
    const away = (e: MouseEvent) => !menuRef.current?.contains(e.target as Node) && setMenu(false)
    window.addEventListener('mousedown', away)
    return () => window.removeEventListener('mousedown', away)
  }, [menu])
  useLayoutEffect(() => {
    const items = menu ? menuRef.current?.querySelectorAll<HTMLElement>('[role=menuitem]') : undefined
    if (items?.length) items[menu === 'first' ? 0 : items.length - 1].focus()
  }, [menu])
  // The rename field had focus and went away: the session it renamed takes it back.
  const wasRenaming = useRef(false)
  useLayoutEffect(() => {
    if (wasRenaming.current && !renaming) refocusWhenLost(() => itemRef.current)
    wasRenaming.current = renaming
  }, [renaming])
  /** Closes the menu with focus back on ⋯ (before the item that had it goes away). */
  const closeMenu = () => {
    moreRef.current?.focus()
    setMenu(false)
  }
  const running = isActive(s.status)
  return (
    <div role="listitem" className={`session-row${active ? ' active' : ''}${menu ? ' menu-open' : ''}`} data-testid="session-row">
      {renaming ? (
        <RenameField session={s} onDone={() => setRenaming(false)} />
      ) : (
        <button
          ref={itemRef}
          className={`list-row session-item${active ? ' active' : ''}`}
          onClick={() => {
            closeAgents()
            void openSession(s.sessionId)
          }}
          data-testid="session-item"
          title={`${s.title}\n${STATUS_LABEL[s.status]} · ${formatDateTime(s.createdAt)}`}
        >
          <StatusDot status={s.status} />
          <span className="session-item-body">
            {/* The name has the whole first line; the "scripted" mark goes with the details below it. */}
            <span className="session-title">
              <span className="session-title-text">{s.title || 'Untitled session'}</span>
            </span>
            <span className="session-meta">
              {s.demo && <span className="session-tag">scripted</span>}
              {s.runningElsewhere && (
                <span className="session-tag" title={`Being run by ${ownerText(s.runningElsewhere)}: read-only here`} data-testid="session-elsewhere">
                  {s.runningElsewhere.app}
                </span>
              )}
              {/* The dot's color is not the only sign that the session waits for the person. */}
              {!!s.waitingPermissions && (
                <span className="session-tag session-waiting" data-testid="session-waiting">
                  {s.waitingPermissions} waiting
                </span>
              )}
              {s.asksYou && !s.waitingPermissions && (
                <span className="session-tag session-waiting" title="The main agent ended its turn with a question for you" data-testid="session-question">
                  asks you
                </span>
              )}
              <RelativeTime ts={s.updatedAt} /> · {subagentsText(listedSubagents(s.agentCount))} · {formatCost(cost)}
            </span>
          </span>
        </button>
      )}
      {!renaming && (
        <div className="session-actions" ref={menuRef}>
          <button
            ref={moreRef}
            className="icon-button session-more"
            aria-label={`Actions for ${s.title || 'this session'}`}
            aria-haspopup="menu"
            aria-expanded={!!menu}
            onClick={() => setMenu(menu ? false : 'first')}
            onKeyDown={(e) => {
              if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return
              e.preventDefault()
              setMenu(e.key === 'ArrowUp' ? 'last' : 'first')
            }}
            data-testid="session-more"
          >
            <Icon name="more" size={14} strokeWidth={2.6} />
          </button>
          {menu && (
            <div
              className="session-menu"
              role="menu"
              aria-label={`Actions for ${s.title || 'this session'}`}
              onKeyDown={(e) => {
                if (e.key === 'Escape') {
                  // Only the menu closes (not a maximized panel behind it, nor a dialog).
                  e.preventDefault()
                  e.stopPropagation()
                  closeMenu()
                } else if (e.key === 'Tab') {
                  // Focus goes on from ⋯ (the browser moves it after this handler), and the menu closes.
                  closeMenu()
                } else if (moveInMenu(e.currentTarget, e.key)) {
                  e.preventDefault()
                }
              }}
            >
              <button role="menuitem" tabIndex={-1} onClick={() => (setMenu(false), setRenaming(true))} data-testid="session-rename">
                <Icon name="pencil" size={13} /> Rename
              </button>
              <button
                role="menuitem"
                tabIndex={-1}
                // ⋯ holds focus while the dialog is open, so closing it returns there (this item is gone by then).
                onClick={() => (closeMenu(), setDeleting(true))}
                title={running ? 'Stop the session before deleting it' : undefined}
                data-testid="session-delete"
              >
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
