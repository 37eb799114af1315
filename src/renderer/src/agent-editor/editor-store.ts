// The agent editor's state: the library, the open file's draft and its analysis, and the actions. The draft
// text is the one source of truth: form and prompt edits go to the host as changes (applied one batch at a
// time, always to the latest text), raw edits replace the text directly and are analysed shortly after.
// Nothing is written until Save, and a save never overwrites a change made on disk meanwhile.
import { create } from 'zustand'
import type { AgentSource } from '../../../shared/agent-definition'
import type { AgentAnalysis, AgentLibrary, AgentScope, EditorFieldKey, FieldValue, FileVersion, LibraryEntry, TryAgentResult } from '../../../shared/agent-editor'
import type { HostNotice } from '../../../shared/ipc-contract'
import { call, useApp } from '../state/store'
import { errorText } from '../transport/types'

export type LibraryFilter = 'all' | 'problems' | 'editable' | 'shadowed'
export type EditorTab = 'form' | 'raw'
export type PromptMode = 'write' | 'preview' | 'split'
export type EditorDialog = null | { kind: 'new' } | { kind: 'rename' } | { kind: 'delete' } | { kind: 'discard'; next: string | null }

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

const get = useAgentEditor.getState
const set = useAgentEditor.setState
const cwd = (): string => {
  const c = useApp.getState().workspace?.cwd
  if (!c) throw new Error('Open a folder first.')
  return c
}

export const isDirty = (d: Draft | null): boolean => !!d && d.text !== d.savedText

// ── library and notices ────────────────────────────────────────────────────────────────────────

let subscribed = false
function subscribe(): void {
  if (subscribed) return
  const api = useApp.getState().api
  if (!api) return
  subscribed = true
  api.onNotice((n) => {
    if (n.type === 'agents_changed') void onAgentsChanged()
    else if (n.type === 'agent_try_finished') {
      const t = get().trying
      if (t && t.run.sessionId === n.sessionId) set({ trying: { ...t, finished: n.worktree ?? null } })
    }
  })
  useApp.subscribe((s, prev) => {
    if (s.workspace?.cwd !== prev.workspace?.cwd && get().open) {
      set({ selected: null, draft: null, trying: null, mcpServers: [] })
      void refreshLibrary().then(loadMcp)
    }
  })
}

export async function refreshLibrary(): Promise<void> {
  try {
    const { library } = await call('agents.library', { cwd: cwd() })
    set({ library, libraryError: undefined })
  } catch (err) {
    set({ libraryError: errorText(err) })
  }
}

/** Files changed on disk: refresh the library and the new-session agent picker; check the open draft. */
async function onAgentsChanged(): Promise<void> {
  if (!get().open) return
  await refreshLibrary()
  void call('agents.list', { cwd: cwd() }).then((r) => useApp.setState({ agentDefs: r.agents }), () => undefined)
  const d = get().draft
  if (!d) return
  try {
    const { document } = await call('agents.open', { cwd: cwd(), file: d.file })
    const now = get().draft
    // A save of our own is on its way: its answer, not this notice, sets the new version.
    if (!now || now.file !== d.file || now.saving) return
    if (now.base && document.version.hash === now.base.hash) return
    if (document.text === now.text) set({ draft: { ...now, base: document.version, savedText: document.text, conflict: undefined } })
    else if (!isDirty(now)) set({ draft: fromDocument(document) })
    else set({ draft: { ...now, conflict: { text: document.text, version: document.version } } })
  } catch {
    const now = get().draft
    if (now && now.file === d.file && now.base) set({ draft: { ...now, conflict: { text: null, version: null } } })
  }
}

export function openAgents(): void {
  subscribe()
  set({ open: true })
  void refreshLibrary().then(loadMcp)
}

/**
 * Asks which MCP servers this folder uses and their tools (this may start them), then refreshes the tools
 * the picker offers and the open draft's effective tools. Hosts without MCP simply have none.
 */
