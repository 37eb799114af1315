// One agent file open: its header and actions, banners (read-only, repair, changed on disk), the form and
// prompt or the raw file, and on the right its problems, effective result and "Try it" (tabs of their own
// when the pane is too narrow for a side column).
import { useEffect, useRef, useState, type ReactNode } from 'react'
import type { AgentAnalysis } from '../../../shared/agent-editor'
import { Icon } from '../components/icon'
import { refocusWhenLost } from '../lib/focus'
import { useAgentColor } from '../lib/use-agent-color'
import { PathText } from '../components/path-text'
import { useSize } from '../lib/use-size'
import { useApp } from '../state/store'
import { errorMessage } from '../transport/types'
import { CodeEditor, type LineMark } from './code-editor'
import { repairDraft, setRawText } from './draft-edits'
import { editorUi, isDirty, useAgentEditor, type Draft } from './editor-store'
import { duplicateAgent, keepMine, moveAgent, revertDraft, saveDraft, takeDiskVersion } from './file-actions'
import { FieldForm } from './field-form'
import { bannerLead, bannerNote, loadProblem } from './load-problem'
import { ProblemReason } from './problem-reason'
import { SOURCE_LABEL } from './library-list'
import { PromptEditor } from './prompt-editor'
import { Prose } from './prose'
import { EffectivePanel, ProblemsPanel } from './side-panels'
import { TryPanel } from './try-panel'
import { HistoryPanel } from './history-panel'

/** A link that shows a line of the raw file. */
function LineLink({ line, label, mono = false }: { line: number; label?: string; mono?: boolean }) {
  return (
    <button
      type="button"
      className={`btn-link ae-line-link${mono ? ' mono' : ''}`}
      onClick={() => editorUi.reveal(line)}
      title="Show this line in the raw file"
    >
      {label ?? `line ${line}`}
    </button>
  )
}

/**
 * Why the draft would not load (or the file does not, with nothing changed), or loads only thanks to Claude
 * Code's quoting: said once, as severe as the problems it sums up (an error when it does not load, a warning
 * when it does), with each line to look at, and the form field to change when a field's value is the cause.
 */
function LoadBanner({ draft, analysis: a }: { draft: Draft; analysis: AgentAnalysis }) {
  const problem = loadProblem(a, { editable: !!draft.scope })
  const dirty = isDirty(draft)
  // Whether the file as saved loads: the library lists what is on disk.
  const diskLoads = useAgentEditor((s) => s.library?.entries.find((e) => e.file === draft.file)?.loaded)
  const fix = a.repair && draft.scope && (
    <button className="btn btn-sm btn-primary" onClick={() => void repairDraft()} data-testid="repair-button">
      Fix it
    </button>
  )
  if (problem) {
    return (
      <div
        className="ae-banner error"
        data-severity="error"
        data-draft={dirty ? 'unsaved' : 'saved'}
        data-testid={a.repair ? 'repair-banner' : 'load-error-banner'}
      >
        <Icon name="alert" size={14} />
        <span className="ae-banner-text">
          <span data-testid="load-problem">
            <strong>{bannerLead(dirty)}</strong> <ProblemReason problem={problem} /> (at <LineLink line={problem.line} label={problem.at} mono />)
          </span>
          {a.repair ? (
            <span className="muted">
              The fix, keeping every word: <Prose text={a.repair.changes.join(' ')} />
            </span>
          ) : (
            draft.scope && (
              <span className="muted" data-testid="load-problem-note">
                {bannerNote(problem, { dirty, diskLoads })}
              </span>
            )
          )}
        </span>
        {fix}
      </div>
    )
  }
  if (!a.repair) return null
  // It loads: only because Claude Code quotes values it cannot read otherwise. Its problems are warnings.
  const quoted = [...new Set(a.diagnostics.filter((d) => d.code === 'yaml-repaired').map((d) => d.line))]
  const worst = a.diagnostics.some((d) => d.severity === 'warning') ? 'warning' : 'info'
  return (
    <div className={`ae-banner ${worst === 'warning' ? 'warn' : 'info'}`} data-severity={worst} data-testid="repair-banner">
      <Icon name="alert" size={14} />
      <span className="ae-banner-text">
        <span>
          <strong>Not valid YAML as written.</strong> Claude Code still loads it, reading{' '}
          {quoted.length === 0 ? 'some values' : quoted.length === 1 ? 'the value on' : 'the values on'}{' '}
          {quoted.map((line, i) => (
            <span key={line}>
              {i > 0 && (i === quoted.length - 1 ? ' and ' : ', ')}
              <LineLink line={line} />
            </span>
          ))}{' '}
          as quoted text.
        </span>
        <span className="muted">
          {draft.scope ? 'Fix it adds the quotes, keeping every word; so does changing any field in the form.' : 'Duplicate it to fix a copy.'}
        </span>
      </span>
      {fix}
    </div>
  )
}

