// What the draft does to files: save (never over a change made on disk meanwhile), settle a conflict with
// the disk, revert, and the file operations (new, duplicate, rename, move, delete) and a try run.
import type { AgentAnalysis, AgentScope, EditorFieldKey } from '../../../shared/agent-editor'
import { NOT_ANSWERED, trustAnswered } from '../state/folder-trust'
import { call } from '../state/store'
import { errorMessage } from '../transport/types'
import { confirmToast } from '../views/notifications'
import { analyzeNow } from './draft-edits'
import { FIELD_LABEL } from './field-help'
import { loadFile, refreshLibrary, selectEntry } from './editor-library'
import { editorCwd, patchDraft, useAgentEditor, type Draft } from './editor-store'
import { fileName, loadProblem } from './load-problem'

const get = useAgentEditor.getState
const set = useAgentEditor.setState

/**
 * Writes the draft. A draft that would not load (Claude Code and Fanout would skip the file) is only
 * written once the person says so (`anyway`); warnings alone never ask.
 */
export async function saveDraft(opts: { anyway?: boolean; force?: boolean } = {}): Promise<void> {
  let d = get().draft
  if (!d || d.saving) return
  // What the person typed in a field the text could not take would be dropped by writing the text: say so, write nothing.
  const notInText = unappliedText(d)
  if (notInText) {
    patchDraft({ saveError: notInText })
    return
  }
  if (opts.anyway) {
    if (get().dialog?.kind === 'save-anyway') set({ dialog: null })
  } else {
    // Judge the text being saved, not an analysis of what it was before the last keystrokes.
    if (d.analysisFor !== d.text) {
      await analyzeNow()
      d = get().draft
      if (!d || d.saving) return
    }
    const problem = d.analysisFor === d.text ? loadProblem(d.analysis, { editable: !!d.scope }) : null
    if (problem) {
      set({ dialog: { kind: 'save-anyway', problem } })
      return
    }
  }
  const force = opts.force ?? false
  patchDraft({ saving: true, saveError: undefined })
  const text = d.text
  try {
    const { result } = await call('agents.save', { cwd: editorCwd(), file: d.file, text, base: d.base, ...(force ? { force } : {}) })
    const now = get().draft
    if (!now || now.file !== d.file) return
    if (result.saved) {
      patchDraft({
        saving: false,
        base: result.version,
        savedText: text,
        conflict: undefined,
        repaired: undefined,
        ...(now.text === text ? { analysis: result.analysis, analysisFor: text } : {})
      })
      confirmSaved(d.file, result.analysis)
      void refreshLibrary()
    } else {
      patchDraft({ saving: false, conflict: result.conflict })
    }
  } catch (err) {
    patchDraft({ saving: false, saveError: errorMessage(err) })
  }
}

/** Why the draft cannot be saved as the form shows it, naming each field and where it is in the file; null when it can. */
export function unappliedText(d: Draft): string | null {
  const keys = Object.keys(d.unapplied ?? {}) as EditorFieldKey[]
  if (!keys.length) return null
  const where = (key: EditorFieldKey) => {
    const line = d.analysis?.keySpans[key]?.line
    return line ? `${fileName(d.file)}:${line}` : `not in ${fileName(d.file)} yet`
  }
  const each = keys.map((key) => `${FIELD_LABEL[key]} (\`${key}\`, ${where(key)}): ${d.unapplied![key]!.replace(/\.?\s*$/, '.')}`)
  return `Not saved: what you typed in ${keys.length === 1 ? 'this field is' : 'these fields is'} not in the file, and saving would drop it. ${each.join(' ')} Fix it, or Revert, then save.`
}

/** Saving only makes the "unsaved" badge go: say so, and whether what was written loads. */
function confirmSaved(file: string, analysis: AgentAnalysis): void {
  const warnings = analysis.diagnostics.filter((x) => x.severity === 'warning').length
  const body = !analysis.loaded
    ? 'It does not load until its errors are fixed.'
    : warnings
      ? `Loads, with ${warnings} warning${warnings > 1 ? 's' : ''}.`
      : 'Loads cleanly.'
  confirmToast({ title: `Saved ${fileName(file)}`, body, kind: analysis.loaded ? 'success' : 'warn', key: 'agent-saved' })
}

/** The file changed on disk: take its version, dropping the draft's changes. */
export function takeDiskVersion(): void {
  const d = get().draft
  if (!d) return
  if (!d.conflict?.text || !d.conflict.version) {
    set({ draft: null, selected: null })
    void refreshLibrary()
    return
  }
  void loadFile(d.file)
}

/** The file changed on disk: keep the draft; the next save replaces the disk version knowingly. */
export function keepMine(): void {
  const d = get().draft
  if (!d?.conflict) return
  patchDraft({ base: d.conflict.version, conflict: undefined })
}

export function revertDraft(): void {
  const d = get().draft
  if (d) void loadFile(d.file)
}

async function afterFileChange(file: string | null): Promise<void> {
  await refreshLibrary()
  const entry = file ? get().library?.entries.find((e) => e.file === file) : undefined
  selectEntry(entry?.id ?? file, true)
}

/** File operations reject with a sentence saying why; the control that started one shows it. */
async function guarded(fn: () => Promise<void>): Promise<void> {
  set({ actionError: undefined })
  await fn()
}

/** An operation on the open draft's file (with none open, nothing happens). */
const onDraft = (fn: (d: Draft) => Promise<void>) =>
  guarded(async () => {
    const d = get().draft
    if (d) await fn(d)
  })

export const createAgent = (scope: AgentScope, name: string, template: string) =>
  guarded(async () => {
    const { file } = await call('agents.create', { cwd: editorCwd(), scope, name, template })
    set({ dialog: null, tab: 'form' })
    await afterFileChange(file)
  })

export const duplicateAgent = (scope?: AgentScope) =>
  onDraft(async (d) => {
    const { file } = await call('agents.duplicate', { cwd: editorCwd(), file: d.file, text: d.text, ...(scope ? { scope } : {}) })
    await afterFileChange(file)
  })

export const renameAgent = (name: string) =>
  onDraft(async (d) => {
    const { file } = await call('agents.rename', { cwd: editorCwd(), file: d.file, name, text: d.text, base: d.base })
    set({ dialog: null })
    await afterFileChange(file)
  })

export const moveAgent = (scope: AgentScope) =>
  onDraft(async (d) => {
    const { file } = await call('agents.move', { cwd: editorCwd(), file: d.file, scope, base: d.base })
    await afterFileChange(file)
  })

export const deleteAgent = () =>
  onDraft(async (d) => {
    await call('agents.delete', { cwd: editorCwd(), file: d.file, base: d.base })
    set({ dialog: null, draft: null, selected: null })
    await refreshLibrary()
  })

export const tryAgent = (prompt: string) =>
  onDraft(async (d) => {
    // A try is a session in the folder: what the folder runs by itself waits for the person's answer first.
    if (!(await trustAnswered())) throw new Error(NOT_ANSWERED)
    const { run } = await call('agents.try', { cwd: editorCwd(), file: d.file, text: d.text, prompt })
    set({ trying: { file: d.file, run } })
  })