let mcpAskedFor: string | null = null
async function loadMcp(): Promise<void> {
  const folder = cwd()
  // Listing may start the servers: once per folder is enough (sessions keep their own up to date).
  if (mcpAskedFor === folder) return
  mcpAskedFor = folder
  try {
    const { servers } = await call('mcp.list', { cwd: folder })
    set({ mcpServers: servers.map((s) => s.name) })
    if (!servers.some((s) => s.tools.length)) return
    await refreshLibrary()
    const d = get().draft
    if (d) patchDraft({ analysisFor: '' })
    await analyzeNow()
  } catch {
    mcpAskedFor = null
    set({ mcpServers: [] })
  }
}

export function closeAgents(): void {
  set({ open: false })
}

// ── opening a file ────────────────────────────────────────────────────────────────────────────

function fromDocument(doc: { file: string; text: string; version: FileVersion; source: AgentSource; scope?: AgentScope; analysis: AgentAnalysis }): Draft {
  return { file: doc.file, source: doc.source, ...(doc.scope ? { scope: doc.scope } : {}), base: doc.version, savedText: doc.text, text: doc.text, analysis: doc.analysis, analysisFor: doc.text, saving: false }
}

/** Shows a library entry; asks first when the open draft has unsaved changes. */
export function selectEntry(id: string | null, force = false): void {
  if (!force && isDirty(get().draft) && id !== get().selected) {
    set({ dialog: { kind: 'discard', next: id } })
    return
  }
  const entry = get().library?.entries.find((e) => e.id === id)
  const file = entry?.file ?? (id && /\.md$/i.test(id) ? id : undefined)
  set({ selected: id, dialog: null, openError: undefined, actionError: undefined, revealLine: null })
  if (!file) {
    set({ draft: null })
    return
  }
  void loadFile(file)
}

const selectedFile = (): string | undefined => {
  const { selected, library } = get()
  return library?.entries.find((e) => e.id === selected)?.file ?? selected ?? undefined
}

export async function loadFile(file: string): Promise<void> {
  set({ loading: true })
  try {
    const { document } = await call('agents.open', { cwd: cwd(), file })
    // Another entry was chosen while this one loaded: keep that choice.
    if (selectedFile() !== file) return
    set({ draft: fromDocument(document), loading: false })
  } catch (err) {
    set({ draft: null, loading: false, openError: errorText(err) })
  }
}

// ── editing ───────────────────────────────────────────────────────────────────────────────────

const pending = new Map<EditorFieldKey, FieldValue | null>()
let pendingBody: string | undefined
let working = false

function patchDraft(patch: Partial<Draft>): void {
  const d = get().draft
  if (d) set({ draft: { ...d, ...patch } })
}

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
        const r = await call('agents.edit', { cwd: cwd(), file: d.file, text: sent, changes, ...(body !== undefined ? { body } : {}) })
        const now = get().draft
        if (!now || now.file !== d.file) break
        // The raw text changed while this was on its way: apply the same changes to it instead.
        if (now.text !== sent) {
          sent = now.text
          continue
        }
        patchDraft({ text: r.text, analysis: r.analysis, analysisFor: r.text, fieldError: r.error })
        break
      }
    }
  } catch (err) {
    patchDraft({ fieldError: { message: errorText(err) } })
  } finally {
    working = false
  }
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

async function analyzeNow(): Promise<void> {
  const d = get().draft
  if (!d || d.analysisFor === d.text) return
  const text = d.text
  try {
    const { analysis } = await call('agents.analyze', { cwd: cwd(), file: d.file, text })
    if (get().draft?.text === text) patchDraft({ analysis, analysisFor: text })
  } catch (err) {
    patchDraft({ fieldError: { message: errorText(err) } })
  }
}

export async function repairDraft(): Promise<void> {
  const d = get().draft
  if (!d) return
  try {
    const r = await call('agents.repair', { cwd: cwd(), file: d.file, text: d.text })
    patchDraft({ text: r.text, analysis: r.analysis, analysisFor: r.text, repaired: r.changes })
  } catch (err) {
    set({ actionError: errorText(err) })
  }
}

