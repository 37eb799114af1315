// A reopened session cut into its newest part and older pages (view/session-pages.ts); the pages are kept
// until the page has fetched them.
// A cursor names one page; each is handed out once and then let go. A session the page stops fetching
// (closed, reconnected, reopened) is dropped after a while, and only the latest few are kept at all.
import { randomUuid } from '../random-hex'
import { splitSession, type OlderPage } from '../../../shared/view/session-pages'
import type { SessionState } from '../../../shared/view/session-state'
import { HostCallError } from '../../../shared/host-call-error'

const KEEP = 8
const EXPIRE_MS = 10 * 60_000

interface Pending {
  sessionId: string
  pages: Array<OlderPage | undefined>
  timer: ReturnType<typeof setTimeout>
}

export class ReplayPages {
  private readonly pending = new Map<string, Pending>()

  /** A session's state cut for sessions.open: its newest part now, the rest kept for sessions.page. */
  open(sessionId: string, state: SessionState): { view: SessionState; olderItems: Record<string, number>; more: string | null } {
    const { head, olderItems, pages } = splitSession(state)
    return { view: head, olderItems, more: this.add(sessionId, pages) }
  }

  /** Keeps `pages` for `sessionId`; returns the cursor of the first, or null when there are none. */
  add(sessionId: string, pages: OlderPage[]): string | null {
    if (!pages.length) return null
    const id = randomUuid()
    const timer = setTimeout(() => this.pending.delete(id), EXPIRE_MS)
    timer.unref?.()
    this.pending.set(id, { sessionId, pages, timer })
    if (this.pending.size > KEEP) this.drop(this.pending.keys().next().value!)
    return `${id}:0`
  }

  /** The page a cursor names and the cursor of the next one (null after the last). */
  take(sessionId: string, cursor: string): { page: OlderPage; more: string | null } {
    const [id, at] = cursor.split(':')
    const entry = this.pending.get(id)
    const index = Number(at)
    const page = entry?.sessionId === sessionId ? entry.pages[index] : undefined
    if (!entry || !page) throw new HostCallError('not_found', `Session ${sessionId} has no page ${cursor} waiting: open the session again.`)
    entry.pages[index] = undefined
    if (index + 1 < entry.pages.length) return { page, more: `${id}:${index + 1}` }
    this.drop(id)
    return { page, more: null }
  }

  close(): void {
    for (const id of [...this.pending.keys()]) this.drop(id)
  }

  private drop(id: string): void {
    clearTimeout(this.pending.get(id)?.timer)
    this.pending.delete(id)
  }
}
