// Why a draft would not load, in the words the editor shows it in: the loader's first error, where it is
// (file:line:col), and, when a form field's value is the cause, that field — the fix is there, not in the raw
// file. The banner says it (of the unsaved draft, or of the file when nothing is changed), and saving such
// a draft asks first, with the same words.
import type { Diagnostic } from '../../../shared/agent-definition'
import type { AgentAnalysis, EditorFieldKey } from '../../../shared/agent-editor'
import { CODE_FIELD, FIELD_LABEL } from './field-help'

/** A form field that fixes the problem, and what to do in it ("fill in" Description). */
export interface FieldFix {
  field: EditorFieldKey
  label: string
  verb: string
}

export interface LoadProblem {
  /** What is wrong, to follow a "… would not load:": the loader's message without the "not loaded" it ends with. */
  message: string
  /** Where the form can fix it: which field, and what to do there. */
  fix?: FieldFix
  /** `code-reviewer.md:5:3`. */
  at: string
  line: number
}

export const fileName = (file: string): string => file.split(/[\\/]/).pop() ?? file

/** A loader message without the "the agent is not loaded" said around it (the editor says that its own way). */
export function sentence(message: string): string {
  return message.replace(/; the agent is not loaded$/, '')
}

const REQUIRED = new Set(['missing-name', 'empty-name', 'missing-description', 'empty-description'])

/**
 * What the form can do about a loader error, when the cause is a form field's value: a required field left
 * empty is filled in; a name with ":" loses it. A value of the wrong type (written in the raw file) keeps
 * the loader's own fix, which says what to write there.
 */
function formFix(d: Diagnostic): { message: string; fix: FieldFix } | null {
  const field = CODE_FIELD[d.code]
  if (!field) return null
  const label = FIELD_LABEL[field]
  if (REQUIRED.has(d.code)) return { message: `${field} is required`, fix: { field, label, verb: 'fill in' } }
  if (d.code === 'name-has-colon') return { message: sentence(d.message), fix: { field, label, verb: 'take the ":" out of' } }
  return null
}

/**
 * Why this analysis' text would not load, or null when it loads (warnings alone never stop it).
 * `editable`: the draft is the person's to change (not a built-in or plugin agent), so the form's fix applies.
 */
export function loadProblem(analysis: AgentAnalysis | null | undefined, { editable = true }: { editable?: boolean } = {}): LoadProblem | null {
  if (!analysis || analysis.loaded) return null
  const error = analysis.diagnostics.find((d) => d.severity === 'error')
  if (!error) return { message: 'the loader does not accept this file', at: fileName(analysis.file), line: 1 }
  const at = `${fileName(error.file)}:${error.line}:${error.column}`
  const form = editable && analysis.formEditable ? formFix(error) : null
  if (form) return { ...form, at, line: error.line }
  return { message: sentence(error.message), at, line: error.line }
}

/** How the banner opens: of the unsaved draft when there are changes, else of the file as it is on disk. */
export function bannerLead(dirty: boolean): string {
  return dirty ? 'With this change the agent would not load:' : 'This file does not load:'
}

/**
 * The line under the banner's reason: what the loaders do with it, and for an unsaved draft what is on disk
 * now. `diskLoads`: whether the saved file loads (unknown: not said). The raw file is offered only when the
 * form has no field to fix it in.
 */
export function bannerNote(problem: LoadProblem, { dirty, diskLoads }: { dirty: boolean; diskLoads?: boolean }): string {
  const where = problem.fix ? '' : ' Fix it in the raw file.'
  if (!dirty) return `Until it is fixed, Claude Code and Fanout skip it.${where}`
  if (diskLoads === true) return `The file on disk still loads. Saved like this, Claude Code and Fanout would skip it.${where}`
  if (diskLoads === false) return `The file on disk does not load either: Claude Code and Fanout skip it until it is fixed.${where}`
  return `Saved like this, Claude Code and Fanout would skip it.${where}`
}

/** A loader diagnostic as the form shows it under its field: a required field left empty says so plainly. */
export function fieldProblemText(d: Diagnostic): string {
  if (REQUIRED.has(d.code)) return 'Required: without it the agent does not load.'
  return d.message
}