export function revertDraft(): void {
  const d = get().draft
  if (d) void loadFile(d.file)
}

// ── saving and conflicts ──────────────────────────────────────────────────────────────────────

export async function saveDraft(force = false): Promise<void> {
  const d = get().draft
  if (!d || d.saving) return
  patchDraft({ saving: true, saveError: undefined })
  const text = d.text
  try {
    const { result } = await call('agents.save', { cwd: cwd(), file: d.file, text, base: d.base, ...(force ? { force } : {}) })
    const now = get().draft
    if (!now || now.file !== d.file) return
    if (result.saved) {
      patchDraft({ saving: false, base: result.version, savedText: text, conflict: undefined, repaired: undefined, ...(now.text === text ? { analysis: result.analysis, analysisFor: text } : {}) })
      void refreshLibrary()
    } else {
      patchDraft({ saving: false, conflict: result.conflict })
    }
  } catch (err) {
    patchDraft({ saving: false, saveError: errorText(err) })
  }
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

// ── file operations ───────────────────────────────────────────────────────────────────────────

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

export const createAgent = (scope: AgentScope, name: string, template: string) =>
  guarded(async () => {
    const { file } = await call('agents.create', { cwd: cwd(), scope, name, template })
    set({ dialog: null, tab: 'form' })
    await afterFileChange(file)
  })

export const duplicateAgent = (scope?: AgentScope) =>
  guarded(async () => {
    const d = get().draft
    if (!d) return
    const { file } = await call('agents.duplicate', { cwd: cwd(), file: d.file, text: d.text, ...(scope ? { scope } : {}) })
    await afterFileChange(file)
  })

export const renameAgent = (name: string) =>
  guarded(async () => {
    const d = get().draft
    if (!d) return
    const { file } = await call('agents.rename', { cwd: cwd(), file: d.file, name, text: d.text, base: d.base })
    set({ dialog: null })
    await afterFileChange(file)
  })

export const moveAgent = (scope: AgentScope) =>
  guarded(async () => {
    const d = get().draft
    if (!d) return
    const { file } = await call('agents.move', { cwd: cwd(), file: d.file, scope, base: d.base })
    await afterFileChange(file)
  })

export const deleteAgent = () =>
  guarded(async () => {
    const d = get().draft
    if (!d) return
    await call('agents.delete', { cwd: cwd(), file: d.file, base: d.base })
    set({ dialog: null, draft: null, selected: null })
    await refreshLibrary()
  })

export const tryAgent = (prompt: string) =>
  guarded(async () => {
    const d = get().draft
    if (!d) return
    const { run } = await call('agents.try', { cwd: cwd(), file: d.file, text: d.text, prompt })
    set({ trying: { file: d.file, run } })
  })

// ── view state ────────────────────────────────────────────────────────────────────────────────

export const editorUi = {
  setQuery: (query: string) => set({ query }),
  setFilter: (filter: LibraryFilter) => set({ filter }),
  setTab: (tab: EditorTab) => set({ tab }),
  setPromptMode: (promptMode: PromptMode) => set({ promptMode }),
  setDialog: (dialog: EditorDialog) => set({ dialog }),
  reveal: (line: number) => set({ tab: 'raw', revealLine: { line, nonce: Date.now() } })
}

/** The library entries the search and filter leave, in library order. */
export function visibleEntries(library: AgentLibrary | null, query: string, filter: LibraryFilter): LibraryEntry[] {
  if (!library) return []
  const q = query.trim().toLowerCase()
  return library.entries.filter((e) => {
    if (filter === 'problems' && !e.diagnostics.some((d) => d.severity !== 'info')) return false
    if (filter === 'editable' && !e.scope) return false
    if (filter === 'shadowed' && !e.shadowedBy && e.shadows.length === 0) return false
    if (!q) return true
    return [e.agentType, e.description, e.file, e.toolsLabel, e.model, e.source].some((v) => v?.toLowerCase().includes(q))
  })
}
