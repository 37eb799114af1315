// The bottom line: connection, mode and folder on the left; on the right the live totals of the open
// session, or in the Agents view the state of the agent files (the view is about files, not a session).
import { useShallow } from 'zustand/react/shallow'
import { useAgentEditor } from '../agent-editor/editor-store'
import { formatCost, plural } from '../lib/format'
import { agentCounts, countParts, subagentsText } from '../state/agent-counts'
import { sessionCostUsd } from '../state/selectors'
import { useApp } from '../state/store'

function SessionTotals() {
  const counts = useApp((s) => (s.currentSessionId && s.events.sessions[s.currentSessionId] ? agentCounts(s.events.sessions[s.currentSessionId]) : null))
  const cost = useApp((s) => sessionCostUsd(s, s.currentSessionId))
  if (!counts) return null
  return (
    <>
      {countParts(counts).map((p) => (
        <span key={p.group} className={`count-${p.group}`} data-testid={`status-count-${p.group}`}>
          {p.text}
        </span>
      ))}
      <span data-testid="status-subagents">{subagentsText(counts.total)}</span>
      <span>{formatCost(cost ?? 0)}</span>
    </>
  )
}

function AgentFileTotals() {
  const totals = useAgentEditor(
    useShallow((s) => {
      const entries = s.library?.entries ?? []
      const has = (severity: string) => entries.filter((e) => e.diagnostics.some((d) => d.severity === severity)).length
      return { files: entries.length, active: entries.filter((e) => e.active).length, broken: has('error'), warned: has('warning'), loaded: !!s.library }
    })
  )
  const openFile = useAgentEditor((s) => s.draft?.file.split('/').pop() ?? null)
  const unsaved = useAgentEditor((s) => !!s.draft && s.draft.text !== s.draft.savedText)
  if (!totals.loaded) return null
  return (
    <>
      {openFile && <span data-testid="status-open-agent">{unsaved ? `${openFile} · unsaved` : openFile}</span>}
      {totals.broken > 0 && <span className="err-text">{totals.broken} not loading</span>}
      {totals.warned > 0 && <span className="warn-text">{plural(totals.warned, 'file')} with warnings</span>}
      <span>{plural(totals.active, 'agent')} offered</span>
      <span>{plural(totals.files, 'file')}</span>
    </>
  )
}

export function StatusBar() {
  const connection = useApp((s) => s.connection)
  const mode = useApp((s) => s.mode)
  const cwd = useApp((s) => s.workspace?.cwd)
  const agentsOpen = useAgentEditor((s) => s.open)
  const label = { connecting: 'Connecting…', open: 'Connected', closed: 'Disconnected — reconnecting', unauthorized: 'Not authorized', gone: 'Not connected' }[
    connection
  ]
  return (
    <footer className="status-bar" data-testid="status-bar">
      <span className={`conn conn-${connection}`} data-testid="connection">
        <span className="conn-dot" /> {label}
      </span>
      <span>{mode === 'electron' ? 'Desktop' : 'Browser mode'}</span>
      {cwd && (
        <span className="status-cwd" title={cwd}>
          {cwd}
        </span>
      )}
      <span className="spacer" />
      {agentsOpen ? <AgentFileTotals /> : <SessionTotals />}
    </footer>
  )
}
