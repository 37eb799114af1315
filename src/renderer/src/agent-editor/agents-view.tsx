// The Agents view: the library on the left, the open agent (or, with none open, the Agent tool's listing
// of every agent the runtime offers) on the right.
import { useEffect } from 'react'
import { Icon } from '../components/icon'
import '../styles/agent-editor.css'
import { AgentDialogs } from './agent-dialogs'
import { refreshLibrary, selectEntry } from './editor-library'
import { editorUi, useAgentEditor } from './editor-store'
import { saveDraft } from './file-actions'
import { EditorPane } from './editor-pane'
import { LibraryList } from './library-list'
import { usePick } from '../lib/use-pick'

function Overview() {
  const library = useAgentEditor((s) => s.library)
  const openError = useAgentEditor((s) => s.openError)
  const count = library?.entries.filter((e) => e.active).length ?? 0
  return (
    <div className="ae-overview" data-testid="agents-overview">
      {openError && <div className="ae-banner error">{openError}</div>}
      <h1 className="new-session-title">Agents</h1>
      <p className="muted">
        Every agent the runtime sees in this folder, read from the same files Claude Code reads. Pick one to edit it, or create a new one. Changes on disk show
        here at once and apply to the next agent started.
      </p>
      <section className="ae-card">
        <h3>
          Agent tool listing <span className="count">{count}</span>
        </h3>
        <p className="field-hint">Exactly what the main agent reads when it chooses a subagent: one line per agent type.</p>
        <pre className="ae-listing" data-testid="agent-listing">
          {library?.listing || 'No agents.'}
        </pre>
      </section>
      {library && library.folderDiagnostics.length > 0 && (
        <section className="ae-card">
          <h3>Folder notes</h3>
          <ul className="ae-problems">
            {library.folderDiagnostics.map((d, i) => (
              <li key={i} className={`ae-problem ${d.severity}`}>
                <code className="ae-problem-at">{d.file}</code> <span className="ae-problem-msg">{d.message}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  )
}

export function AgentsView() {
  const { draft, loading, selected, library } = usePick(useAgentEditor, 'draft', 'loading', 'selected', 'library')
  useEffect(() => {
    void refreshLibrary()
    // Ctrl/Cmd+S saves the open agent, from the form or from inside an editor.
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() === 's' && (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey) {
        e.preventDefault()
        const d = useAgentEditor.getState().draft
        if (d?.scope && !d.conflict) void saveDraft()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  const total = library?.entries.length ?? 0
  const problems = library?.entries.filter((e) => e.diagnostics.some((d) => d.severity === 'error')).length ?? 0
  return (
    <div className="agents-view" data-testid="agents-view">
      <header className="session-header">
        <div className="session-header-title">
          <button className="btn-link ae-crumb" onClick={() => selectEntry(null)} data-testid="agents-home">
            <Icon name="agents" size={14} /> Agents
          </button>
          <span className="faint small">
            {total} file{total === 1 ? '' : 's'}
            {problems > 0 && <span className="err-text"> · {problems} not loading</span>}
          </span>
        </div>
        <div className="session-header-actions">
          <button className="btn btn-sm btn-primary" onClick={() => editorUi.setDialog({ kind: 'new' })} data-testid="new-agent">
            <Icon name="plus" size={12} /> New agent
          </button>
        </div>
      </header>
      <div className="agents-body">
        <LibraryList />
        <div className="ae-detail">
          {draft ? <EditorPane key={draft.file} draft={draft} /> : loading && selected ? <div className="pane-message muted">Opening…</div> : <Overview />}
        </div>
      </div>
      <AgentDialogs />
    </div>
  )
}