function Banners({ draft }: { draft: Draft }) {
  const a = draft.analysis
  const conflict = draft.conflict
  return (
    <>
      {conflict && (
        <div className="ae-banner warn" role="alert" data-testid="conflict-banner">
          <Icon name="alert" size={14} />
          <span>
            {conflict.text === null
              ? 'This file was deleted or moved on disk while you were editing it.'
              : 'This file changed on disk while you were editing it. Your version has not been saved.'}
          </span>
          <span className="spacer" />
          <button className="btn btn-sm" onClick={takeDiskVersion} data-testid="conflict-reload">
            {conflict.text === null ? 'Close it' : 'Reload from disk'}
          </button>
          <button className="btn btn-sm btn-primary" onClick={keepMine} data-testid="conflict-keep">
            Keep mine
          </button>
        </div>
      )}
      {!draft.scope && (
        <div className="ae-banner info">
          <Icon name="shield" size={14} />
          <span>{SOURCE_LABEL[draft.source]} agents are read-only here. Duplicate it into your project or user folder to change a copy.</span>
        </div>
      )}
      {a && <LoadBanner draft={draft} analysis={a} />}
      {draft.repaired && !a?.repair && (
        <div className="ae-banner ok" data-testid="repaired-banner">
          <Icon name="check" size={14} />
          <span>
            Repaired, every word kept: <Prose text={draft.repaired.join(' ')} /> Save to write it.
          </span>
        </div>
      )}
      {a && a.loaded && !a.formEditable && !a.repair && a.formBlocked && (
        <div className="ae-banner info">
          <Icon name="alert" size={14} />
          <span>
            <Prose text={a.formBlocked} /> The raw file can still be edited.
          </span>
        </div>
      )}
    </>
  )
}

