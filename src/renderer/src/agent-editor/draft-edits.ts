// Edits of the open draft. Form and prompt changes go to the host, which applies them to the text (one batch
// at a time, always to the latest text, so no keystroke is lost); raw edits replace the text at once and
// are analysed when typing pauses. Nothing is written to disk here.
import type { EditorFieldKey, FieldValue } from '../../../shared/agent-editor'
import { call } from '../state/store'
import { errorMessage } from '../transport/types'
import { editorCwd, patchDraft, useAgentEditor } from './editor-store'

const get = useAgentEditor.getState
const set = useAgentEditor.setState

const pending = new Map<EditorFieldKey, FieldValue | null>()
let pendingBody: string | undefined
let working = false

/** Sends the queued form changes and prompt to the host, one batch at a time, each on the latest text. */
async function work(): Promise<void> {
  if (working) return
  working = true
  try {
    while (pending.size || pendingBody !== undefined) {
      const d = get().draft
      if (!d) break
      const changes = [...pending].map(([key, value]) => ({ key, value }))
      const body = pendingBody
      pending.clear()
      pendingBody = undefined
      let sent = d.text
      for (let attempt = 0; attempt < 3; attempt++) {
        const r = await call('agents.edit', { cwd: editorCwd(), file: d.file, text: sent, changes, ...(body !== undefined ? { body } : {}) })
        const now = get().draft
        if (!now || now.file !== d.file) break
        // The raw text changed while this was on its way: apply the same changes to it instead.
        if (now.text !== sent) {
          sent = now.text
          continue
        }
        const unapplied = stillUnapplied(now.unapplied, changes, r.error)
        // A save refused for what the text lacked is no longer true once the text has it all.
        const settled = now.unapplied && !unapplied ? { saveError: undefined } : {}
        patchDraft({ text: r.text, analysis: r.analysis, analysisFor: r.text, fieldError: r.error, unapplied, ...settled })
        break
      }
    }
  } catch (err) {
    patchDraft({ fieldError: { message: errorMessage(err) } })
  } finally {
    working = false
  }
}

/** Which fields' form values the text lacks after a batch: a refused change's field joins, the others made leave. */
function stillUnapplied(
  before: Partial<Record<EditorFieldKey, string>> | undefined,
  changes: ReadonlyArray<{ key: EditorFieldKey }>,
  error: { key?: string; message: string } | undefined
): Partial<Record<EditorFieldKey, string>> | undefined {
  const out = { ...before }
  for (const { key } of changes) {
    // An error naming no field is about the whole batch: none of it is in the text.
    if (error && (error.key === key || !error.key)) out[key] = error.message
    else delete out[key]
  }
  return Object.keys(out).length ? out : undefined
}

export function setField(key: EditorFieldKey, value: FieldValue | null): void {
  pending.set(key, value)
  void work()
}

export function setBody(body: string): void {
  pendingBody = body
  void work()
}

let analyzeTimer: ReturnType<typeof setTimeout> | null = null
/** The raw view: the text itself changes at once; the analysis follows when typing pauses. */
export function setRawText(text: string): void {
  patchDraft({ text })
  if (analyzeTimer) clearTimeout(analyzeTimer)
  analyzeTimer = setTimeout(() => void analyzeNow(), 200)
}

export async function analyzeNow(): Promise<void> {
  const d = get().draft
  if (!d || d.analysisFor === d.text) return
  const text = d.text
  try {
    const { analysis } = await call('agents.analyze', { cwd: editorCwd(), file: d.file, text })
    if (get().draft?.text === text) patchDraft({ analysis, analysisFor: text })
  } catch (err) {
    patchDraft({ fieldError: { message: errorMessage(err) } })
  }
}

export async function repairDraft(): Promise<void> {
  const d = get().draft
  if (!d) return
  try {
    const r = await call('agents.repair', { cwd: editorCwd(), file: d.file, text: d.text })
    patchDraft({ text: r.text, analysis: r.analysis, analysisFor: r.text, repaired: r.changes })
  } catch (err) {
    set({ actionError: errorMessage(err) })
  }
}
