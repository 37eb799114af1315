// The session list and what the sidebar does to a session: list a folder's sessions, open one (a live one
// joined to its events without a gap or a repeat) and page through its older items, rename and delete it.
import type { CallHandler } from '../../../shared/call-handlers'
import { resolve } from 'node:path'
import type { AgentEvent } from '../../../shared/events'
import type { SessionSummary } from '../../../shared/ipc-contract'
import { newestFirst } from '../../../shared/session-order'
import { isFinished } from '../orchestration'
import { listSessions, type SessionSummary as StoredSummary } from '../store'
import { joinLive, replaySession } from '../store/session-fold'
import { describeOwner, sessionOwner, type LockOwner } from '../store/session-lock'
import { HostCallError } from '../../../shared/host-call-error'
import { transcriptSizes } from '../store/view-checkpoint'
import type { HostListeners } from './host-listeners'
import type { LiveSessions } from './live-sessions'
import { ReplayPages } from './replay-pages'
import { deleteSessionFolder, isDemoSession, saveSessionName, sessionCallError, sessionName, storedSession, type TrashItem } from './session-files'
import { SessionFollower } from './session-follower'
import { openedSummaryView, runningElsewhereView, storedSummaryView } from './session-view'

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
  /** Sessions another process runs, followed since they were opened here. */
  private readonly followers = new Map<string, SessionFollower>()

  constructor(private readonly o: SessionCallsOptions) {}

  list: CallHandler<'sessions.list'> = async ({ cwd }) => {
    const folder = resolve(cwd ?? this.o.cwd())
    const { sessions } = await listSessions(this.o.dataDir)
    const mine = sessions.filter((s) => resolve(s.cwd) === folder && !this.o.live.get(s.sessionId))
    const owners = await Promise.all(mine.map((s) => sessionOwner(this.o.dataDir, s.sessionId).catch(() => null)))
    const stored = mine.map((s, i) => this.storedRow(s, undefined, owners[i]))
    const live = this.o.live.inFolder(folder).map((l) => this.o.live.summary(l))
    return { sessions: [...live, ...stored].sort(newestFirst) }
  }

  open: CallHandler<'sessions.open'> = async ({ sessionId }) => {
    const live = this.o.live.get(sessionId)
    // Run by another process (fanout run, another window): read-only here, and followed as it grows.
    const owner = live ? null : await sessionOwner(this.o.dataDir, sessionId).catch(() => null)
    if (owner) return this.openFollowed(sessionId, owner)
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

  /** A session another process runs: its transcripts as they are, then every event they gain, until it is let go. */
  private async openFollowed(sessionId: string, owner: LockOwner) {
    let replayed
    let sizes: Record<string, number>
    try {
      sizes = await transcriptSizes(this.o.dataDir, sessionId)
      replayed = await replaySession(this.o.dataDir, sessionId, { checkpoint: false })
    } catch (err) {
      throw sessionCallError(err, sessionId)
    }
    let follower = this.followers.get(sessionId)
    if (!follower) {
      follower = new SessionFollower({
        dataDir: this.o.dataDir,
        sessionId,
        emit: (events) => this.o.listeners.events(events),
        released: () => {
          this.followers.delete(sessionId)
          void this.releasedRow(sessionId)
        }
      })
      this.followers.set(sessionId, follower)
    }
    follower.start(sizes, replayed.seen ?? {})
    const index = { ...replayed.index, title: sessionName(this.o.dataDir, sessionId) ?? replayed.index.title }
    // Every event the follower sends comes after this view (it skips each agent's events up to the last
    // one folded here), so the UI applies all of them: upTo 0.
    return {
      session: { ...openedSummaryView(index, isDemoSession(this.o.dataDir, sessionId)), runningElsewhere: runningElsewhereView(owner) },
      ...this.replayPages.open(sessionId, replayed.state),
      upTo: 0
    }
  }

  /** The session's row once the process that ran it let it go: no longer read-only here. */
  private async releasedRow(sessionId: string): Promise<void> {
    const stored = await storedSession(this.o.dataDir, sessionId).catch(() => null)
    if (stored) this.o.listeners.notify({ type: 'session_updated', session: this.storedRow(stored) })
  }

  page: CallHandler<'sessions.page'> = async ({ sessionId, cursor }) => this.replayPages.take(sessionId, cursor)

  rename: CallHandler<'sessions.rename'> = async ({ sessionId, title }) => {
    const live = this.o.live.get(sessionId)
    // Known to exist before its name is saved: an unknown id leaves nothing behind.
    const stored = live ? null : await storedSession(this.o.dataDir, sessionId)
    await saveSessionName(this.o.dataDir, sessionId, title)
    if (live) live.title = title
    const session = stored ? this.storedRow(stored, title) : this.o.live.summary(live!)
    this.o.listeners.notify({ type: 'session_updated', session })
    return { session }
  }

  delete: CallHandler<'sessions.delete'> = async ({ sessionId }) => {
    const live = this.o.live.get(sessionId)
    const owner = live ? null : await sessionOwner(this.o.dataDir, sessionId).catch(() => null)
    if (owner) throw new HostCallError('conflict', `This session is being run by ${describeOwner(owner)}; stop it there before deleting it.`)
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
    for (const f of this.followers.values()) f.stop()
    this.followers.clear()
  }

  /** A stored session's row, under the name a person gave it where there is one. */
  private storedRow(s: StoredSummary, title = sessionName(this.o.dataDir, s.sessionId) ?? s.title, owner: LockOwner | null = null): SessionSummary {
    return {
      ...storedSummaryView({ ...s, title }, isDemoSession(this.o.dataDir, s.sessionId)),
      ...(owner ? { runningElsewhere: runningElsewhereView(owner) } : {})
    }
  }
}