function Header({ draft }: { draft: Draft }) {
  const dirty = isDirty(draft)
  const name = String(draft.analysis?.fields.name ?? draft.file.split(/[\\/]/).pop())
  const color = String(draft.analysis?.fields.color ?? '')
  // The color its agents will have: the one being edited, else the type's pick (as in panels and the tree).
  const colors = useAgentColor(color, name)
  const [error, setError] = useState<string | null>(null)
  const act = (fn: () => Promise<void>) => {
    setError(null)
    fn().catch((err) => setError(errorMessage(err)))
  }
  const other = draft.scope === 'project' ? 'user' : 'project'
  const editable = !!draft.analysis?.formEditable
  // Save and Revert are disabled once there is nothing to save (or while saving), and a disabled button
  // drops the keyboard focus it had: the agent's name takes it, where the "unsaved" tag was, and the
  // "Saved …" toast speaks for itself (a polite live region).
  const title = useRef<HTMLSpanElement>(null)
  const idle = !dirty || draft.saving
  useEffect(() => {
    if (idle) refocusWhenLost(() => title.current)
  }, [idle])
  const needsFix = editable ? undefined : 'Fix the file first: the name is set through its frontmatter'
  return (
    <header className="ae-header">
      {/* The name and its badges, and under them the file: a badge never takes the file's room, and the file
          name stays whole while its directory gives way. */}
      <div className="ae-title">
        <span className="ae-entry-dot large" style={draft.analysis?.loaded === false ? undefined : colors} />
        <div className="ae-title-text">
          <div className="ae-title-line">
            <span className="ae-title-name" title={name} tabIndex={-1} ref={title} data-testid="editor-title">
              {name}
            </span>
            <span className="tag tag-subtle">{SOURCE_LABEL[draft.source]}</span>
            {dirty && (
              <span className="tag tag-warn" data-testid="unsaved">
                unsaved
              </span>
            )}
          </div>
          <PathText path={draft.file} className="ae-title-file mono" testId="editor-file" />
        </div>
      </div>
      <div className="ae-actions">
        {error && (
          <span className="inline-error small ae-action-error" title={error}>
            {error}
          </span>
        )}
        <button
          className="btn btn-sm btn-ghost"
          disabled={!editable}
          onClick={() => act(() => duplicateAgent(draft.scope ? undefined : 'project'))}
          title={needsFix ?? (draft.scope ? 'A copy under a new name' : 'A copy in this project, which you can edit')}
          data-testid="action-duplicate"
        >
          Duplicate
        </button>
        {draft.scope && (
          <>
            <button
              className="btn btn-sm btn-ghost"
              disabled={!editable}
              title={needsFix ?? 'Rename the file and the name field together'}
              onClick={() => editorUi.setDialog({ kind: 'rename' })}
              data-testid="action-rename"
            >
              Rename
            </button>
            <button
              className="btn btn-sm btn-ghost"
              onClick={() => act(() => moveAgent(other))}
              title={`Move the file to the ${other} folder`}
              data-testid="action-move"
            >
              Move to {other}
            </button>
            <button className="btn btn-sm btn-ghost btn-danger-ghost" onClick={() => editorUi.setDialog({ kind: 'delete' })} data-testid="action-delete">
              Delete
            </button>
            <span className="ae-actions-sep" />
            <button className="btn btn-sm" disabled={!dirty || draft.saving} onClick={revertDraft} data-testid="action-revert">
              Revert
            </button>
            <button
              className="btn btn-sm btn-primary"
              disabled={!dirty || draft.saving || !!draft.conflict}
              onClick={() => void saveDraft()}
              title="Save (Ctrl+S)"
              data-testid="action-save"
            >
              {draft.saving ? 'Saving…' : 'Save'}
            </button>
          </>
        )}
      </div>
    </header>
  )
}

function RawView({ draft, note }: { draft: Draft; note?: string }) {
  const reveal = useAgentEditor((s) => s.revealLine)
  const marks: LineMark[] = (draft.analysis?.diagnostics ?? []).map((d) => ({ line: d.line, severity: d.severity }))
  return (
    <div className="ae-raw" data-testid="raw-view">
      <p className="field-hint">{note ?? 'The whole file as it is saved. Edits here and in the form are the same text: each shows the other’s changes.'}</p>
      <div className="ae-raw-editor">
        <CodeEditor
          language="agent-file"
          value={draft.text}
          onChange={setRawText}
          lineNumbers
          marks={marks}
          reveal={reveal}
          readOnly={!draft.scope}
          ariaLabel="Raw agent file"
          testId="raw-editor"
        />
      </div>
    </div>
  )
}

type SidePanel = 'problems' | 'effective' | 'history' | 'try'

/** Wider than this, the side panels have their own column beside the form (agent-editor.css, same figure). */
const NARROW = 720

