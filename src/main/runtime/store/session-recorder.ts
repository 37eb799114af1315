// The session recorder: plugged into the event bus, it writes each AgentEvent to its agent's transcript
// and keeps session.json current. `record` is synchronous and cheap; disk work is batched behind it.
// It also keeps the session's view folded as its lines are written (view-fold.ts), so that closing
// writes the view checkpoint without reading the transcripts back.
import { basename, join } from 'node:path'
import type { AgentEvent } from '../../../shared/events'
import { ensureDataDir, sessionDir, transcriptPath } from './data-dir'
import { JsonlWriter } from './jsonl-writer'
import { errorMessage } from '../../../shared/error-message'
import { openSession, SessionNotFoundError } from './open-session'
import { replaySession } from './session-fold'
import { emptyIndex, isTerminalStatus, SessionIndexBuilder, type SessionIndex } from './session-index'
import { currentWriter, effectiveStatus, writeSessionIndex } from './session-index-file'
import { NewerTranscriptError } from './transcript/decode'
import { TempsAhead } from './temps-ahead'
import { makeHeader, mergeDeltas } from './transcript/format'
import type { RecordedEvent } from './transcript/migrations'
import { transcriptSizesSync, writeViewCheckpoint } from './view-checkpoint'
import { ViewFold } from './view-fold'
import { QuietDeadline } from '../clock'

export interface SessionRecorderOptions {
  dataDir: string
  sessionId: string
  /** The folder the session works in (shown in listings). */
  cwd: string
  /** The session's title as the app named it; default: the first line of the main agent's first prompt. */
  title?: string
  /** How long transcript lines wait to be written together. Default 16 ms. */
  flushDelayMs?: number
  /** session.json is rewritten at most this often while events arrive. Default 250 ms. */
  indexIntervalMs?: number
  /** Disk errors (never thrown from `record`), and the notice that writing goes on after one. Default: console.error. */
  onError?: (err: Error) => void
  /**
   * How long `flushAgent` (what a model request, a tool that changes anything and a report wait on) waits for a transcript
   * write that keeps failing (a full disk) before it gives up with a clear error. Default 2 minutes.
   */
  diskWaitMs?: number
  /**
   * This process holds the session's lock: a session found on disk was left by a writer that is gone, so
   * every run it left open is closed as interrupted (without the lock, only when its pid is gone).
   */
  owned?: boolean
}

/** What a transcript's header says of its agent. */
type TranscriptOwner = Pick<AgentEvent, 'agentId' | 'sessionId' | 'parentAgentId' | 'ts'>

export interface SessionRecorder {
  readonly sessionId: string
  /** `<dataDir>/sessions/<sessionId>` */
  readonly dir: string
  /** Resolves once an existing session (resume) has been loaded and the first index written. */
  readonly ready: Promise<void>
  record(event: AgentEvent): void
  /** No agent of the session runs or waits to, as its record stands: every agent in the index has ended. */
  nothingRuns(): boolean
  /**
   * Starts opening a new agent's transcript before its first event (as it is spawned): the first request it
   * sends waits for its lines, not for the open too. Its header is made from `agent` (when it was spawned).
   */
  prepare(agent: TranscriptOwner): void
  /** A copy of the index as it stands. */
  index(): SessionIndex
  transcriptFile(agentId: string): string
  /** Everything recorded so far is on disk (transcripts and session.json). */
  flush(): Promise<void>
  /** Everything recorded so far for one agent is in its transcript (cheaper than flush: one file). */
  flushAgent(agentId: string): Promise<void>
  /**
   * Flushes, releases every file and marks the session as no longer being written, then checkpoints the
   * session's view, unless `checkpoint: false` leaves that for `checkpoint()`: it is best effort, and need
   * not hold up an answer or the session's lock.
   */
  close(opts?: { checkpoint?: boolean }): Promise<void>
  /**
   * After close: the session's view, checkpointed (best effort; without it the next open replays). Safe once
   * the session's lock is let go: it covers the transcripts as close left them, and a later writer's longer
   * transcripts make it stale (ignored), never wrong.
   */
  checkpoint(): Promise<void>
}

/**
 * The view is folded once nothing has been recorded for this long (every agent waiting on the model), not on the
 * index's timer: after a long streamed reply every line since its first delta waits on it, and folding them at
 * once (~2 ms after a 16-way fan-out's reply) landed in the hand-off that starts the last agent.
 */
