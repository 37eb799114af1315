// The Changes view's own store: which session's agents are being reviewed (one agent, or the whole session),
// what the host said about their branches, the open file's diff, the conflict preview, and the merge and
// discard dialogs. Every answer is asked for again when the work may have changed (an agent wrote a file or
// ended, a merge or discard happened anywhere), and a stale answer never replaces a newer one.
import { create } from 'zustand'
import type { DiscardOutcome, FileDiff, MergeOutcome, MergePreview, MergeStrategy, ReviewList } from '../../../shared/review'
import { call, saveSettings, subscribeNotices, useApp } from '../state/store'
import { errorMessage } from '../transport/types'

export type DiffLayout = 'split' | 'unified'

export interface OpenFile {
  agentId: string
  path: string
  /** A change in the worktree not committed to the branch yet. */
  uncommitted: boolean
}

export type ReviewDialog = null | { kind: 'merge'; agentIds: string[]; all: boolean } | { kind: 'discard'; agentId: string }

export type Outcome = { kind: 'merge'; outcome: MergeOutcome } | { kind: 'discard'; outcome: DiscardOutcome } | { kind: 'error'; message: string }

export interface ReviewState {
  /** The open Changes view: a session's folder and its agents that worked in worktrees; `selected` null is the overview. */
  view: { sessionId: string; cwd: string; agentIds: string[]; selected: string | null } | null
  list: ReviewList | null
  listError: string | null
  listLoading: boolean
  preview: MergePreview | null
  previewError: string | null
  previewLoading: boolean
  file: OpenFile | null
  diff: FileDiff | null
  diffError: string | null
  diffLoading: boolean
  layout: DiffLayout
  dialog: ReviewDialog
  busy: boolean
  /** What the last merge or discard did (or why it failed), shown until the next action. */
  outcome: Outcome | null
  /** Opening a worktree folder failed here (no file manager): the path to copy. */
  folderNote: string | null
}

const LAYOUT_KEY = 'fanout.review.layout'

function storedLayout(): DiffLayout {
  try {
    return globalThis.localStorage?.getItem(LAYOUT_KEY) === 'unified' ? 'unified' : 'split'
  } catch {
    return 'split'
  }
}

const initial = (): ReviewState => ({
  view: null,
  list: null,
  listError: null,
  listLoading: false,
  preview: null,
  previewError: null,
  previewLoading: false,
  file: null,
  diff: null,
  diffError: null,
  diffLoading: false,
  layout: storedLayout(),
  dialog: null,
  busy: false,
  outcome: null,
  folderNote: null
})

export const useReview = create<ReviewState>()(() => initial())
const get = useReview.getState
const set = useReview.setState

/** The agents of a session that worked in a worktree, in start order, and the session's folder. */
export function sessionWorktreeAgents(sessionId: string): { cwd: string | null; agentIds: string[] } {
  const s = useApp.getState().events.sessions[sessionId]
  if (!s) return { cwd: null, agentIds: [] }
  const root = s.rootAgentId ? s.agents[s.rootAgentId] : undefined
  const summary = useApp.getState().sessions.find((x) => x.sessionId === sessionId)
  const agentIds = s.agentOrder.filter((id) => s.agents[id]?.worktree)
  return { cwd: summary?.cwd ?? root?.cwd ?? null, agentIds }
}

// Each kind of answer carries the number of its request: only the latest one is kept.
const seq = { list: 0, preview: 0, diff: 0 }

export async function openReview(sessionId: string, agentId: string | null): Promise<void> {
  const { cwd, agentIds } = sessionWorktreeAgents(sessionId)
  if (!cwd) return
  set({ ...initial(), layout: get().layout, view: { sessionId, cwd, agentIds, selected: agentId } })
  await refreshReview()
}

export function closeReview(): void {
  seq.list++
  seq.preview++
  seq.diff++
  set({ ...initial(), layout: get().layout })
}

export async function selectAgent(agentId: string | null): Promise<void> {
  const view = get().view
  if (!view) return
  set({ view: { ...view, selected: agentId }, file: null, diff: null, diffError: null, outcome: null, folderNote: null })
  if (agentId) openFirstFile()
  else await loadPreview()
}

/** Reads the agents' branches again (and the preview on the overview, the open file's diff). */
export async function refreshReview(): Promise<void> {
  const view = get().view
  if (!view) return
  // Agents started since the view opened are reviewed too.
  const agentIds = sessionWorktreeAgents(view.sessionId).agentIds
  if (agentIds.join() !== view.agentIds.join()) set({ view: { ...view, agentIds } })
  const n = ++seq.list
  set({ listLoading: true })
  try {
    const { list } = await call('review.list', { cwd: view.cwd, agentIds })
    if (n !== seq.list) return
    set({ list, listError: null, listLoading: false })
  } catch (err) {
    if (n === seq.list) set({ listError: errorMessage(err), listLoading: false })
    return
  }
  const now = get()
  // The dry runs are asked for again only when what they depend on moved: a branch tip, the checkout.
  if (now.view?.selected === null && (previewKey() !== lastPreviewKey || !now.preview)) void loadPreview()
  if (now.file && stillChanged(now.file)) void loadDiff(now.file)
  else openFirstFile()
}

