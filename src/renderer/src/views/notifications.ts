// Desktop notifications and in-app toasts: a permission request waiting, a background agent finished,
// a session done while the window is in the background (driven by store changes, outside React); and
// short confirmations of what the person just did (an agent file saved), which belong to no session.
import { create } from 'zustand'
import type { AgentState, SessionState } from '../../../shared/view/session-state'
import { useApp } from '../state/store'

export interface Toast {
  id: number
  title: string
  body: string
  kind: 'info' | 'warn' | 'error' | 'success'
  /** The session a click opens; none for a confirmation, which a click only dismisses. */
  sessionId?: string
  agentId?: string
  /** Lets a toast be withdrawn when what it announced is over (a request answered). */
  key?: string
}

export const useToasts = create<{ toasts: Toast[] }>()(() => ({ toasts: [] }))
let nextToast = 1

export function dismissToast(id: number): void {
  useToasts.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }))
}

function toast(t: Omit<Toast, 'id'>, ttlMs = 8000): void {
  const id = nextToast++
  // A toast with the same key replaces the earlier one instead of stacking up.
  useToasts.setState((s) => ({ toasts: [...s.toasts.filter((x) => !t.key || x.key !== t.key).slice(-3), { ...t, id }] }))
  setTimeout(() => dismissToast(id), ttlMs)
}

/** A brief confirmation of something the person did, announced politely to screen readers too. */
export function confirmToast(t: Omit<Toast, 'id' | 'sessionId' | 'agentId'>, ttlMs = 4000): void {
  toast(t, ttlMs)
}

/** Asked from a click (browsers only allow the prompt after a user gesture). */
export function requestNotificationPermission(): void {
  if (typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission().catch(() => {})
}

function withdraw(key: string): void {
  useToasts.setState((s) => ({ toasts: s.toasts.filter((t) => t.key !== key) }))
}

function inBackground(): boolean {
  return document.hidden || !document.hasFocus()
}

function desktop(title: string, body: string, onClick: () => void): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return
  try {
    const n = new Notification(title, { body, silent: false })
    n.onclick = () => {
      window.focus()
      onClick()
    }
  } catch {}
}

const label = (a: AgentState | undefined) => (a ? `${a.agentType}${a.description ? ` — ${a.description}` : ''}` : 'An agent')

function onSessionChange(prev: SessionState | undefined, next: SessionState): void {
  if (prev?.permissionQueue.length && !next.permissionQueue.length) withdraw(`permissions:${next.id}`)
  for (const id of next.permissionQueue) {
    if (prev?.permissions[id]) continue
    const p = next.permissions[id]
    const a = next.agents[p.requestingAgentId]
    const waiting = next.permissionQueue.length
    const title = waiting > 1 ? `${waiting} permission requests waiting` : `Permission needed: ${p.toolName}`
    const body = waiting > 1 ? `Latest: ${p.toolName} from ${label(a)}` : label(a)
    toast({ title, body, kind: 'warn', sessionId: next.id, agentId: p.requestingAgentId, key: `permissions:${next.id}` })
    if (inBackground()) desktop(title, label(a), () => useApp.setState({ currentSessionId: next.id, dialog: 'permissions' }))
  }
  for (const id of next.agentOrder) {
    const a = next.agents[id]
    const before = prev?.agents[id]
    if (a === before || a.endedAt === null || (before && before.endedAt !== null)) continue
    const isRoot = id === next.rootAgentId
    if (!a.background && !(isRoot && inBackground())) continue
    const title = isRoot ? 'Session finished' : `Background agent ${a.status === 'completed' ? 'finished' : a.status}`
    toast({ title, body: label(a), kind: a.status === 'completed' ? 'success' : 'error', sessionId: next.id, agentId: id })
    if (inBackground()) desktop(title, label(a), () => useApp.setState({ currentSessionId: next.id, focusedAgentId: id }))
  }
}

/** Starts watching the store; returns the unsubscribe function. */
export function watchForNotifications(): () => void {
  return useApp.subscribe((state, prev) => {
    if (state.events === prev.events || state.opening) return
    for (const [id, s] of Object.entries(state.events.sessions)) {
      const before = prev.events.sessions[id]
      // A replayed session is history, not news.
      if (s !== before && (before || s.eventCount < 50) && state.loaded[id] === prev.loaded[id]) onSessionChange(before, s)
    }
  })
}