const FOLD_QUIET_MS = 30

// Events that change what session.json says; deltas only move `updatedAt`, which can wait.
const INDEX_EVENTS: ReadonlySet<AgentEvent['type']> = new Set(['agent_start', 'agent_end', 'status', 'usage', 'turn_start', 'tool_run'])

export function createSessionRecorder(opts: SessionRecorderOptions): SessionRecorder {
  const { dataDir, sessionId } = opts
  const dir = sessionDir(dataDir, sessionId) // validates the id before anything touches the disk
  // The index written at close (the answer of `fanout run` waits for it) goes through a temp made ahead.
  const ahead = new TempsAhead(dir, 1)
  const onError = opts.onError ?? ((err: Error) => console.error(`fanout: ${err.message}`))
  const interval = opts.indexIntervalMs ?? 250
  const writers = new Map<string, JsonlWriter<AgentEvent>>()
  let builder = new SessionIndexBuilder({ ...emptyIndex(sessionId, opts.cwd, Date.now()), title: opts.title ?? '', writer: currentWriter() })
  let loaded = false
  const early: AgentEvent[] = []
  let closed = false
  let timer: ReturnType<typeof setTimeout> | null = null
  let indexWrite: Promise<void> | null = null
  // Something was recorded since the last index write began.
  let indexChanged = true
  const fold = new ViewFold(sessionId)
  let quiet: QuietDeadline | null = null
  // Unref'd: a fold waiting for quiet never keeps the process up (closing folds what is left).
  const foldWhenQuiet = () =>
    (quiet ??= new QuietDeadline(
      FOLD_QUIET_MS,
      () => {
        quiet = null
        if (!closed) fold.fold()
      },
      false
    )).poke()
  // The session on disk could not be read: only a replay knows what its transcripts hold.
  let foldable = true
  // Set when the session on disk is a newer Fanout's: nothing is recorded.
  let refused: NewerTranscriptError | null = null
  // The last seq recorded: an event that comes without one (the session's bus gives every event its own)
  // is placed after it, so every line written has one (transcript version 2).
  let lastSeq = 0

  // Loading an existing session (resume) reads its transcripts; ours must not reach the disk before that
  // read, or the events recorded meanwhile would be counted twice. Transcripts open after `loading`.
  const loading = (async () => {
    await ensureDataDir(dataDir) // before any transcript opens, so a new data folder gets mode 0700
    try {
      const existing = await openSession(dataDir, sessionId, opts.owned ? { writerGone: true } : {})
      const idx = existing.index
      idx.writer = currentWriter()
      if (!idx.cwd) idx.cwd = opts.cwd
      if (!idx.title && opts.title) idx.title = opts.title
      builder = new SessionIndexBuilder(idx)
      // What is on disk goes first in the fold, with the ends of the runs a crash cut off (already among
      // the events read): written just below, they are not folded a second time.
      for (const t of Object.values(existing.agents))
        for (const e of t.events) {
          fold.line(e)
          if (e.seq > lastSeq) lastSeq = e.seq
        }
      // Taking over from a writer that crashed: the runs it cut off end here, on disk, before anything new.
      for (const end of existing.interrupted) {
        const w = writerFor(end)
        w.append(end)
        w.release().catch(() => {}) // errors already reported
      }
    } catch (err) {
      // A newer Fanout's session: none of its files is written to (lines of this version would make them
      // files neither Fanout reads), not even a new agent's.
      if (err instanceof NewerTranscriptError) refused = err
      if (!(err instanceof SessionNotFoundError)) {
        foldable = false
        onError(err as Error)
      }
    }
  })()
  const ready = loading
    .then(async () => {
      loaded = true
      for (const e of early.splice(0)) write(e)
      await writeIndexNow()
    })
    .catch((err: Error) => {
      loaded = true
      foldable = false
      for (const e of early.splice(0)) write(e)
      onError(new Error(`Could not prepare session folder ${dir}: ${err.message}`))
    })

  function writerFor(e: TranscriptOwner): JsonlWriter<AgentEvent> {
    let w = writers.get(e.agentId)
    if (!w) {
      w = new JsonlWriter<AgentEvent>(transcriptPath(dataDir, sessionId, e.agentId), {
        flushDelayMs: opts.flushDelayMs,
        header: () => makeHeader(e),
        merge: mergeDeltas,
        beforeOpen: () => loading,
        // Once the session on disk is loaded, a new agent's transcript is made as it is spawned (a model request waits for it).
        openNow: () => loaded && !refused && !closed,
        // Said plainly, once per outage, and again when it is over: the person sees the run paused, not broken.
        onError: (err) =>
          onError(
            new Error(
              `Paused: ${err.message}. Agent ${e.agentId} waits before its next model request, tool call or report; what is not written yet is kept in memory and written as soon as the disk has room (tried every second).`,
              { cause: err }
            )
          ),
        onRecover: () => onError(new Error(`Resumed: the transcript of agent ${e.agentId} is written again; nothing was lost or written twice.`))
      })
      writers.set(e.agentId, w)
      // Opened while the agent sets up: its first model request waits for its first lines, not for the open too.
      w.prepare()
    }
    return w
  }

  function scheduleIndex(): void {
    if (timer || !loaded) return
    timer = setTimeout(() => {
      timer = null
      void writeIndexNow().catch(onError)
    }, interval)
  }

  /**
   * session.json as the index stands now. `ifChanged`: nothing is written when nothing was recorded since the
   * last write began (it is waited for), as when the last run's end wrote it already (see write()).
   */
  async function writeIndexNow(opts: { ifChanged?: boolean; refill?: boolean } = {}): Promise<void> {
    if (timer) clearTimeout(timer)
    timer = null
    if (refused) return
    if (opts.ifChanged && !indexChanged) {
      await indexWrite
      return
    }
    while (indexWrite) await indexWrite // one write at a time, so an older snapshot never lands last
    // Serialized as the write starts (writeSessionIndex), so the index needs no copy (~0.15 ms for 16 agents).
    indexChanged = false
    indexWrite = writeSessionIndex(dataDir, builder.finished(), ahead, { refill: opts.refill })
      .catch((err: Error) => {
        indexChanged = true // written again by the next write, even one that asks only for changes
        throw new Error(`Could not write ${join(dir, 'session.json')}: ${err.message}`)
      })
      .finally(() => {
        indexWrite = null
      })
    await indexWrite
  }

  function record(e: AgentEvent): void {
    if (closed) {
      onError(new Error(`Session ${sessionId} recorder is closed; dropped a ${e.type} event of agent ${e.agentId}`))
      return
    }
    // Until the session on disk is loaded, events wait: they go after the runs a crash cut off are closed.
    if (loaded) write(e)
    else early.push(e)
  }

  function write(given: AgentEvent): void {
    if (refused) return
    const seq = given.seq ?? Math.max(given.ts * 1000, lastSeq + 1)
    const e = (given.seq === undefined ? { ...given, seq } : given) as RecordedEvent
    if (seq > lastSeq) lastSeq = seq
    let w: JsonlWriter<AgentEvent>
    try {
      w = writerFor(e)
    } catch (err) {
      onError(err as Error) // an unsafe agent id: report, never throw into the event bus
      return
    }
    // A merged line takes its last delta's seq: it has one too.
    const line = w.append(e) as RecordedEvent
    fold.line(line, line !== e)
    fold.foldBacklog()
    foldWhenQuiet()
    if (e.type === 'agent_end') w.release().catch(() => {}) // write it now and free the fd; errors already reported
    builder.apply(e)
    indexChanged = true
    // The end of the session's last run is in session.json at once, not a timer later: a list of sessions reads
    // it done, and `fanout run`'s answer (which waits for the index) finds it written while the run wound down.
    // No temp is made for a next write then: it may never come, and making one would be in the answer's way.
    if (e.type === 'agent_end' && nothingRuns()) void writeIndexNow({ refill: false }).catch(onError)
    else if (INDEX_EVENTS.has(e.type)) scheduleIndex()
  }

  /** No agent of the session runs or waits to: every one in the index has ended. */
  function nothingRuns(): boolean {
    for (const a of Object.values(builder.index.agents)) if (!isTerminalStatus(a.status)) return false
    return true
  }

  async function flushAll(): Promise<void> {
    await ready
    const results = await Promise.allSettled([...writers.values()].map((w) => w.flush()))
    await writeIndexNow({ ifChanged: true })
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed) throw failed.reason
  }

  /** What close leaves for the checkpoint: the transcripts' sizes, taken while the session is still this writer's. */
  let closedSizes: Record<string, number> | null = null
  let checkpointed = false

  async function checkpoint(): Promise<void> {
    await ahead.dispose()
    if (!closedSizes || checkpointed) return
    checkpointed = true
    // Best effort: without it, a replay.
    await writeCheckpoint(closedSizes).catch(() => undefined)
  }

  /**
   * Each transcript's length: a writer of this process knows its own (it wrote every byte since it opened the
   * file); only the files no writer here opened are stat'ed.
   */
  function sizesNow(): Record<string, number> | null {
    try {
      const known = new Map<string, number>()
      for (const w of writers.values()) if (w.writtenLength !== null) known.set(basename(w.file), w.writtenLength)
      return transcriptSizesSync(dataDir, sessionId, known)
    } catch {
      return null // no checkpoint then: the next open replays
    }
  }

  async function writeCheckpoint(sizes: Record<string, number>): Promise<void> {
    const state = fold.finish()
    const index = builder.snapshot()
    index.status = effectiveStatus(index)
    // Taken after the writers closed and before the lock was let go: exactly the lines folded.
    await writeViewCheckpoint(dataDir, sessionId, { sizes, index, state })
  }

  return {
    sessionId,
    dir,
    ready,
    record,
    nothingRuns,
    prepare(agent) {
      // writerFor opens a writer's file as it makes it; one that is there already is left as it is.
      if (!closed) writerFor(agent)
    },
    index: () => builder.snapshot(),
    transcriptFile: (agentId) => transcriptPath(dataDir, sessionId, agentId),
    flush: flushAll,
    async flushAgent(agentId) {
      await ready
      const w = writers.get(agentId)
      if (!w) return
      // Paused, not failed, while the disk is full: the writer tries again by itself; this waits for it.
      const limit = opts.diskWaitMs ?? diskWaitFromEnv() ?? 120_000
      const deadline = Date.now() + limit
      for (;;) {
        try {
          return await w.flush()
        } catch (err) {
          if (Date.now() >= deadline)
            throw new Error(`${errorMessage(err)} (still failing after waiting ${Math.round(limit / 1000)} s for the disk; the run stops here)`, { cause: err })
          await new Promise((r) => setTimeout(r, Math.min(1000, Math.max(1, deadline - Date.now()))))
        }
      }
    },
    async close(closeOpts = {}) {
      if (closed) return
      closed = true
      quiet?.stop()
      await ready
      // Written whole first; the files are let go once the record is complete (below), without waiting for it: an
      // fd's close changes nothing on disk, and the answer and the lock wait on this close.
      const results = await Promise.allSettled([...writers.values()].map((w) => w.flush()))
      builder.index.writer = null
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
      // The session's view is checkpointed from what the transcripts hold now: the next open (after a restart
      // too) reads it instead of replaying every event. A run left without its end (the session closed
      // mid-run) ends, in a replay, at its own place among events already folded here: only a replay can put
      // it there, and it reads the transcripts, so it runs here, before the lock is let go. Front ends stop
      // their runs first, so that is the rare path.
      const replay = !failed && (!foldable || fold.runsOpen)
      // Taken before close resolves (and the lock is let go): the lines the checkpoint folds are exactly these.
      await writeIndexNow()
      // Files opened ahead for agents that never started (a spawn refused or stopped first) are not left empty.
      const unused = [...writers.values()].filter((w) => w.unused)
      if (unused.length) await Promise.all(unused.map((w) => w.discard()))
      closedSizes = failed || replay ? null : sizesNow()
      const released = Promise.allSettled([...writers.values()].map((w) => w.close()))
      if (failed) {
        await Promise.all([released, ahead.dispose()])
        throw failed.reason
      }
      if (replay) await replaySession(dataDir, sessionId, { refresh: true }).catch(() => undefined)
      if (closeOpts.checkpoint !== false) await checkpoint()
    },
    checkpoint
  }
}

/** `FANOUT_DISK_WAIT_MS`: how long a run waits for a full disk before it stops (docs/sessions-and-crashes.md). */
function diskWaitFromEnv(): number | undefined {
  const n = Number(process.env.FANOUT_DISK_WAIT_MS)
  return Number.isFinite(n) && n >= 0 && process.env.FANOUT_DISK_WAIT_MS !== '' ? n : undefined
}
