// The app store (zustand): the reduced event state plus what the host told us (workspace, sessions,
// settings) and UI choices. Event batches are folded in one `set` per batch. Actions call the host
// and throw CallError, so each view shows a failure next to the control that caused it.
import { create } from 'zustand'
import type { LoadedAgent } from '../../../shared/agent-definition'
import type { AgentEvent } from '../../../shared/events'
import type { CallName, CallRequest, CallResponse, HostNotice, SessionSummary, Settings, SettingsPatch, Workspace } from '../../../shared/ipc-contract'
import { CallError, type ConnectionState, type FanoutApi } from '../transport/types'
import { notConnectedText } from '../transport/call-words'
import type { FolderTrust } from '../../../shared/trust'
import { applyEvents } from '../../../shared/view/reducer'
import { expireWaitingRequests } from '../../../shared/view/permission-reducer'
import { newestFirst } from '../../../shared/session-order'
import { eventsAfter } from '../../../shared/view/live-join'
import { mergeOlderPage, type OlderPage } from '../../../shared/view/session-pages'
import { emptyEventsState, isActive, type EventsState, type PermissionDecision, type SessionState } from '../../../shared/view/session-state'
import { savedView, saveView } from '../lib/tab-memory'
import { forgetTrustWaiter, NOT_ANSWERED, refreshTrust, trustAnswered } from './folder-trust'
import { newTextCadence, takeDueEvents } from './text-cadence'

export type RightPane = 'panels' | 'timeline' | 'team'
export type Dialog = null | 'settings' | 'permissions' | 'open-folder' | 'palette' | 'shortcuts'
/** How the overview draws agents: chosen from their number and the room (auto), or as the person set it. */
export type DensityChoice = 'auto' | 'panels' | 'tiles' | 'compact'
export const DENSITY_CHOICES: readonly DensityChoice[] = ['auto', 'panels', 'tiles', 'compact']
const DENSITY_KEY = 'fanout.overviewDensity'

function storedDensity(): DensityChoice {
  const v = globalThis.localStorage?.getItem(DENSITY_KEY)
  return (DENSITY_CHOICES as readonly string[]).includes(v ?? '') ? (v as DensityChoice) : 'auto'
}

export interface AppState {
  api: FanoutApi | null
  mode: 'electron' | 'browser'
  connection: ConnectionState
  connectionDetail?: string
  workspace: Workspace | null
  sessions: SessionSummary[]
  sessionsError?: string
  settings: Settings | null
  agentDefs: LoadedAgent[]
  events: EventsState
  /** Sessions whose full history is in `events` (started here, or replayed). */
  loaded: Record<string, true>
  /** Reopened sessions whose older items are still on their way: how many per agent, or why they stopped. */
  older: Record<string, { items: Record<string, number>; error?: string }>
  currentSessionId: string | null
  /** Set while a session's history is being fetched; live events for it are held until then. */
  opening: { sessionId: string; held: AgentEvent[] } | null
  openError?: string
  rightPane: RightPane
  focusedAgentId: string | null
  /** Counts focusAgent calls: naming the same agent again scrolls its panel into view again. */
  focusSeq: number
  maximizedAgentId: string | null
  /** Finished panels the user expanded back into the grid. */
  expanded: Record<string, true>
  /** When the person last looked at each agent (its panel opened, jumped to): a failure seen needs them no more. */
  acknowledged: Record<string, number>
  /** The agent "Next agent needing you" went to last, so the next press goes on from there. */
  lastAttention: { sessionId: string; agentId: string } | null
  density: DensityChoice
  /** Counts "Tidy" presses: the overview settles (finished agents to their list) at once, pointer or not. */
  tidySeq: number
  dialog: Dialog
  firstRunDismissed: boolean
  /** A key was saved on the first-run page: it stays (saying so, offering a test) until Continue. */
  firstRunKeySaved: boolean
  /** Keys saved from this window: a new one makes earlier answers about the key (Test connection) stale. */
  keySaves: number
  /** What the workspace folder brings that runs by itself, and the person's answers (null: not known yet). */
  trust: FolderTrust | null
  /** Why the folder's trust could not be checked. */
  trustError?: string
  /** The folder's consent dialog is open (over any other dialog: Settings › MCP servers opens it too). */
  trustOpen: boolean
  /** A place in an agent's transcript to scroll to and highlight (a search result), once its item is there. */
  reveal: Reveal | null
  /** The session shown as a replay frame (replay-store.ts), if any. */
  replayingSessionId: string | null
}

