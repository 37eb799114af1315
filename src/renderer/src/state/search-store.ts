// Search: a question to the host's index (search.query) as the person types, in the open session or
// across the folder's sessions, and opening a result: the session, then the agent at that place in its
// transcript, scrolled to and highlighted. `openSearch` is what a command palette or a shortcut calls.
import { create } from 'zustand'
import type { SearchHit } from '../../../shared/search-replay-contract'
import { call, openSession, ui, useApp } from './store'

export type SearchScope = 'session' | 'all'

export interface SearchState {
  open: boolean
  scope: SearchScope
  text: string
  hits: SearchHit[]
  /** The words the hits are for (the text when it was asked). */
  asked: string
  indexing: { done: number; total: number } | null
  busy: boolean
  error: string | null
}

export const useSearch = create<SearchState>()(() => ({ open: false, scope: 'all', text: '', hits: [], asked: '', indexing: null, busy: false, error: null }))
const get = useSearch.getState
const set = useSearch.setState

let timer: ReturnType<typeof setTimeout> | null = null
let asking = 0

/** Opens the search box: in the session shown (when one is), or across the folder's sessions. */
export function openSearch(scope?: SearchScope): void {
  const inSession = !!useApp.getState().currentSessionId
  set({ open: true, scope: scope ?? (inSession ? 'session' : 'all') })
  if (get().text.trim()) runSearch()
}

export function closeSearch(): void {
  set({ open: false })
}

export function setSearchText(text: string): void {
  set({ text })
  if (timer) clearTimeout(timer)
  timer = setTimeout(runSearch, 120)
}

export function setSearchScope(scope: SearchScope): void {
  set({ scope, hits: [] })
  runSearch()
}

/** Asks now; while the host is still indexing, asks again until it is done. */
export function runSearch(): void {
  if (timer) clearTimeout(timer)
  timer = null
  const { text, scope } = get()
  const sessionId = useApp.getState().currentSessionId
  if (!text.trim()) return set({ hits: [], asked: '', indexing: null, error: null, busy: false })
  const mine = ++asking
  set({ busy: true, error: null })
  const request = scope === 'session' && sessionId ? { text, sessionId, limit: 200 } : { text, cwd: useApp.getState().workspace?.cwd, limit: 200 }
  call('search.query', request).then(
    ({ hits, indexing }) => {
      if (mine !== asking) return
      set({ hits, asked: text, indexing: indexing ?? null, busy: false })
      if (indexing && get().open) timer = setTimeout(runSearch, 700)
    },
    (err: Error) => {
      if (mine === asking) set({ busy: false, error: err.message })
    }
  )
}

/** Words of the question, for finding the place in the transcript and highlighting it. */
export const searchWords = (text: string): string[] => (text.normalize('NFKC').match(/[\p{L}\p{N}\p{M}_]+/gu) ?? []).map((w) => w.toLowerCase())

/** Opens a result: its session, then its agent at that place. A title opens the session. */
export async function openHit(hit: SearchHit): Promise<void> {
  closeSearch()
  if (useApp.getState().currentSessionId !== hit.sessionId) await openSession(hit.sessionId)
  if (!hit.agentId) return
  ui.reveal({
    sessionId: hit.sessionId,
    agentId: hit.agentId,
    ...(hit.toolUseId ? { toolUseId: hit.toolUseId } : {}),
    kind: hit.kind,
    words: searchWords(get().asked),
    ts: hit.ts
  })
}
