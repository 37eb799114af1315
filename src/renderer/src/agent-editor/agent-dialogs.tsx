// The editor's dialogs: a new agent (name, user or project, template), renaming (file and name together),
// deleting (with confirmation), leaving unsaved changes, and saving a draft that will not load.
import { useState } from 'react'
import { AGENT_NAME as NAME, agentNameProblem } from '../../../shared/agent-name'
import type { AgentScope } from '../../../shared/agent-editor'
import { DialogActions } from '../components/dialog-actions'
import { PathText } from '../components/path-text'
import { useTask } from '../lib/use-task'
import { Dialog } from '../views/dialog'
import { FormDialog } from '../views/form-dialog'
import { selectEntry } from './editor-library'
import { editorUi, useAgentEditor } from './editor-store'
import { createAgent, deleteAgent, renameAgent, saveDraft } from './file-actions'
import { fileName, type LoadProblem } from './load-problem'
import { ProblemReason } from './problem-reason'

const close = () => editorUi.setDialog(null)

function NewAgentDialog() {
  const library = useAgentEditor((s) => s.library)
  const [name, setName] = useState('')
  const [scope, setScope] = useState<AgentScope>('project')
  const [template, setTemplate] = useState('blank')
  const { error, busy, run } = useTask()
  const valid = NAME.test(name.trim())
  const problem = agentNameProblem(name)
  return (
    <FormDialog
      title="New agent"
      testId="new-agent-dialog"
      onClose={close}
      onSubmit={() => run(() => createAgent(scope, name.trim(), template))}
      confirm="Create"
      confirmTestId="new-agent-create"
      disabled={!valid}
      busy={busy}
      error={error}
    >
      <label className="field">
        <span className="field-label">Name</span>
        <input
          type="text"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. test-runner"
          className={`mono${problem ? ' invalid' : ''}`}
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby="new-agent-name-note"
          data-testid="new-agent-name"
        />
        {problem ? (
          <span className="field-error" id="new-agent-name-note" data-testid="new-agent-name-error">
            {problem}
          </span>
        ) : (
          <span className="field-hint" id="new-agent-name-note">
            Letters, digits, - _ and . — it is also the file name. The main agent asks for it by this name.
          </span>
        )}
      </label>
      <div className="field">
        <span className="field-label">Where</span>
        <div className="ae-scope-options">
          {(['project', 'user'] as const).map((s) => (
            <label key={s} className={`ae-scope-option${scope === s ? ' active' : ''}`}>
              <input type="radio" name="scope" checked={scope === s} onChange={() => setScope(s)} data-testid={`new-agent-scope-${s}`} />
              <span>
                <strong>{s === 'project' ? 'This project' : 'All my projects'}</strong>
                {library && <PathText path={library.dirs[s]} className="mono faint small" testId={`new-agent-dir-${s}`} />}
              </span>
            </label>
          ))}
        </div>
      </div>
      <div className="field">
        <span className="field-label">Start from</span>
        <div className="ae-templates">
          {(library?.templates ?? []).map((t) => (
            <label key={t.id} className={`ae-template${template === t.id ? ' active' : ''}`}>
              <input type="radio" name="template" checked={template === t.id} onChange={() => setTemplate(t.id)} data-testid={`template-${t.id}`} />
              <strong>{t.label}</strong>
              <span className="muted small">{t.description}</span>
            </label>
          ))}
        </div>
      </div>
    </FormDialog>
  )
}