export interface Reveal {
  sessionId: string
  agentId: string
  /** A tool call's row (its input or output matched). */
  toolUseId?: string
  /** Which kind of item, and the words to find in it. */
  kind: string
  words: string[]
  ts: number
  /** Counts reveals: the same place asked again scrolls again. */
  n: number
}

const initial: AppState = {
  api: null,
  mode: 'browser',
  connection: 'connecting',
  workspace: null,
  sessions: [],
  settings: null,
  agentDefs: [],
  events: emptyEventsState(),
  loaded: {},
  older: {},
  currentSessionId: null,
  opening: null,
  rightPane: 'panels',
  focusedAgentId: null,
  focusSeq: 0,
  maximizedAgentId: null,
  expanded: {},
  acknowledged: {},
  lastAttention: null,
  density: storedDensity(),
  tidySeq: 0,
  dialog: null,
  firstRunDismissed: false,
  firstRunKeySaved: false,
  keySaves: 0,
  trust: null,
  trustOpen: false,
  reveal: null,
  replayingSessionId: null
}

export const useApp = create<AppState>()(() => ({ ...initial }))

const get = useApp.getState
const set = useApp.setState

function api(): FanoutApi {
  const a = get().api
  if (!a) throw new Error('Not connected to Fanout yet.')
  return a
}

export function call<K extends CallName>(name: K, request: CallRequest<K>): Promise<CallResponse<K>> {
  return api().call(name, request)
}

function upsertSession(list: SessionSummary[], s: SessionSummary): SessionSummary[] {
  const rest = list.filter((x) => x.sessionId !== s.sessionId)
  return [s, ...rest].sort(newestFirst)
}

// Live batches are folded into the store once per animation frame, however many arrived since the last
// one: when the page falls behind, the batches that queued up cost one render instead of one each, so
// it catches up rather than falling further behind. Order is kept (one queue), so a status change still
// lands with the text before it; an agent's streamed text is drawn at most every other frame (see
// text-cadence.ts). A timer stands in when frames stop (a hidden window), so the state — and the
// notifications it drives — keep up. Without frames at all (tests), batches apply at once.
const HIDDEN_FLUSH_MS = 100
let pending: AgentEvent[] = []
let scheduled: { frame: number; timer: ReturnType<typeof setTimeout> } | null = null
let cadence = newTextCadence()

export function receiveEvents(batch: AgentEvent[]): void {
  if (typeof requestAnimationFrame !== 'function') return applyLive(batch)
  for (const e of batch) pending.push(e)
  schedule()
}

function schedule(): void {
  if (!scheduled) scheduled = { frame: requestAnimationFrame(onFrame), timer: setTimeout(onFrame, HIDDEN_FLUSH_MS) }
}

function cancelScheduled(): void {
  if (!scheduled) return
  cancelAnimationFrame(scheduled.frame)
  clearTimeout(scheduled.timer)
  scheduled = null
}

function onFrame(): void {
  cancelScheduled()
  const { due, later } = takeDueEvents(pending, cadence, performance.now())
  pending = later
  if (later.length) schedule()
  if (due.length) applyLive(due)
}

/** Applies every live event received so far, text kept for the next frame included (before a replay is merged). */
export function flushEvents(): void {
  cancelScheduled()
  if (!pending.length) return
  const batch = pending
  pending = []
  applyLive(batch)
}

// A session being replayed shows a recorded frame: its live events (a follow-up from another window) are
// not folded onto it; leaving the replay opens the session again, with everything (replay-store.ts).
let replaying: string | null = null

/** The session now shown as a replay frame, or null. */
export function setReplaying(sessionId: string | null): void {
  replaying = sessionId
  set({ replayingSessionId: sessionId })
}

/** Shows a replay frame (sent like a reopened view, its older items to follow) as the session's state. */
export function showFrame(sessionId: string, frame: { view: SessionState; olderItems: Record<string, number>; more: string | null }): void {
  set((s) => ({
    events: { ...s.events, sessions: { ...s.events.sessions, [sessionId]: frame.view } },
    loaded: { ...s.loaded, [sessionId]: true },
    older: { ...s.older, [sessionId]: { items: frame.olderItems } }
  }))
  // A newer frame starts its own pages: loadOlder stops the earlier frame's.
  if (frame.more) void loadOlder(sessionId, frame.more)
  else openings.delete(sessionId)
}

/** Folds replayed events onto the frame shown, as live batches are folded. */
export function applyReplayed(events: AgentEvent[]): void {
  if (events.length) set((s) => ({ events: applyEvents(s.events, events) }))
}