export function EditorPane({ draft }: { draft: Draft }) {
  const tab = useAgentEditor((s) => s.tab)
  const reveal = useAgentEditor((s) => s.revealLine)
  const tools = useAgentEditor((s) => s.library?.availableTools ?? [])
  const isGitRepo = useApp((s) => !!s.workspace?.isGitRepo)
  const a = draft.analysis
  const readOnly = !draft.scope
  // Nothing for the form to show: the frontmatter is missing or unreadable even with Claude Code's repair.
  const unreadable = !!a && !a.formEditable && Object.keys(a.fields).length === 0
  // Too narrow for a side column (a 1024 px window), the side panels are tabs of their own beside Form and
  // Raw file, rather than a long scroll below the form. They stay mounted (hidden), so a Try it run goes on.
  const [side, setSide] = useState<SidePanel | null>(null)
  const [sizeRef, size] = useSize()
  const wide = size.width > NARROW
  useEffect(() => {
    if (wide) setSide(null)
  }, [wide])
  // A problem clicked opens its line in the raw file.
  useEffect(() => setSide(null), [reveal])
  const problems = a?.diagnostics.filter((d) => d.severity !== 'info') ?? []
  const mainTab = (id: 'form' | 'raw', label: string) => (
    <button
      role="tab"
      aria-selected={tab === id && !side}
      className={`pane-tab${tab === id && !side ? ' active' : ''}`}
      onClick={() => (editorUi.setTab(id), setSide(null))}
      data-testid={`tab-${id}`}
    >
      {label}
    </button>
  )
  const sideTab = (id: SidePanel, label: string, count?: ReactNode) => (
    <button
      role="tab"
      aria-selected={side === id}
      className={`pane-tab ae-side-tab${side === id ? ' active' : ''}`}
      onClick={() => setSide(id)}
      data-testid={`tab-side-${id}`}
    >
      {label}
      {count}
    </button>
  )
  return (
    <div className="ae-editor" data-testid="agent-editor" ref={sizeRef}>
      <Header draft={draft} />
      <div className="ae-editor-body" data-side={side ?? 'none'}>
        <div className="ae-main">
          <Banners draft={draft} />
          {draft.saveError && (
            <div className="ae-banner error" role="alert" data-testid="save-error">
              {draft.saveError}
            </div>
          )}
          {draft.fieldError && !draft.fieldError.key && <div className="ae-banner error">{draft.fieldError.message}</div>}
          <div className="ae-tabs" role="tablist">
            {mainTab('form', 'Form')}
            {mainTab('raw', 'Raw file')}
            <span className="ae-side-tabs">
              {sideTab(
                'problems',
                'Problems',
                problems.length > 0 && (
                  <span className={`count ${problems.some((d) => d.severity === 'error') ? 'count-failed' : 'count-waiting'}`}>{problems.length}</span>
                )
              )}
              {sideTab(
                'effective',
                'Effective tools',
                a?.effective && !a.effective.tools.error && <span className="count">{a.effective.tools.resolvedTools.length}</span>
              )}
              {sideTab('history', 'History')}
              {sideTab('try', 'Try it')}
            </span>
          </div>
          <div className="ae-main-scroll">
            {tab === 'form' && a && unreadable && (
              <RawView draft={draft} note="The form needs frontmatter it can read. Until the file is fixed, here it is as written." />
            )}
            {tab === 'form' && a && !unreadable && (
              <>
                <FieldForm analysis={a} fieldError={draft.fieldError} unapplied={draft.unapplied} availableTools={tools} readOnly={readOnly} />
                <PromptEditor body={a.body} bodyLine={a.bodyLine} readOnly={readOnly || !a.formEditable} />
              </>
            )}
            {tab === 'raw' && <RawView draft={draft} />}
          </div>
        </div>
        <aside className="ae-side" aria-label="Validation and result">
          {a && (
            <div className="ae-side-slot" data-panel="problems">
              <ProblemsPanel analysis={a} unapplied={draft.unapplied} />
            </div>
          )}
          {a && (
            <div className="ae-side-slot" data-panel="effective">
              <EffectivePanel analysis={a} />
            </div>
          )}
          <div className="ae-side-slot" data-panel="history">
            <HistoryPanel agentType={typeof a?.fields.name === 'string' ? a.fields.name : undefined} file={draft.file} />
          </div>
          <div className="ae-side-slot" data-panel="try">
            <TryPanel file={draft.file} canRun={!!a?.loaded} isGitRepo={isGitRepo} />
          </div>
        </aside>
      </div>
    </div>
  )
}