function RenameDialog() {
  const draft = useAgentEditor((s) => s.draft)
  const current = String(draft?.analysis?.fields.name ?? '')
  const [name, setName] = useState(current)
  const { error, busy, run } = useTask()
  const valid = NAME.test(name.trim()) && name.trim() !== current
  const problem = agentNameProblem(name)
  return (
    <FormDialog
      title="Rename agent"
      testId="rename-dialog"
      onClose={close}
      onSubmit={() => run(() => renameAgent(name.trim()))}
      confirm="Rename"
      confirmTestId="rename-confirm"
      disabled={!valid}
      busy={busy}
      error={error}
    >
      <label className="field">
        <span className="field-label">New name</span>
        <input
          type="text"
          value={name}
          onChange={(e) => setName(e.target.value)}
          className={`mono${problem ? ' invalid' : ''}`}
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          data-testid="rename-name"
        />
        {problem && <span className="field-error">{problem}</span>}
        <span className="field-hint">
          Changes the file name and the name field together, and saves your other changes with it. Agents that ask for the old name will not find it.
        </span>
      </label>
    </FormDialog>
  )
}

function DeleteDialog() {
  const draft = useAgentEditor((s) => s.draft)
  const { error, busy, run } = useTask()
  return (
    <Dialog title="Delete agent" onClose={close} testId="delete-dialog">
      <p>
        Delete <code>{draft?.file}</code>? The file is removed from disk{draft && draft.text !== draft.savedText ? ', and your unsaved changes with it' : ''}.
        This cannot be undone here.
      </p>
      {error && <div className="inline-error">{error}</div>}
      <DialogActions
        onCancel={close}
        cancelLabel="Keep it"
        confirm="Delete"
        danger
        busy={busy}
        onConfirm={() => void run(deleteAgent)}
        confirmTestId="delete-confirm"
      />
    </Dialog>
  )
}

function DiscardDialog({ next }: { next: string | null }) {
  return (
    <Dialog title="Unsaved changes" onClose={close} testId="discard-dialog">
      <p>This agent has changes that are not saved. Leave it and lose them?</p>
      <DialogActions
        onCancel={close}
        cancelLabel="Stay"
        confirm="Discard changes"
        danger
        onConfirm={() => selectEntry(next, true)}
        confirmTestId="discard-confirm"
      />
    </Dialog>
  )
}

/**
 * Saving a draft Claude Code and Fanout would skip: say why and where (and the form field to change, when a
 * field's value is the cause), and let the person choose.
 */
function SaveAnywayDialog({ problem }: { problem: LoadProblem }) {
  const file = useAgentEditor((s) => (s.draft ? fileName(s.draft.file) : ''))
  const diskLoads = useAgentEditor((s) => s.library?.entries.find((e) => e.file === s.draft?.file)?.loaded)
  const name = file || 'this file'
  return (
    <Dialog title="Save an agent that will not load?" onClose={close} testId="save-anyway-dialog" describedBy="save-anyway-reason">
      <p id="save-anyway-reason" className="ae-dialog-reason">
        Saved like this, the agent will not load: <ProblemReason problem={problem} onShow={close} fixSuffix=" first" /> (at <code>{problem.at}</code>). Save
        anyway?
      </p>
      <p className="muted small">
        {diskLoads
          ? `${name} loads as it is on disk now; after this save, Claude Code and Fanout skip it until it is fixed, and the main agent will not be offered it.`
          : `Claude Code and Fanout skip ${name} until it is fixed: the main agent will not be offered it.`}
      </p>
      {/* The focus on "Keep editing": Enter or Escape keeps the draft unsaved. */}
      <DialogActions
        onCancel={close}
        cancelLabel="Keep editing"
        cancelTestId="save-anyway-cancel"
        focus="cancel"
        confirm="Save anyway"
        danger
        onConfirm={() => void saveDraft({ anyway: true })}
        confirmTestId="save-anyway-confirm"
      />
    </Dialog>
  )
}

export function AgentDialogs() {
  const dialog = useAgentEditor((s) => s.dialog)
  if (!dialog) return null
  if (dialog.kind === 'new') return <NewAgentDialog />
  if (dialog.kind === 'rename') return <RenameDialog />
  if (dialog.kind === 'delete') return <DeleteDialog />
  if (dialog.kind === 'save-anyway') return <SaveAnywayDialog problem={dialog.problem} />
  return <DiscardDialog next={dialog.next} />
}
