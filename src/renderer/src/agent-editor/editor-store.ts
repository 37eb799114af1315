// The agent editor's state: the library, the open file's draft and its analysis, and what the view shows.
// The draft text is the one source of truth. The actions live beside this file: editor-library.ts (the
// library, notices, opening a file), draft-edits.ts (form, prompt and raw edits) and file-actions.ts (save,
// conflicts, file operations).
import { create } from 'zustand'
import type { AgentSource } from '../../../shared/agent-definition'
import type { AgentAnalysis, AgentLibrary, AgentScope, EditorFieldKey, FileVersion, TryAgentResult } from '../../../shared/agent-editor'
import type { HostNotice } from '../../../shared/ipc-contract'
import { useApp } from '../state/store'
import type { LoadProblem } from './load-problem'

export type LibraryFilter = 'all' | 'problems' | 'editable' | 'shadowed'
export type EditorTab = 'form' | 'raw'
export type PromptMode = 'write' | 'preview' | 'split'
export type EditorDialog =
  | null
  | { kind: 'new' }
  | { kind: 'rename' }
  | { kind: 'delete' }
  | { kind: 'discard'; next: string | null }
  /** Saving a draft that will not load: asked first, with the reason. */
  | { kind: 'save-anyway'; problem: LoadProblem }

export interface Draft {
  file: string
  source: AgentSource
  scope?: AgentScope
  /** The disk version the draft started from (what a save checks against). */
  base: FileVersion | null
  /** The text at `base`. */
  savedText: string
  text: string
  analysis: AgentAnalysis | null
  /** The text `analysis` describes (older than `text` while an analysis is on its way). */
  analysisFor: string
  /** A form change the host could not make, shown at its field. */
  fieldError?: { key?: string; message: string }
  /**
   * Fields whose form value is not in the text (the host refused the change: YAML that does not parse, a value
   * it cannot write), with why. A save would drop what the person typed there, so it is refused while any is.
   */
  unapplied?: Partial<Record<EditorFieldKey, string>>
  /** The file changed (or went away) on disk while this draft had unsaved changes. */
  conflict?: { text: string | null; version: FileVersion | null }
  saving: boolean
  saveError?: string
  /** What the last one-click repair changed. */
  repaired?: string[]
}

export interface TryState {
  file: string
  run: TryAgentResult
  finished?: Extract<HostNotice, { type: 'agent_try_finished' }>['worktree'] | null
}

interface EditorState {
  open: boolean
  library: AgentLibrary | null
  libraryError?: string
  query: string
  filter: LibraryFilter
  /** The library entry shown (its id); null shows the overview with the Agent tool's listing. */
  selected: string | null
  draft: Draft | null
  loading: boolean
  openError?: string
  actionError?: string
  tab: EditorTab
  promptMode: PromptMode
  /** A line of the raw file to bring into view (a clicked diagnostic). */
  revealLine: { line: number; nonce: number } | null
  dialog: EditorDialog
  trying: TryState | null
  /** MCP servers configured for this folder (names), for `mcp__server__*` suggestions. */
  mcpServers: string[]
}

export const useAgentEditor = create<EditorState>()(() => ({
  open: false,
  library: null,
  query: '',
  filter: 'all',
  selected: null,
  draft: null,
  loading: false,
  tab: 'form',
  promptMode: 'write',
  revealLine: null,
  dialog: null,
  trying: null,
  mcpServers: []
}))

const set = useAgentEditor.setState

/** The workspace folder every call is about. */
export const editorCwd = (): string => {
  const c = useApp.getState().workspace?.cwd
  if (!c) throw new Error('Open a folder first.')
  return c
}

/** Unsaved: the text differs from the disk's, or a field holds what the person typed that the text could not take. */
export const isDirty = (d: Draft | null): boolean => !!d && (d.text !== d.savedText || !!d.unapplied)

export function patchDraft(patch: Partial<Draft>): void {
  const d = useAgentEditor.getState().draft
  if (d) set({ draft: { ...d, ...patch } })
}

export const editorUi = {
  setQuery: (query: string) => set({ query }),
  setFilter: (filter: LibraryFilter) => set({ filter }),
  setTab: (tab: EditorTab) => set({ tab }),
  setPromptMode: (promptMode: PromptMode) => set({ promptMode }),
  setDialog: (dialog: EditorDialog) => set({ dialog }),
  reveal: (line: number) => set({ tab: 'raw', revealLine: { line, nonce: Date.now() } }),
  /** A form field named in a problem: the form, scrolled to that field, with its control focused. */
  showField: (field: string) => {
    set({ tab: 'form' })
    // After the form has rendered (it may have been the raw file a moment ago).
    requestAnimationFrame(() => {
      const frame = document.querySelector(`[data-testid="field-${field}"]`)
      const control = frame?.querySelector<HTMLElement>('input:not(:disabled), textarea:not(:disabled), select:not(:disabled), button:not(:disabled)')
      frame?.scrollIntoView({ block: 'center' })
      control?.focus()
    })
  }
}
