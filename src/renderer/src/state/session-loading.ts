// What the page loads of the folder and its sessions: the list once per folder (then rows as the host
// pushes them, with the requests each waits on), a session's history when it is opened (its older items a
// page at a time), a replay frame, and forgetting a session.
import type { AgentEvent } from '../../../shared/events'
import type { CallResponse, SessionSummary, Workspace } from '../../../shared/ipc-contract'
import { newestFirst } from '../../../shared/session-order'
import { eventsAfter } from '../../../shared/view/live-join'
import { expireWaitingRequests } from '../../../shared/view/permission-reducer'
import { syncPushedRequests } from '../../../shared/view/pushed-requests'
import { applyEvents } from '../../../shared/view/reducer'
import { mergeOlderPage, type OlderPage } from '../../../shared/view/session-pages'
import { isActive, type SessionState } from '../../../shared/view/session-state'
import { call, get, set, type AppState } from './app-state'
import { refreshTrust } from './folder-trust'
import { flushEvents } from './live-events'
import { errorMessage } from '../../../shared/error-message'

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

export async function adoptWorkspace(workspace: Workspace): Promise<void> {
  set({ workspace, currentSessionId: null, maximizedAgentId: null, focusedAgentId: null, trust: null, trustError: undefined })
  await refreshSessions()
  void refreshAgentDefs()
  // Asked once per folder, as it opens: what it brings waits until the person answers.
  void refreshTrust().then((trust) => {
    if (trust?.state === 'waiting') set({ trustOpen: true })
  })
}

/** The folder's sessions, asked once as it opens or the page (re)connects: the host pushes every change after. */
export async function refreshSessions(): Promise<void> {
  try {
    const { sessions } = await call('sessions.list', { cwd: get().workspace?.cwd })
    set({ sessions: [...sessions].sort(newestFirst), sessionsError: undefined })
    for (const row of sessions) syncWaiting(row)
  } catch (err) {
    set({ sessionsError: errorMessage(err) })
  }
}

/** A row the host pushed (a session started, changed status, cost or title, or a request waits or was answered). */
export function adoptRow(row: SessionSummary): void {
  set((s) => ({ sessions: [row, ...s.sessions.filter((x) => x.sessionId !== row.sessionId)].sort(newestFirst) }))
  syncWaiting(row)
}

// The permission queue reads requests from the store. A session whose history is here has them from its
// events; for one not opened (a page reloaded, a second window) its row brings them, with the agents that
// ask, so the queue lists and answers them without the session's history.
function syncWaiting(row: SessionSummary): void {
  const { loaded, opening, events } = get()
  if (loaded[row.sessionId] || opening?.sessionId === row.sessionId) return
  const next = syncPushedRequests(events, row.sessionId, row.pendingRequests, row.updatedAt)
  if (next !== events) set({ events: next })
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
    set({ opening: null, openError: errorMessage(err) })
  }
}

/** Puts a session's history, with the live events that arrived while it was on its way, into the store. */
function adoptOpened(
  sessionId: string,
  { session, view, olderItems, more, upTo }: CallResponse<'sessions.open'>,
  held: AgentEvent[],
  also: Partial<AppState> = {}
): void {
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

/** Forgets what the store holds of a session, so that opening it again reads it whole. */
export function unloadSession(sessionId: string): void {
  openings.delete(sessionId)
  set((s) => {
    const loaded = { ...s.loaded }
    delete loaded[sessionId]
    return { loaded }
  })
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
          return { loaded, older: { ...s.older, [sessionId]: { ...s.older[sessionId], error: errorMessage(err) } } }
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

/** A session deleted (here or elsewhere): its row, its state and, if shown, the view of it go. */
export function forgetSession(sessionId: string): void {
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

/** For tests and the e2e harness. */
export function resetSessionLoading(): void {
  openings.clear()
}