function stillChanged(f: OpenFile): boolean {
  const a = get().list?.agents.find((x) => x.agentId === f.agentId)
  return !!a && (f.uncommitted ? a.uncommitted : a.files).some((x) => x.path === f.path)
}

/** The selected agent's first changed file, when no file of it is open. */
function openFirstFile(): void {
  const { view, list, file } = get()
  const agent = view?.selected ? list?.agents.find((a) => a.agentId === view.selected) : undefined
  if (!agent || (file && file.agentId === agent.agentId && stillChanged(file))) return
  const first = agent.files[0]
    ? { path: agent.files[0].path, uncommitted: false }
    : agent.uncommitted[0]
      ? { path: agent.uncommitted[0].path, uncommitted: true }
      : null
  if (first) void selectFile({ agentId: agent.agentId, ...first })
  else set({ file: null, diff: null })
}

export async function selectFile(file: OpenFile): Promise<void> {
  set({ file, diff: null, diffError: null })
  await loadDiff(file)
}

async function loadDiff(file: OpenFile): Promise<void> {
  const view = get().view
  if (!view) return
  const n = ++seq.diff
  set({ diffLoading: true })
  try {
    const { diff } = await call('review.file', { cwd: view.cwd, agentId: file.agentId, path: file.path, ...(file.uncommitted ? { uncommitted: true } : {}) })
    if (n === seq.diff) set({ diff, diffError: null, diffLoading: false })
  } catch (err) {
    if (n === seq.diff) set({ diff: null, diffError: errorMessage(err), diffLoading: false })
  }
}

/** What the preview's answer depends on: the agents' tips and states, and the checkout's head and edits. */
function previewKey(): string {
  const list = get().list
  if (!list) return ''
  const c = list.checkout
  return [c.head, c.branch, c.dirtyFiles.join(','), c.operation, ...list.agents.map((a) => `${a.agentId}:${a.tip}:${a.state}:${a.uncommitted.length}`)].join(
    '|'
  )
}
let lastPreviewKey = ''

export async function loadPreview(): Promise<void> {
  const view = get().view
  if (!view) return
  lastPreviewKey = previewKey()
  const n = ++seq.preview
  set({ previewLoading: true })
  try {
    const { preview } = await call('review.preview', { cwd: view.cwd, agentIds: view.agentIds })
    if (n === seq.preview) set({ preview, previewError: null, previewLoading: false })
  } catch (err) {
    if (n === seq.preview) set({ preview: null, previewError: errorMessage(err), previewLoading: false })
  }
}

export function setLayout(layout: DiffLayout): void {
  set({ layout })
  try {
    globalThis.localStorage?.setItem(LAYOUT_KEY, layout)
  } catch {}
}

export function openDialog(dialog: ReviewDialog): void {
  set({ dialog, outcome: null, folderNote: null })
}

export function closeDialog(): void {
  set({ dialog: null })
}

/** Merges (the person's strategy is remembered in settings); the outcome stays in the dialog to be read. */
export async function mergeAgents(agentIds: string[], all: boolean, strategy: MergeStrategy): Promise<void> {
  const view = get().view
  if (!view || get().busy) return
  set({ busy: true, outcome: null })
  try {
    if (useApp.getState().settings?.mergeStrategy !== strategy) await saveSettings({ mergeStrategy: strategy }).catch(() => undefined)
    const { outcome } = await call('review.merge', { cwd: view.cwd, strategy, ...(all ? { all: true, agentIds: view.agentIds } : { agentIds }) })
    set({ outcome: { kind: 'merge', outcome } })
  } catch (err) {
    set({ outcome: { kind: 'error', message: errorMessage(err) } })
  } finally {
    set({ busy: false })
  }
  await refreshReview()
}

export async function discardAgent(agentId: string, expectTip: string): Promise<void> {
  const view = get().view
  if (!view || get().busy) return
  set({ busy: true, outcome: null })
  try {
    const { outcome } = await call('review.discard', { cwd: view.cwd, agentId, expectTip })
    set({ outcome: { kind: 'discard', outcome }, dialog: null })
    if (view.selected === agentId) set({ file: null, diff: null })
  } catch (err) {
    set({ outcome: { kind: 'error', message: errorMessage(err) } })
  } finally {
    set({ busy: false })
  }
  await refreshReview()
}

export async function openAgentFolder(agentId: string): Promise<void> {
  const view = get().view
  if (!view) return
  try {
    const r = await call('review.openFolder', { cwd: view.cwd, agentId })
    set({ folderNote: r.opened ? null : (r.message ?? r.path) })
  } catch (err) {
    set({ folderNote: errorMessage(err) })
  }
}

// A merge or discard in this folder (from this window, another one or the CLI's host) changes what is shown.
subscribeNotices((n) => {
  if (n.type === 'review_changed' && n.cwd === get().view?.cwd && !get().busy) void refreshReview()
})
