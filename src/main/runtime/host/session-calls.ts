// The session list and what the sidebar does to a session: list a folder's sessions, open one (a live one
// joined to its events without a gap or a repeat) and page through its older items, rename and delete it.
import { resolve } from 'node:path'
import type { AgentEvent } from '../../../shared/events'
import type { RuntimeHost } from '../../../shared/host'
import type { SessionSummary } from '../../../shared/ipc-contract'
import { newestFirst } from '../../../shared/session-order'
import { isFinished } from '../orchestration'
import { listSessions, type SessionSummary as StoredSummary } from '../store'
import { joinLive, replaySession } from '../store/session-fold'
import type { HostListeners } from './host-listeners'
import type { LiveSessions } from './live-sessions'
import { ReplayPages } from './replay-pages'
import { deleteSessionFolder, isDemoSession, saveSessionName, sessionCallError, sessionName, storedSession, type TrashItem } from './session-files'
import { openedSummaryView, storedSummaryView } from './session-view'

export interface SessionCallsOptions {
  dataDir: string
  live: LiveSessions
  listeners: HostListeners
  /** The workspace folder: the list's folder when a call names none. */
  cwd(): string
  home: string
  env: Record<string, string | undefined>
  trashItem?: TrashItem
}

export class SessionCalls {
  /** Older parts of sessions being opened, until the page fetches them. */
  readonly replayPages = new ReplayPages()

  constructor(private readonly o: SessionCallsOptions) {}

  list: RuntimeHost['listSessions'] = async ({ cwd }) => {
    const folder = resolve(cwd ?? this.o.cwd())
    const { sessions } = await listSessions(this.o.dataDir)
    const stored = sessions.filter((s) => resolve(s.cwd) === folder && !this.o.live.get(s.sessionId)).map((s) => this.storedRow(s))
    const live = this.o.live.inFolder(folder).map((l) => this.o.live.summary(l))
    return { sessions: [...live, ...stored].sort(newestFirst) }
  }

  open: RuntimeHost['openSession'] = async ({ sessionId }) => {
    const live = this.o.live.get(sessionId)
    // A session this process is still writing is replayed from its transcripts (any other may be read
    // from its checkpoint) and joined to its live events without a gap or a repeat: see joinLive.
    const during: AgentEvent[] = []
    const off = live?.session.subscribe((e) => during.push(e))
    let replayed
    try {
      if (live) await live.session.flush()
      replayed = await replaySession(this.o.dataDir, sessionId, { checkpoint: !live })
    } catch (err) {
      throw sessionCallError(err, sessionId)
    } finally {
      off?.()
    }
    if (!live) {
      const index = { ...replayed.index, title: sessionName(this.o.dataDir, sessionId) ?? replayed.index.title }
      return { session: openedSummaryView(index, isDemoSession(this.o.dataDir, sessionId)), ...this.replayPages.open(sessionId, replayed.state) }
    }
    const state = joinLive(replayed.state, during, replayed.seen ?? {})
    // From here the view holds every event up to `upTo`; the UI applies only live events after it.
    this.o.listeners.barrier()
    return { session: this.o.live.summary(live), ...this.replayPages.open(sessionId, state), upTo: live.session.lastSeq }
  }

  page: RuntimeHost['openSessionPage'] = async ({ sessionId, cursor }) => this.replayPages.take(sessionId, cursor)

  rename: RuntimeHost['renameSession'] = async ({ sessionId, title }) => {
    const live = this.o.live.get(sessionId)
    // Known to exist before its name is saved: an unknown id leaves nothing behind.
    const stored = live ? null : await storedSession(this.o.dataDir, sessionId)
    await saveSessionName(this.o.dataDir, sessionId, title)
    if (live) live.title = title
    const session = stored ? this.storedRow(stored, title) : this.o.live.summary(live!)
    this.o.listeners.notify({ type: 'session_updated', session })
    return { session }
  }

  delete: RuntimeHost['deleteSession'] = async ({ sessionId }) => {
    const live = this.o.live.get(sessionId)
    const busy = live?.session.registry.all().some((a) => !isFinished(a.status)) ?? false
    const trashed = await deleteSessionFolder(this.o.dataDir, sessionId, {
      live: live ? { busy, close: () => this.o.live.remove(live) } : null,
      home: this.o.home,
      env: this.o.env,
      trash: this.o.trashItem
    })
    this.o.listeners.notify({ type: 'session_deleted', sessionId })
    return { trashed }
  }

  close(): void {
    this.replayPages.close()
  }

  /** A stored session's row, under the name a person gave it where there is one. */
  private storedRow(s: StoredSummary, title = sessionName(this.o.dataDir, s.sessionId) ?? s.title): SessionSummary {
    return storedSummaryView({ ...s, title }, isDemoSession(this.o.dataDir, s.sessionId))
  }
}
