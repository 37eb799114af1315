// Left column: the workspace folder, New session, and the session list (status, date, cost).
import { useState } from 'react'
import { closeAgents, openAgents } from '../agent-editor/editor-library'
import { useAgentEditor } from '../agent-editor/editor-store'
import { Icon } from '../components/icon'
import { openSearch } from '../state/search-store'
import { newSession, pickFolder, ui, useApp } from '../state/store'
import { errorMessage } from '../transport/types'
import { SessionRow } from './session-row'
import { Toasts } from './toasts'
import { usePick } from '../lib/use-pick'

export function Sidebar() {
  const {
    workspace,
    sessions,
    sessionsError,
    currentSessionId: current,
    mode
  } = usePick(useApp, 'workspace', 'sessions', 'sessionsError', 'currentSessionId', 'mode')
  const agentsOpen = useAgentEditor((s) => s.open)
  const [folderError, setFolderError] = useState<string | null>(null)

  const changeFolder = async () => {
    setFolderError(null)
    if (mode === 'browser') return ui.setDialog('open-folder')
    try {
      await pickFolder()
    } catch (err) {
      setFolderError(errorMessage(err))
    }
  }

  return (
    <nav className="sidebar" aria-label="Sessions">
      <div className="sidebar-brand">
        <span className="brand-mark" aria-hidden="true">
          <Icon name="agents" size={15} />
        </span>
        <span className="brand-name">Fanout</span>
      </div>
      <button className="workspace-button" onClick={changeFolder} title={workspace?.cwd ?? 'Open a folder'} data-testid="workspace-button">
        <Icon name="folder" size={14} />
        <span className="workspace-name">{workspace?.name ?? 'Open a folder…'}</span>
        {workspace?.isGitRepo && <span className="tag tag-subtle">git</span>}
      </button>
      {folderError && <div className="inline-error sidebar-error">{folderError}</div>}
      <button
        className="btn btn-block search-sessions-button"
        onClick={() => openSearch('all')}
        title="Search every session of this folder: titles, prompts and reports"
        data-testid="search-all-button"
      >
        <Icon name="search" size={14} /> Search sessions
      </button>
      <button
        className="btn btn-block new-session-button"
        onClick={() => {
          closeAgents()
          newSession()
        }}
        data-testid="new-session"
      >
        <Icon name="plus" size={14} /> New session
      </button>
      <button
        className={`sidebar-nav-button${agentsOpen ? ' active' : ''}`}
        onClick={() => (agentsOpen ? closeAgents() : openAgents())}
        data-testid="open-agents"
      >
        <Icon name="agents" size={14} /> Agents
      </button>
      <div className="section-label sidebar-section-label">Sessions</div>
      <div className="session-list" role="list">
        {sessionsError && <div className="inline-error sidebar-error">Could not list sessions: {sessionsError}</div>}
        {!sessions.length && !sessionsError && <div className="sidebar-empty">No sessions in this folder yet.</div>}
        {sessions.map((s) => (
          <SessionRow key={s.sessionId} session={s} active={s.sessionId === current && !agentsOpen} />
        ))}
      </div>
      <Toasts />
      <button className="sidebar-footer-button" onClick={() => ui.setDialog('settings')} data-testid="open-settings">
        <Icon name="gear" size={14} /> Settings
      </button>
    </nav>
  )
}
