// The agent library and opening a file: the list of agent files, kept fresh by the host's notices (files
// changed on disk, a try run finished), the folder's MCP servers for tool suggestions, and loading the
// chosen entry into a draft (asking first when unsaved changes would be lost).
import type { AgentSource } from '../../../shared/agent-definition'
import type { AgentAnalysis, AgentLibrary, AgentScope, FileVersion, LibraryEntry } from '../../../shared/agent-editor'
import { call, useApp } from '../state/store'
import { errorMessage } from '../transport/types'
import { analyzeNow } from './draft-edits'
import { editorCwd, isDirty, patchDraft, useAgentEditor, type Draft, type LibraryFilter } from './editor-store'

const get = useAgentEditor.getState
const set = useAgentEditor.setState

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
    const { library } = await call('agents.library', { cwd: editorCwd() })
    set({ library, libraryError: undefined })
  } catch (err) {
    set({ libraryError: errorMessage(err) })
  }
}

/** Files changed on disk: refresh the library and check the open draft (the app store refreshes the picker). */
async function onAgentsChanged(): Promise<void> {
  if (!get().open) return
  await refreshLibrary()
  const d = get().draft
  if (!d) return
  try {
    const { document } = await call('agents.open', { cwd: editorCwd(), file: d.file })
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
  // No folder yet (the agents view opened before the workspace arrived): its arrival asks again.
  const folder = useApp.getState().workspace?.cwd
  if (!folder) return
  // Listing may start the servers: once per folder is enough (sessions keep their own up to date).
  if (mcpAskedFor === folder) return
  mcpAskedFor = folder
  try {
    const { servers } = await call('mcp.list', { cwd: folder })
    set({ mcpServers: servers.map((s) => s.name) })
    if (!servers.some((s) => s.tools.length)) return
    await refreshLibrary()
    patchDraft({ analysisFor: '' })
    await analyzeNow()
  } catch {
    mcpAskedFor = null
    set({ mcpServers: [] })
  }
}

export function closeAgents(): void {
  set({ open: false })
}

function fromDocument(doc: { file: string; text: string; version: FileVersion; source: AgentSource; scope?: AgentScope; analysis: AgentAnalysis }): Draft {
  return {
    file: doc.file,
    source: doc.source,
    ...(doc.scope ? { scope: doc.scope } : {}),
    base: doc.version,
    savedText: doc.text,
    text: doc.text,
    analysis: doc.analysis,
    analysisFor: doc.text,
    saving: false
  }
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
    const { document } = await call('agents.open', { cwd: editorCwd(), file })
    // Another entry was chosen while this one loaded: keep that choice.
    if (selectedFile() !== file) return
    set({ draft: fromDocument(document), loading: false })
  } catch (err) {
    set({ draft: null, loading: false, openError: errorMessage(err) })
  }
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