/** Forgets what the store holds of a session, so that opening it again reads it whole. */
export function unloadSession(sessionId: string): void {
  openings.delete(sessionId)
  set((s) => {
    const loaded = { ...s.loaded }
    delete loaded[sessionId]
    return { loaded }
  })
}

function applyLive(batch: AgentEvent[]): void {
  if (replaying) batch = batch.filter((e) => e.sessionId !== replaying)
  const { opening } = get()
  if (opening) {
    const held = batch.filter((e) => e.sessionId === opening.sessionId)
    if (held.length) {
      batch = batch.filter((e) => e.sessionId !== opening.sessionId)
      set({ opening: { ...opening, held: [...opening.held, ...held] } })
    }
  }
  if (loadingWaiting.size) {
    // Once opened for showing, a session's events are applied as they come (that opening's view has the rest).
    const { loaded } = get()
    batch = batch.filter((e) => {
      const held = loaded[e.sessionId] ? undefined : loadingWaiting.get(e.sessionId)
      held?.push(e)
      return !held
    })
  }
  if (batch.length) set((s) => ({ events: applyEvents(s.events, batch) }))
  // A main agent that ended changes its session's row (status, cost) even if no notice says so.
  if (batch.some((e) => e.type === 'agent_end' && e.parentAgentId === null)) void refreshSessions()
}

const noticeListeners = new Set<(n: HostNotice) => void>()

/** Notices for views with stores of their own (the Changes view re-reads a folder its work changed in). */
export function subscribeNotices(listener: (n: HostNotice) => void): () => void {
  noticeListeners.add(listener)
  return () => noticeListeners.delete(listener)
}

export function receiveNotice(n: HostNotice): void {
  for (const l of noticeListeners) l(n)
  if (n.type === 'session_updated') {
    if (get().workspace && n.session.cwd !== get().workspace!.cwd) return
    set((s) => ({ sessions: upsertSession(s.sessions, n.session) }))
    loadWaitingSessions()
  } else if (n.type === 'session_deleted') forgetSession(n.sessionId)
  else if (n.type === 'workspace_changed') void adoptWorkspace(n.workspace)
  else if (n.type === 'settings_changed') set({ settings: n.settings })
  else if (n.type === 'trust_changed') {
    if (n.trust.folder === get().trust?.folder) set({ trust: n.trust })
  }
  // Agent files changed on disk (the editor saved, moved or deleted one, or another program did): the
  // new-session picker and agent colours follow, whichever view is open when the notice comes.
  else if (n.type === 'agents_changed') void refreshAgentDefs()
  // The desktop menu chose a command: the page runs it as its shortcut would.
  else if (n.type === 'command') onMenuCommand?.(n.id)
}

let onMenuCommand: ((id: string) => void) | null = null
/** What runs a command the desktop menu chose (the action registry, set up by the app). */
export function setMenuCommandHandler(run: (id: string) => void): void {
  onMenuCommand = run
}

/** The effective agents of the workspace, for the new-session picker and agent colours. */
export async function refreshAgentDefs(): Promise<void> {
  const cwd = get().workspace?.cwd
  if (!cwd) return
  try {
    const r = await call('agents.list', { cwd })
    if (get().workspace?.cwd === cwd) set({ agentDefs: r.agents })
  } catch {
    if (get().workspace?.cwd === cwd) set({ agentDefs: [] })
  }
}

async function adoptWorkspace(workspace: Workspace): Promise<void> {
  set({ workspace, currentSessionId: null, maximizedAgentId: null, focusedAgentId: null, trust: null, trustError: undefined })
  await refreshSessions()
  void refreshAgentDefs()
  // Asked once per folder, as it opens: what it brings waits until the person answers.
  void refreshTrust().then((trust) => {
    if (trust?.state === 'waiting') set({ trustOpen: true })
  })
}

export async function refreshSessions(): Promise<void> {
  try {
    const { sessions } = await call('sessions.list', { cwd: get().workspace?.cwd })
    set({ sessions: [...sessions].sort(newestFirst), sessionsError: undefined })
    loadWaitingSessions()
  } catch (err) {
    set({ sessionsError: (err as Error).message })
  }
}

