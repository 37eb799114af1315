// The store's connection to a transport: live events and host notices in, and on every (re)connection
// the first data (workspace, settings, the session list) and the view the tab had open. After that the
// host pushes what changes; nothing here polls.
import type { HostNotice } from '../../../shared/ipc-contract'
import type { FanoutApi } from '../transport/types'
import { savedView, saveView } from '../lib/tab-memory'
import { setStoppedNow } from '../lib/use-now'
import { call, get, set, useApp } from './app-state'
import { atNextFrame, receiveEvents } from './live-events'
import { adoptRow, adoptWorkspace, forgetSession, openSession, refreshAgentDefs, refreshSessions } from './session-loading'
import { errorMessage } from '../../../shared/error-message'

const noticeListeners = new Set<(n: HostNotice) => void>()

/** Notices for views with stores of their own (the Changes view re-reads a folder its work changed in). */
export function subscribeNotices(listener: (n: HostNotice) => void): () => void {
  noticeListeners.add(listener)
  return () => noticeListeners.delete(listener)
}

export function receiveNotice(n: HostNotice): void {
  for (const l of noticeListeners) l(n)
  if (n.type === 'session_updated') {
    // At the frame, the newest row of each session (live-events.ts): the host sends it again at every change.
    atNextFrame(`row:${n.session.sessionId}`, () => {
      if (get().workspace && n.session.cwd !== get().workspace!.cwd) return
      adoptRow(n.session)
    })
  }
  // In turn with its rows: a row sent before the session was deleted does not bring it back.
  else if (n.type === 'session_deleted') atNextFrame(`row:${n.sessionId}`, () => forgetSession(n.sessionId))
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

/** Connects the store to a transport and loads the first data. */
export function boot(a: FanoutApi): () => void {
  set({ api: a, mode: a.mode })
  const offs = [
    a.onEvents(receiveEvents),
    a.onNotice(receiveNotice),
    a.onConnection((connection, connectionDetail) => {
      const { connection: was, connectionLostAt } = get()
      // Lost once it was open, until it is open again: the page freezes (app.tsx) and its clocks stop where it was lost.
      const lostAt = connection === 'open' ? null : (connectionLostAt ?? (was === 'open' ? Date.now() : null))
      set({ connection, connectionDetail, connectionLostAt: lostAt })
      setStoppedNow(lostAt)
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
    set({ sessionsError: errorMessage(err) })
  }
}

// The tab remembers what it shows, for a reload (lib/tab-memory.ts).
useApp.subscribe((s, prev) => {
  if (
    s.currentSessionId === prev.currentSessionId &&
    s.focusedAgentId === prev.focusedAgentId &&
    s.maximizedAgentId === prev.maximizedAgentId &&
    s.rightPane === prev.rightPane
  )
    return
  // Still connecting after a reload: what it had open is not forgotten before it is restored.
  if (s.connection !== 'open' && !s.currentSessionId) return
  saveView(
    s.currentSessionId
      ? { sessionId: s.currentSessionId, focusedAgentId: s.focusedAgentId, maximizedAgentId: s.maximizedAgentId, rightPane: s.rightPane }
      : null
  )
})
