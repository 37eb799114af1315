// replay.* for the host: a finished or reopened session's recorded events as a timeline, a frame at any
// moment of it (folded by the UI's reducer, sent in parts as sessions.open sends a view), and the steps
// that follow a moment, for playing it. A session this process still runs is not replayed: its record
// is still growing.
import type { CallHandler } from '../../../shared/call-handlers'
import { HostCallError } from '../../../shared/host-call-error'
import { isFinished } from '../orchestration'
import { ReplaySession } from '../replay/replay-timeline'
import type { LiveSessions } from './live-sessions'
import type { ReplayPages } from './replay-pages'
import { sessionCallError } from './session-files'

export interface ReplayCallsOptions {
  dataDir: string
  live: LiveSessions
  pages: ReplayPages
}

/** Timelines kept loaded (a replay asks for many frames of one session). */
const KEEP = 2

export class ReplayCalls {
  private readonly loaded = new Map<string, Promise<ReplaySession>>()

  constructor(private readonly o: ReplayCallsOptions) {}

  private async session(sessionId: string, reload = false): Promise<ReplaySession> {
    const live = this.o.live.get(sessionId)
    if (live && live.session.registry.all().some((a) => !isFinished(a.status)))
      throw new HostCallError('conflict', 'This session is still working: replay it once its agents have finished (or stop them).')
    let load = reload ? undefined : this.loaded.get(sessionId)
    if (!load) {
      load = (async () => {
        await live?.session.flush()
        return ReplaySession.load(this.o.dataDir, sessionId)
      })()
      this.loaded.delete(sessionId)
      this.loaded.set(sessionId, load)
      load.catch(() => this.loaded.delete(sessionId))
      while (this.loaded.size > KEEP) this.loaded.delete(this.loaded.keys().next().value!)
    }
    try {
      return await load
    } catch (err) {
      throw sessionCallError(err, sessionId)
    }
  }

  open: CallHandler<'replay.open'> = async ({ sessionId }) => {
    const replay = await this.session(sessionId, true)
    if (!replay.events.length) throw new HostCallError('not_found', `Session ${sessionId} has no recorded events to replay.`)
    return { timeline: replay.timeline() }
  }

  frame: CallHandler<'replay.frame'> = async ({ sessionId, at }) => {
    const replay = await this.session(sessionId)
    const { state, seq, ts } = replay.frame(replay.stepAt(at))
    const { view, olderItems, more } = this.o.pages.open(sessionId, state)
    return { seq, ts, view, olderItems, more }
  }

  steps: CallHandler<'replay.steps'> = async ({ sessionId, after, limit }) => {
    const replay = await this.session(sessionId)
    return replay.stepsAfter(after, limit)
  }

  /** A session's record changed (new events, deleted): its timeline is read again when next asked. */
  forget(sessionId: string): void {
    this.loaded.delete(sessionId)
  }

  close(): void {
    this.loaded.clear()
  }
}
