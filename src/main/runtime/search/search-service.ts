// Search for the host: each session's index caught up shortly after its events are written (and before
// a question about it is answered), the index across sessions kept in step, damaged files rebuilt. One
// catch-up at a time per session; a question waits a moment for a catch-up, then answers with what is
// indexed and says how far indexing has got, so a session of a million events never holds an answer up.
import type { AgentEvent } from '../../../shared/events'
import { AllSessionsSearch, type AcrossHit } from './all-sessions-search'
import { breakStaleLock, deleteSearchDb, isBusy, isCorruption } from './search-db'
import { searchDbPath, SessionSearch, type AgentLabel, type CatchUpProgress, type SessionHit } from './session-search'
import { allSessionsDbPath } from './all-sessions-search'
import { errorMessage } from '../../../shared/error-message'

export interface SearchServiceOptions {
  dataDir: string
  /** A session's title and folder now (the name a person gave it, else its first prompt's line); null when it is gone. */
  describe(sessionId: string): Promise<{ title: string; cwd: string; updatedAt: number } | null>
  /** Everything a live session recorded is written (so a question sees its latest events). */
  flush?(sessionId: string): Promise<void>
  /** How long after a session's last event its index catches up. Default 800 ms. */
  debounceMs?: number
  /** How long a question waits for a catch-up before answering with what is indexed. Default 150 ms. */
  waitMs?: number
  onError?(err: Error): void
}

export interface Indexing {
  /** Sessions (across) or bytes (in one session) indexed and in all. */
  done: number
  total: number
}

const KEEP_OPEN = 6

export class SearchService {
  private readonly open = new Map<string, SessionSearch>()
  private readonly running = new Map<string, Promise<void>>()
  private readonly progress = new Map<string, CatchUpProgress>()
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>()
  private across: AllSessionsSearch | null = null
  private sweep: { key: string; run: Promise<void> } | null = null
  private closed = false

  constructor(private readonly o: SearchServiceOptions) {}

  /** Events were recorded: their sessions' indexes catch up a moment later. */
  noteEvents(events: readonly AgentEvent[]): void {
    if (this.closed) return
    const ids = new Set<string>()
    for (const e of events) if (e.seq !== undefined) ids.add(e.sessionId)
    for (const id of ids) {
      if (this.timers.has(id)) continue
      const timer = setTimeout(() => {
        this.timers.delete(id)
        void this.catchUp(id).catch((err: Error) => this.o.onError?.(err))
      }, this.o.debounceMs ?? 800)
      timer.unref?.()
      this.timers.set(id, timer)
    }
  }

  /** Indexes what the session's transcripts gained; one at a time per session. */
  catchUp(sessionId: string): Promise<void> {
    const now = this.running.get(sessionId)
    if (now) return now.then(() => this.catchUp(sessionId))
    const run = this.doCatchUp(sessionId).finally(() => {
      this.running.delete(sessionId)
      this.progress.delete(sessionId)
    })
    this.running.set(sessionId, run)
    return run
  }

  private async doCatchUp(sessionId: string): Promise<void> {
    if (this.closed) return
    const about = await this.o.describe(sessionId)
    if (!about || this.closed) return
    await this.guard(sessionId, async () => {
      const index = this.index(sessionId)
      await index.catchUp(
        (p) => this.progress.set(sessionId, p),
        () => this.closed || index !== this.open.get(sessionId)
      )
      if (this.closed || index !== this.open.get(sessionId)) return
      const all = this.allSessions()
      all.setTitle(sessionId, about.cwd, about.title, about.updatedAt)
      all.copyFrom(index)
    })
  }

  /**
   * Runs `fn`; a damaged index file is thrown away and built again once, and a lock left by a process that
   * died (search-db.ts, STALE_LOCK_MS) is let go and `fn` tried again once. `sessionId` null: the index
   * across sessions alone.
   */
  private async guard<T>(sessionId: string | null, fn: () => Promise<T> | T): Promise<T> {
    try {
      return await fn()
    } catch (err) {
      if (isBusy(err) && !this.closed && this.breakStaleLocks(sessionId)) return fn()
      if (!isCorruption(err) || this.closed) throw err
      this.o.onError?.(
        new Error(
          `The search index ${sessionId === null ? 'across sessions' : `of session ${sessionId}`} was damaged and is being rebuilt: ${errorMessage(err)}`
        )
      )
      if (sessionId !== null) {
        this.drop(sessionId)
        deleteSearchDb(searchDbPath(this.o.dataDir, sessionId))
      }
      this.across?.close()
      this.across = null
      deleteSearchDb(allSessionsDbPath(this.o.dataDir))
      return fn()
    }
  }

  /** Lets go of the locks a dead process left on the session's index and the index across sessions: true when there was one. */
  private breakStaleLocks(sessionId: string | null): boolean {
    const session = sessionId !== null && breakStaleLock(searchDbPath(this.o.dataDir, sessionId))
    return breakStaleLock(allSessionsDbPath(this.o.dataDir)) || session
  }

  private index(sessionId: string): SessionSearch {
    let index = this.open.get(sessionId)
    if (index) {
      // Most recently used last.
      this.open.delete(sessionId)
      this.open.set(sessionId, index)
      return index
    }
    index = new SessionSearch(this.o.dataDir, sessionId)
    if (index.rebuiltBecause) this.o.onError?.(new Error(`The search index of session ${sessionId} is rebuilt from its transcripts: ${index.rebuiltBecause}`))
    this.open.set(sessionId, index)
    for (const [id, old] of this.open) {
      if (this.open.size <= KEEP_OPEN) break
      if (this.running.has(id)) continue
      old.close()
      this.open.delete(id)
    }
    return index
  }

