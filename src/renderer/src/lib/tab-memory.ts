// What this tab had open and typed, kept in sessionStorage (per tab, gone with it): a reload returns to
// the same session and agent, and an unsent prompt survives a reload or a restart of Fanout (a page whose
// token is stale carries it to the new address, see connection-gate.tsx).
const VIEW_KEY = 'fanout-view'
const DRAFT_PREFIX = 'fanout-draft:'

export interface TabView {
  sessionId: string
  focusedAgentId?: string | null
  maximizedAgentId?: string | null
  rightPane?: string
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage
  } catch {
    return null
  }
}

export function saveView(view: TabView | null): void {
  const s = storage()
  if (!s) return
  if (view) s.setItem(VIEW_KEY, JSON.stringify(view))
  else s.removeItem(VIEW_KEY)
}

export function savedView(): TabView | null {
  try {
    const v = JSON.parse(storage()?.getItem(VIEW_KEY) ?? 'null') as TabView | null
    return v && typeof v.sessionId === 'string' ? v : null
  } catch {
    return null
  }
}

export function saveDraft(key: string, text: string): void {
  const s = storage()
  if (!s) return
  if (text) s.setItem(DRAFT_PREFIX + key, text)
  else s.removeItem(DRAFT_PREFIX + key)
}

export const savedDraft = (key: string): string => storage()?.getItem(DRAFT_PREFIX + key) ?? ''

/** Every draft of this tab (to carry them to a new address). */
export function allDrafts(): Record<string, string> {
  const s = storage()
  const out: Record<string, string> = {}
  if (!s) return out
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i)
    if (k?.startsWith(DRAFT_PREFIX)) out[k.slice(DRAFT_PREFIX.length)] = s.getItem(k) ?? ''
  }
  return out
}

/** What a stale page hands to the new address (in its fragment, which never reaches a server). */
export function carriedState(): string {
  const view = savedView()
  return btoa(unescape(encodeURIComponent(JSON.stringify({ drafts: allDrafts(), ...(view ? { view } : {}) }))))
}

/** Takes what a stale page carried over (`#…&carry=…`) into this tab's memory. */
export function adoptCarried(encoded: string): void {
  try {
    const v = JSON.parse(decodeURIComponent(escape(atob(encoded)))) as { drafts?: Record<string, string>; view?: TabView }
    for (const [k, text] of Object.entries(v.drafts ?? {})) if (typeof text === 'string') saveDraft(k, text)
    if (v.view && typeof v.view.sessionId === 'string') saveView(v.view)
  } catch {
    // A damaged fragment carries nothing.
  }
}