/** Connects the store to a transport and loads the first data. */
export function boot(a: FanoutApi): () => void {
  set({ api: a, mode: a.mode })
  const offs = [
    a.onEvents(receiveEvents),
    a.onNotice(receiveNotice),
    a.onConnection((connection, connectionDetail) => {
      const was = get().connection
      set({ connection, connectionDetail })
      if (connection === 'open' && was !== 'open') void onConnected()
    })
  ]
  return () => offs.forEach((off) => off())
}

async function onConnected(): Promise<void> {
  // After a reconnect, events may have been missed: everything not live-started must be replayed. After a
  // reload, the tab goes back to the session and agent it had open.
  const restored = get().currentSessionId ? null : savedView()
  const current = get().currentSessionId ?? restored?.sessionId ?? null
  set({ loaded: {}, older: {} })
  try {
    const [{ workspace }, { settings }] = await Promise.all([call('workspace.get', {}), call('settings.get', {})])
    set({ settings })
    if (get().workspace?.cwd !== workspace.cwd) await adoptWorkspace(workspace)
    else await refreshSessions()
    if (current) await openSession(current)
    if (restored && get().currentSessionId === restored.sessionId && !get().openError) {
      const agents = get().events.sessions[restored.sessionId]?.agents ?? {}
      const known = (id: string | null | undefined) => (id && agents[id] ? id : null)
      set({
        focusedAgentId: known(restored.focusedAgentId),
        maximizedAgentId: known(restored.maximizedAgentId),
        ...(restored.rightPane === 'timeline' || restored.rightPane === 'team' ? { rightPane: restored.rightPane } : {})
      })
    } else if (restored && get().openError) set({ currentSessionId: null, openError: undefined })
  } catch (err) {
    set({ sessionsError: (err as Error).message })
  }
}

export async function openSession(sessionId: string): Promise<void> {
  set({ currentSessionId: sessionId, maximizedAgentId: null, focusedAgentId: null, openError: undefined })
  if (get().loaded[sessionId]) return
  set({ opening: { sessionId, held: [] } })
  try {
    // The host folded the transcripts: the state comes with each transcript's newest items, the older
    // ones follow a page at a time (view/session-pages.ts).
    const opened = await call('sessions.open', { sessionId })
    flushEvents() // live events still waiting for a frame join `held` first, so none is applied twice
    const held = get().opening?.sessionId === sessionId ? get().opening!.held : []
    adoptOpened(sessionId, opened, held, { opening: null })
  } catch (err) {
    set({ opening: null, openError: (err as Error).message })
  }
}

/** Puts a session's history, with the live events that arrived while it was on its way, into the store. */
function adoptOpened(sessionId: string, { session, view, olderItems, more, upTo }: CallResponse<'sessions.open'>, held: AgentEvent[], also: Partial<AppState> = {}): void {
  // Live events that arrived while the history was on its way, minus those already in it.
  const fresh = eventsAfter(held, view, upTo)
  set((s) => {
    let replayed = applyEvents({ sessions: { ...s.events.sessions, [sessionId]: view } }, fresh)
    if (!isActive(session.status)) replayed = expireWaitingRequests(replayed, sessionId, session.updatedAt)
    return {
      events: replayed,
      loaded: { ...s.loaded, [sessionId]: true },
      older: { ...s.older, [sessionId]: { items: olderItems } },
      ...also
    }
  })
  if (more) void loadOlder(sessionId, more)
}

// Sessions loaded without being shown because requests of theirs wait for the person (a page reloaded,
// a second window): the permission queue reads requests from the store, so it needs their sessions
// there. Their live events are held here until the history arrives, as `opening` holds the shown one's.
const loadingWaiting = new Map<string, AgentEvent[]>()

function loadWaitingSessions(): void {
  const { sessions, loaded, opening } = get()
  for (const s of sessions)
    if (s.waitingPermissions && !loaded[s.sessionId] && opening?.sessionId !== s.sessionId && !loadingWaiting.has(s.sessionId)) void loadWaiting(s.sessionId)
}

async function loadWaiting(sessionId: string): Promise<void> {
  loadingWaiting.set(sessionId, [])
  try {
    const opened = await call('sessions.open', { sessionId })
    flushEvents()
    const held = loadingWaiting.get(sessionId) ?? []
    // Opened for showing meanwhile: that opening holds its own live events and wins.
    if (get().loaded[sessionId] || get().opening?.sessionId === sessionId) return
    adoptOpened(sessionId, opened, held)
  } catch (err) {
    // The row still says it waits, and opening it says why it cannot; the console says why loading failed.
    console.warn(`Could not load session ${sessionId}, whose requests wait for you: ${(err as Error).message}`)
  } finally {
    loadingWaiting.delete(sessionId)
  }
}