  private allSessions(): AllSessionsSearch {
    if (!this.across) {
      this.across = new AllSessionsSearch(this.o.dataDir)
      if (this.across.rebuiltBecause) this.o.onError?.(new Error(`The search index across sessions is rebuilt: ${this.across.rebuiltBecause}`))
    }
    return this.across
  }

  /** Waits for a catch-up at most `waitMs`; true when it finished. */
  private async settle(run: Promise<void>): Promise<boolean> {
    let done = false
    await Promise.race([run.then(() => (done = true)), new Promise((r) => setTimeout(r, this.o.waitMs ?? 150))])
    return done
  }

  /** Documents of one session holding every word of `text`, newest first. */
  async inSession(sessionId: string, text: string, limit: number): Promise<{ hits: SessionHit[]; agents: Record<string, AgentLabel>; indexing?: Indexing }> {
    await this.o.flush?.(sessionId).catch(() => undefined)
    const run = this.catchUp(sessionId)
    run.catch((err: Error) => this.o.onError?.(err))
    // A catch-up that found the index held (by another process, or by one that died: search-db.ts) has not
    // read everything: the answer says indexing is under way, so the page asks again.
    let held = false
    const finished = await this.settle(run).catch((err) => ((held = isBusy(err)), true))
    const p = this.progress.get(sessionId)
    const indexing = p ? { done: p.done, total: p.total } : { done: 0, total: 1 }
    const answer = () => {
      const index = this.index(sessionId)
      // Still catching up (even before its first batch): the page asks again until it is done.
      return { hits: index.search(text, limit), agents: index.agents(), ...(!finished || held ? { indexing } : {}) }
    }
    try {
      return answer()
    } catch (err) {
      if (isBusy(err) && !this.closed) {
        // A lock a dead process left is let go and the index catches up; meanwhile, no hits yet.
        if (this.breakStaleLocks(sessionId)) this.catchUp(sessionId).catch((e: Error) => this.o.onError?.(e))
        return { hits: [], agents: {}, indexing }
      }
      if (!isCorruption(err) || this.closed) throw err
      // A damaged page the catch-up did not read: rebuilt from the transcripts, then asked again.
      this.o.onError?.(new Error(`The search index of session ${sessionId} was damaged and is rebuilt: ${errorMessage(err)}`))
      this.drop(sessionId)
      deleteSearchDb(searchDbPath(this.o.dataDir, sessionId))
      await this.catchUp(sessionId)
      return answer()
    }
  }

  /** Titles and transcript documents of the sessions given (a folder's), newest first. */
  async acrossSessions(sessionIds: readonly string[], cwd: string, text: string, limit: number): Promise<{ hits: AcrossHit[]; indexing?: Indexing }> {
    const held = { hits: [], indexing: { done: 0, total: Math.max(1, sessionIds.length) } }
    let all: AllSessionsSearch
    try {
      all = this.allSessions()
    } catch (err) {
      // Held by another process (or one that died, whose lock the open lets go of once it is old enough): the
      // page asks again.
      if (!isBusy(err) || this.closed) throw err
      return held
    }
    // Sessions whose index lags behind are caught up one after the other; the answer does not wait long.
    const lagging: string[] = []
    for (const id of sessionIds) {
      if (this.running.has(id) || this.timers.has(id) || all.copiedUpTo(id) < 0) lagging.push(id)
    }
    // Sessions written by another process (the CLI) since are caught up too, one sweep at a time however
    // fast the person types: a question asked during a sweep waits on the same one.
    const key = sessionIds.join(',')
    if (!this.sweep || this.sweep.key !== key) {
      const run = (async () => {
        for (const id of sessionIds) {
          if (this.closed) return
          await this.catchUp(id).catch((err: Error) => this.o.onError?.(err))
        }
      })()
      const sweep = { key, run }
      this.sweep = sweep
      void run.finally(() => {
        if (this.sweep === sweep) this.sweep = null
      })
    }
    const finished = await this.settle(this.sweep.run)
    const hits = this.guard(null, () => this.allSessions().search(text, cwd, limit)).catch((err) => {
      // Held by another process: no hits yet, and the page asks again (as while indexing).
      if (isBusy(err) && !this.closed) return null
      throw err
    })
    if ((await hits) === null) return held
    const stillLagging = lagging.filter((id) => this.running.has(id) || this.allSessions().copiedUpTo(id) < 0).length
    return {
      hits: (await hits) ?? [],
      ...(!finished && stillLagging ? { indexing: { done: sessionIds.length - stillLagging, total: sessionIds.length } } : {})
    }
  }

  /** A session was deleted: its index went with its folder; it leaves the index across sessions. */
  forget(sessionId: string): void {
    this.drop(sessionId)
    try {
      this.allSessions().forget(sessionId)
    } catch (err) {
      this.o.onError?.(err as Error)
    }
  }

  /** A session was renamed. */
  async retitle(sessionId: string): Promise<void> {
    const about = await this.o.describe(sessionId)
    if (about && !this.closed) this.allSessions().setTitle(sessionId, about.cwd, about.title, about.updatedAt)
  }

  private drop(sessionId: string): void {
    this.open.get(sessionId)?.close()
    this.open.delete(sessionId)
  }

  async close(): Promise<void> {
    this.closed = true
    for (const t of this.timers.values()) clearTimeout(t)
    this.timers.clear()
    await Promise.allSettled([...this.running.values()])
    for (const index of this.open.values()) index.close()
    this.open.clear()
    this.across?.close()
    this.across = null
  }
}
