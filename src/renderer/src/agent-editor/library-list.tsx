// The library: every agent the runtime sees for this folder, grouped by source in priority order, each
// with its file, what it shadows or is shadowed by, and its problems. Search and filter narrow it.
import type { AgentSource } from '../../../shared/agent-definition'
import type { LibraryEntry } from '../../../shared/agent-editor'
import { LIBRARY_SOURCE_ORDER } from '../../../shared/agent-editor'
import { Icon } from '../components/icon'
import { useAgentColor } from '../lib/use-agent-color'
import { selectEntry, visibleEntries } from './editor-library'
import { editorUi, useAgentEditor, type LibraryFilter } from './editor-store'
import { usePick } from '../lib/use-pick'
import { TabRow } from '../components/tab-row'

export const SOURCE_LABEL: Record<AgentSource, string> = {
  managed: 'Managed',
  cli: 'Command line',
  project: 'Project',
  user: 'User',
  plugin: 'Plugins',
  'built-in': 'Built-in'
}

const SOURCE_HINT: Record<AgentSource, string> = {
  managed: 'policy folder · wins over everything · read-only',
  cli: '--agents JSON · read-only',
  project: '.claude/agents · this folder and those above it',
  user: '~/.claude/agents · all your projects',
  plugin: 'from plugins · read-only',
  'built-in': 'Fanout’s own · read-only'
}

const FILTERS: Array<{ id: LibraryFilter; label: string }> = [
  { id: 'all', label: 'All' },
  { id: 'problems', label: 'Problems' },
  { id: 'editable', label: 'Editable' },
  { id: 'shadowed', label: 'Shadowing' }
]

const base = (file?: string): string => (file ? (file.split(/[\\/]/).pop() ?? file) : '')

function Entry({ entry, active }: { entry: LibraryEntry; active: boolean }) {
  const errors = entry.diagnostics.filter((d) => d.severity === 'error').length
  const warnings = entry.diagnostics.filter((d) => d.severity === 'warning').length
  // The color its agents have in panels and the tree; a file that does not load has none.
  const colors = useAgentColor(entry.color, entry.agentType ?? '')
  return (
    <button
      className={`list-row ae-entry${active ? ' active' : ''}${entry.loaded ? '' : ' failed'}${entry.shadowedBy ? ' shadowed' : ''}`}
      onClick={() => selectEntry(entry.id)}
      data-testid="library-entry"
      data-agent={entry.agentType ?? ''}
      title={entry.file ?? entry.id}
    >
      <span className="ae-entry-dot" style={entry.loaded ? colors : undefined} />
      <span className="ae-entry-body">
        <span className="ae-entry-title">
          <span className="ae-entry-name">{entry.agentType ?? base(entry.file)}</span>
          {!entry.loaded && <span className="tag ae-tag-err">not loaded</span>}
          {entry.shadowedBy && <span className="tag tag-subtle">shadowed</span>}
          {errors > 0 && (
            <span className="ae-entry-count err-text" title={`${errors} error(s)`}>
              <Icon name="alert" size={11} />
              {errors}
            </span>
          )}
          {warnings > 0 && (
            <span className="ae-entry-count warn-text" title={`${warnings} warning(s)`}>
              <Icon name="alert" size={11} />
              {warnings}
            </span>
          )}
        </span>
        <span className="ae-entry-desc">{entry.description?.split('\n')[0] ?? entry.diagnostics.find((d) => d.severity === 'error')?.message ?? ''}</span>
        <span className="ae-entry-meta">
          {entry.file && <span className="mono">{base(entry.file)}</span>}
          {entry.model && <span>{entry.model}</span>}
          {entry.toolsLabel && <span className="ae-entry-tools">{entry.toolsLabel}</span>}
        </span>
        {(entry.shadows.length > 0 || entry.shadowedBy) && (
          <span className="ae-entry-shadow">
            {entry.shadows.length > 0 && `overrides ${entry.shadows.map((s) => SOURCE_LABEL[s.source].toLowerCase()).join(', ')}`}
            {entry.shadowedBy && `replaced by ${SOURCE_LABEL[entry.shadowedBy.source].toLowerCase()} ${base(entry.shadowedBy.file)}`}
          </span>
        )}
      </span>
    </button>
  )
}

export function LibraryList() {
  const { library, libraryError: error, query, filter, selected } = usePick(useAgentEditor, 'library', 'libraryError', 'query', 'filter', 'selected')
  const entries = visibleEntries(library, query, filter)
  const groups = LIBRARY_SOURCE_ORDER.map((source) => [source, entries.filter((e) => e.source === source)] as const).filter(([, list]) => list.length)
  return (
    <nav className="ae-library" aria-label="Agent library" data-testid="agent-library">
      <div className="ae-library-tools">
        <div className="input-box ae-search">
          <Icon name="search" size={13} />
          <input
            type="text"
            value={query}
            placeholder="Search agents…"
            title="Matches names, descriptions, file names and tools"
            onChange={(e) => editorUi.setQuery(e.target.value)}
            aria-label="Search agents by name, description, file or tools"
            data-testid="library-search"
          />
        </div>
        <TabRow label="Filter" className="ae-filters" tabClass="ae-filter" tabs={FILTERS} current={filter} onPick={editorUi.setFilter} testIdPrefix="filter-" />
      </div>
      <div className="ae-library-list">
        {error && <div className="inline-error sidebar-error">Could not read the agents: {error}</div>}
        {!library && !error && <div className="sidebar-empty">Reading agent folders…</div>}
        {library && !entries.length && <div className="sidebar-empty">{query || filter !== 'all' ? 'No agent matches.' : 'No agents yet.'}</div>}
        {groups.map(([source, list]) => (
          <div key={source} className="ae-group" data-testid={`group-${source}`}>
            <div className="ae-group-head">
              <span className="section-label sidebar-section-label">{SOURCE_LABEL[source]}</span>
              <span className="faint small">{list.length}</span>
            </div>
            <div className="ae-group-hint">{SOURCE_HINT[source]}</div>
            {list.map((e) => (
              <Entry key={e.id} entry={e} active={e.id === selected} />
            ))}
          </div>
        ))}
      </div>
    </nav>
  )
}