// The latest opening of each session: a page fetch that belongs to an earlier one stops.
const openings = new Map<string, object>()

/** Joins a reopened session's older items to it, page after page, until it is whole. */
async function loadOlder(sessionId: string, cursor: string): Promise<void> {
  const opening = {}
  openings.set(sessionId, opening)
  const current = () => openings.get(sessionId) === opening && get().loaded[sessionId]
  for (let more: string | null = cursor; more; ) {
    let page: OlderPage
    try {
      ;({ page, more } = await call('sessions.page', { sessionId, cursor: more }))
    } catch (err) {
      // No longer whole: opening the session again (what the page tells the user) replays it.
      if (current())
        set((s) => {
          const loaded = { ...s.loaded }
          delete loaded[sessionId]
          return { loaded, older: { ...s.older, [sessionId]: { ...s.older[sessionId], error: (err as Error).message } } }
        })
      return
    }
    if (!current()) return
    set((s) => ({
      events: { ...s.events, sessions: { ...s.events.sessions, [sessionId]: mergeOlderPage(s.events.sessions[sessionId], page) } },
      older: { ...s.older, [sessionId]: { items: fewerOlder(s.older[sessionId]?.items ?? {}, page) } }
    }))
  }
}

function fewerOlder(counts: Record<string, number>, page: OlderPage): Record<string, number> {
  const left = { ...counts }
  for (const [agentId, items] of Object.entries(page.items)) {
    left[agentId] = (left[agentId] ?? 0) - items.length
    if (left[agentId] <= 0) delete left[agentId]
  }
  return left
}

export function newSession(): void {
  set({ currentSessionId: null, maximizedAgentId: null, focusedAgentId: null, openError: undefined })
}

/**
 * The open folder, asked of the host when the page has not heard it yet (a start pressed the moment the page
 * connected): the answer, or the transport's own error ("not connected to Fanout") when it cannot answer.
 */
async function workspaceCwd(purpose: CallName): Promise<string> {
  const known = get().workspace?.cwd
  if (known) return known
  const { connection } = get()
  if (connection !== 'open') throw new CallError('disconnected', notConnectedText(purpose, connection))
  const { workspace } = await call('workspace.get', {})
  return workspace.cwd
}

export async function startSession(request: Omit<CallRequest<'session.start'>, 'cwd'>): Promise<void> {
  const cwd = await workspaceCwd('session.start')
  if (!(await trustAnswered())) throw new Error(NOT_ANSWERED)
  const { sessionId } = await call('session.start', { ...request, cwd })
  markLive(sessionId)
  void refreshSessions()
}

export async function startDemo(): Promise<void> {
  const cwd = await workspaceCwd('demo.start')
  if (!(await trustAnswered())) throw new Error(NOT_ANSWERED)
  const { sessionId } = await call('demo.start', { cwd })
  markLive(sessionId)
  set({ firstRunDismissed: true })
  void refreshSessions()
}

/** A session started from this window: every one of its events arrives live, no replay needed. */
function markLive(sessionId: string): void {
  set((s) => ({ loaded: { ...s.loaded, [sessionId]: true }, currentSessionId: sessionId, maximizedAgentId: null, focusedAgentId: null, rightPane: 'panels' }))
}

export const sendPrompt = (sessionId: string, prompt: string) => call('session.sendPrompt', { sessionId, prompt })
export const stopAgent = (sessionId: string, agentId: string) => call('agent.stop', { sessionId, agentId })
export const resumeInterrupted = (sessionId: string) => call('session.resumeInterrupted', { sessionId })
export const sendMessage = (sessionId: string, to: string, message: string) => call('agent.sendMessage', { sessionId, to, message })
export const compactAgent = (sessionId: string, agentId: string, instructions?: string) => call('agent.compact', { sessionId, agentId, ...(instructions ? { instructions } : {}) })
export const respondPermission = (requestId: string, decision: PermissionDecision) => call('permission.respond', { requestId, decision })

export async function renameSession(sessionId: string, title: string): Promise<void> {
  const { session } = await call('sessions.rename', { sessionId, title })
  set((s) => ({ sessions: s.sessions.map((x) => (x.sessionId === sessionId ? session : x)) }))
}

/** Deletes a stopped session; resolves whether it went to the system's trash. */
export async function deleteSession(sessionId: string): Promise<boolean> {
  const { trashed } = await call('sessions.delete', { sessionId })
  forgetSession(sessionId)
  return trashed
}

function forgetSession(sessionId: string): void {
  set((s) => {
    const sessions = { ...s.events.sessions }
    delete sessions[sessionId]
    const loaded = { ...s.loaded }
    delete loaded[sessionId]
    const current = s.currentSessionId === sessionId
    return {
      sessions: s.sessions.filter((x) => x.sessionId !== sessionId),
      events: { ...s.events, sessions },
      loaded,
      ...(current ? { currentSessionId: null, maximizedAgentId: null, focusedAgentId: null } : {})
    }
  })
}

export async function saveSettings(patch: SettingsPatch): Promise<void> {
  const { settings } = await call('settings.update', patch)
  set({ settings })
}

export async function saveApiKey(apiKey: string): Promise<void> {
  const { settings } = await call('settings.setApiKey', { apiKey })
  set((s) => ({ settings, keySaves: s.keySaves + 1 }))
}

export async function openFolder(cwd: string): Promise<void> {
  const { workspace } = await call('workspace.open', { cwd })
  await adoptWorkspace(workspace)
}

/** Electron's native picker; resolves false when the user cancelled. */
export async function pickFolder(): Promise<boolean> {
  const { workspace } = await call('workspace.pickFolder', {})
  if (workspace) await adoptWorkspace(workspace)
  return workspace !== null
}

export const ui = {
  setDialog: (dialog: Dialog) => set({ dialog }),
  setRightPane: (rightPane: RightPane) => set({ rightPane, maximizedAgentId: null }),
  /** Brings an agent's panel into view and highlights it (the person looked at it). */
  focusAgent: (agentId: string | null) =>
    set((s) => ({ focusedAgentId: agentId, focusSeq: s.focusSeq + 1, rightPane: 'panels', maximizedAgentId: null, ...(agentId ? { acknowledged: { ...s.acknowledged, [agentId]: Date.now() } } : {}) })),
  /** Moves the overview's selection (arrow keys): highlights the tile without scrolling the page about. */
  selectTile: (agentId: string) => set({ focusedAgentId: agentId }),
  maximize: (agentId: string | null) => set((s) => ({ maximizedAgentId: agentId, ...(agentId ? { acknowledged: { ...s.acknowledged, [agentId]: Date.now() } } : {}) })),
  setDensity: (density: DensityChoice) => {
    globalThis.localStorage?.setItem(DENSITY_KEY, density)
    set({ density })
  },
  tidy: () => set((s) => ({ tidySeq: s.tidySeq + 1 })),
  wentToAttention: (at: { sessionId: string; agentId: string }) => set((s) => ({ lastAttention: at, acknowledged: { ...s.acknowledged, [at.agentId]: Date.now() } })),
  toggleExpanded: (agentId: string) =>
    set((s) => {
      const expanded = { ...s.expanded }
      if (expanded[agentId]) delete expanded[agentId]
      else expanded[agentId] = true
      return { expanded }
    }),
  /** Opens an agent at a place in its transcript: the main agent's conversation, or a subagent's panel maximized. */
  reveal: (r: Omit<Reveal, 'n'>) =>
    set((s) => {
      const root = s.events.sessions[r.sessionId]?.rootAgentId === r.agentId
      return { reveal: { ...r, n: (s.reveal?.n ?? 0) + 1 }, focusedAgentId: r.agentId, focusSeq: s.focusSeq + 1, rightPane: 'panels', maximizedAgentId: root ? null : r.agentId }
    }),
  dismissFirstRun: () => set({ firstRunDismissed: true }),
  firstRunKeySaved: () => set({ firstRunKeySaved: true })
}

/** For tests and the e2e harness. */
export function resetStore(): void {
  pending = []
  forgetTrustWaiter()
  loadingWaiting.clear()
  cadence = newTextCadence()
  flushEvents() // cancels a scheduled frame
  set({ ...initial })
}

// The tab remembers what it shows, for a reload (lib/tab-memory.ts).
useApp.subscribe((s, prev) => {
  if (s.currentSessionId === prev.currentSessionId && s.focusedAgentId === prev.focusedAgentId && s.maximizedAgentId === prev.maximizedAgentId && s.rightPane === prev.rightPane) return
  // Still connecting after a reload: what it had open is not forgotten before it is restored.
  if (s.connection !== 'open' && !s.currentSessionId) return
  saveView(s.currentSessionId ? { sessionId: s.currentSessionId, focusedAgentId: s.focusedAgentId, maximizedAgentId: s.maximizedAgentId, rightPane: s.rightPane } : null)
})
