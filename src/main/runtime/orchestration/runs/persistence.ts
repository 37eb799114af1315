// A session's memory on disk: every event goes to the agent's transcript (through the store's recorder),
// and each agent's state.json is rewritten when one of its runs starts and when it ends, so a restart
// knows which agents were cut off, which ones the user stopped, and how to continue each one.
// The state a run starts with ("running", not fsynced) is batched like transcript lines: written once per
// STATE_BATCH_MS for every agent that started meanwhile, after the transcript's own batch holds their
// agent_start (never forcing it out early), and dropped when a newer state of the agent is written first.
// A kill in between leaves what a kill just before the write always could: agent_start in the transcript,
// the launch state (or none) in state.json — and the transcript is the record (docs/sessions-and-crashes.md).
// The state the session's last run ends with waits in the same batch: nothing waits for it, and `fanout run`'s
// answer, which waits for the record (transcripts, session.json), goes out before it (flush's `endState`).
import type { AgentEvent } from '../../../../shared/events'
import { createSessionRecorder, syncFile, writeAgentState, type AgentStateInput, type SessionRecorder } from '../../store'
import { agentStatePath, agentsDir } from '../../store/data-dir'
import { TempsAhead } from '../../store/temps-ahead'
import { mapLimit } from '../../store/map-limit'
import type { AgentHandle, AgentRegistry } from './agent-registry'
import { MAIN_AGENT_TYPE } from '../prompts/main-prompt'

export interface SessionPersistenceOptions {
  dataDir: string
  sessionId: string
  cwd: string
  title?: string
  registry: AgentRegistry
  onError: (err: Error) => void
  /** The session's lock is held: whoever wrote it before is gone (see SessionRecorderOptions.owned). */
  owned?: boolean
  /** How an end state written without an fsync is fsynced later (tests watch it); default: syncFile. */
  syncFile?: (file: string) => Promise<void>
  /** How long end states wait to be fsynced together; default END_SYNC_MS. */
  endSyncMs?: number
}

/**
 * How long a run's starting state waits to be written with others. Not at once: a fan-out's siblings start
 * together and their first requests leave within the next ~250 ms (64 of them on two cores); 64 atomic state
 * writes in that burst held each sibling's request back by a few milliseconds of main-thread work. The state is written after
 * the agent's transcript in any case (see writeBatch), at flush and close at once, and the time it waits
 * changes nothing a restart reads: until it is written, the state says what it said when the run was queued.
 */
const STATE_BATCH_MS = 400

/**
 * How long the state a run ends with waits for its fsync, with the others written meanwhile. It is written whole
 * at once (a kill never loses it: it is in the page cache), and only a power loss in that second could cost it,
 * which a restart survives: a missing or damaged state.json gives way to the transcript, itself never fsynced.
 * Not at once: an fsync made the metadata writes beside it (the next request's transcript lines, the session
 * index) wait for the file system's journal, so each run's end held its parent's next request back by
 * milliseconds, and the main agent's held back `fanout run`'s answer. `fanout run` fsyncs them after it has
 * printed its answer, before it exits (syncStates, through the session's checkpoint).
 */
const END_SYNC_MS = 1000

export class SessionPersistence {
  readonly recorder: SessionRecorder
  private readonly writes = new Map<string, Promise<void>>()
  /** Agents whose "running" state waits for the next batch. */
  private readonly starting = new Map<string, AgentHandle>()
  /** The state the session's last run ended with, waiting for the next batch too (see record). */
  private readonly ending = new Map<string, { handle: AgentHandle; status: AgentStateInput['status'] }>()
  private batchTimer: ReturnType<typeof setTimeout> | null = null
  /** End states written without their fsync yet (END_SYNC_MS). */
  private readonly unsynced = new Set<string>()
  private syncTimer: ReturnType<typeof setTimeout> | null = null
  private syncing: Promise<void> = Promise.resolve()
  /** Temps made ahead in the agents' folder: a state written at a run's end is a write(2) and a rename (temps-ahead.ts). */
  private readonly ahead: TempsAhead

  constructor(private readonly opts: SessionPersistenceOptions) {
    this.recorder = createSessionRecorder({
      dataDir: opts.dataDir,
      sessionId: opts.sessionId,
      cwd: opts.cwd,
      ...(opts.title ? { title: opts.title } : {}),
      onError: opts.onError,
      ...(opts.owned ? { owned: true } : {})
    })
    this.ahead = new TempsAhead(agentsDir(opts.dataDir, opts.sessionId))
  }

  get dataDir(): string {
    return this.opts.dataDir
  }

  transcriptFile(agentId: string): string {
    return this.recorder.transcriptFile(agentId)
  }

  /** A new agent's transcript, opened ahead of its first line (SessionRecorder.prepare). */
  openTranscript(handle: AgentHandle): void {
    this.recorder.prepare({ agentId: handle.id, sessionId: this.opts.sessionId, parentAgentId: handle.parentId, ts: Date.now() })
  }

  record(event: AgentEvent): void {
    this.recorder.record(event)
    // A run that failed before it started (its worktree could not be made, say) has no agent_end: its state
    // says failed all the same, or every restart would start it again (and report its failure again).
    if (event.type === 'status' && event.status === 'failed') {
      const handle = this.opts.registry.get(event.agentId)
      if (handle) void this.writeState(handle, 'failed', undefined, this.flushAgent(event.agentId))
      return
    }
    if (event.type !== 'agent_start' && event.type !== 'agent_end') return
    const handle = this.opts.registry.get(event.agentId)
    if (!handle) return
    // Until an end state is written, the transcript's agent_end is what a restart goes by (store/resume.ts).
    // A subagent's waits for the loop's next turn: its parent goes on from its report at once (its next request
    // is built and sent in this turn), and the state's validation and write are not in its way. The session's
    // last end waits for the next batch: what would wait for it is `fanout run`'s answer (~0.3 ms on two cores).
    if (event.type === 'agent_end') {
      if (this.recorder.nothingRuns())
        return this.later(() => {
          this.starting.delete(handle.id)
          this.ending.set(handle.id, { handle, status: event.status })
        })
      const flushed = this.flushAgent(event.agentId)
      void this.writeState(handle, event.status, undefined, handle.parentId ? flushed.then(nextTurn) : flushed)
    } else
      this.later(() => {
        this.ending.delete(handle.id)
        this.starting.set(handle.id, handle)
      })
  }

  /** Queues a state for the next batch (`queue`), arming the batch's timer. */
  private later(queue: () => void): void {
    queue()
    // Kept ref'd like the transcript's timer: a process about to exit still writes what it queued.
    this.batchTimer ??= setTimeout(() => this.writeBatch(), STATE_BATCH_MS)
  }

  /** Writes the states queued for the batch now; `endState: false` leaves the last run's end state queued. */
  private writeBatch(endState = true): void {
    const ends = endState ? [...this.ending.values()] : []
    if (endState) this.ending.clear()
    // An end state left queued keeps the batch's timer: it is written when that fires.
    if (this.batchTimer && !this.ending.size) {
      clearTimeout(this.batchTimer)
      this.batchTimer = null
    }
    const handles = [...this.starting.values()]
    this.starting.clear()
    // The state follows the transcript: a state saying the agent runs, written before its agent_start line
    // (which the recorder batches), would leave a crash in between an agent no restart can start again.
    // By now the transcript's batch has usually gone out, so this waits for it rather than forcing it.
    for (const handle of handles) void this.writeState(handle, 'running', undefined, this.flushAgent(handle.id))
    // No temp is made ahead for a next state when nothing runs (SessionRecorder.nothingRuns).
    for (const { handle, status } of ends) void this.writeState(handle, status, undefined, this.flushAgent(handle.id), this.recorder.nothingRuns())
  }

  /**
   * Queues a state.json write for this agent; writes of one agent land in order, each after `after` (if
   * given). Resolves once it is written (errors reported). `last`: the session's last run has ended, so no
   * temp is made ahead to replace the one this write takes.
   */
  writeState(handle: AgentHandle, status: AgentStateInput['status'], prompt?: string, after?: Promise<void>, last = false): Promise<void> {
    // A newer state supersedes a starting state not written yet (the agent's end, a relaunch), and any state
    // one the last run ended with (a run started since).
    if (status !== 'running') this.starting.delete(handle.id)
    this.ending.delete(handle.id)
    const state = { ...stateOf(handle, this.opts.sessionId, status), ...(prompt !== undefined ? { prompt } : {}) }
    const previous = this.writes.get(handle.id) ?? Promise.resolve()
    // A launch (queued, with its task) is fsynced before its caller hears of it; the state a run ends with a
    // moment later, with the others (END_SYNC_MS); a run's starting state never (see writeAgentState).
    const launch = status === 'queued'
    const next = previous
      .then(() => after)
      .then(() => writeAgentState(this.opts.dataDir, state, { durable: launch, ahead: this.ahead, refill: !last }))
      .then(() => {
        if (status !== 'running' && !launch) this.syncLater(agentStatePath(this.opts.dataDir, this.opts.sessionId, handle.id))
      })
      .then(
        () => undefined,
        (err: Error) => this.opts.onError(new Error(`Could not save the state of agent ${handle.id}: ${err.message}`))
      )
    this.writes.set(handle.id, next)
    void next.then(() => {
      if (this.writes.get(handle.id) === next) this.writes.delete(handle.id)
    })
    return next
  }

  private syncLater(file: string): void {
    this.unsynced.add(file)
    if (this.syncTimer) return
    this.syncTimer = setTimeout(() => void this.syncStates(), this.opts.endSyncMs ?? END_SYNC_MS)
    // A process that is done otherwise is not held for it: its close syncs what is left (checkpoint).
    this.syncTimer.unref?.()
  }

  /** fsyncs every end state written so far that was not yet (failures reported); resolves once they are. */
  syncStates(): Promise<void> {
    if (this.syncTimer) clearTimeout(this.syncTimer)
    this.syncTimer = null
    const files = [...this.unsynced]
    this.unsynced.clear()
    const sync = this.opts.syncFile ?? syncFile
    this.syncing = this.syncing.then(async () => {
      await mapLimit(files, 8, (file) =>
        sync(file).catch((err: Error) => this.opts.onError(new Error(`Could not save the state in ${file} to disk: ${err.message}`)))
      )
    })
    return this.syncing
  }

  /** Everything recorded for this agent so far is written (its transcript; write errors were reported already). */
  flushAgent(agentId: string): Promise<void> {
    return this.recorder.flushAgent(agentId).catch(() => undefined)
  }

  /**
   * Everything recorded so far is written: transcripts, session.json and the states. `endState: false` leaves
   * the state the session's last run ended with to its batch or close(): what `fanout run`'s answer waits for is
   * the record, and a restart goes by the transcript's end until that state is written (store/resume.ts).
   */
  async flush(opts: { endState?: boolean } = {}): Promise<void> {
    this.writeBatch(opts.endState !== false)
    await Promise.all([...this.writes.values()])
    await this.recorder.flush()
  }

  /**
   * Everything written and the transcripts closed: the states still being written (a run's last, fsynced)
   * beside the transcripts' last lines and the index. The view checkpoint is left for checkpoint().
   */
  async close(): Promise<void> {
    this.writeBatch()
    const states = Promise.all([...this.writes.values()])
    await Promise.all([states, this.recorder.close({ checkpoint: false })])
  }

  /**
   * After close: the end states' fsync (syncStates), and, best effort, the session's view for the next open
   * (SessionRecorder.checkpoint). `fanout run` calls it once its answer is out.
   */
  async checkpoint(): Promise<void> {
    await Promise.all([this.syncStates(), this.recorder.checkpoint(), this.ahead.dispose()])
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

function stateOf(handle: AgentHandle, sessionId: string, status: AgentStateInput['status']): AgentStateInput {
  const def = handle.definition
  const definition = handle.fork
    ? { name: 'fork', source: 'built-in' as const }
    : def
      ? { name: def.agentType, source: def.source, ...(def.file ? { file: def.file } : {}) }
      : { name: MAIN_AGENT_TYPE, source: 'built-in' as const }
  return {
    agentId: handle.id,
    sessionId,
    agentType: handle.agentType,
    definition,
    model: handle.model,
    turnCount: handle.turnCount,
    status,
    stoppedByUser: handle.stoppedByUser,
    ...(handle.isolation ? { isolation: 'worktree' as const } : {}),
    ...(handle.worktree ? { worktree: { ...handle.worktree } } : {}),
    cwd: handle.isolation?.repoCwd ?? handle.cwd,
    parentAgentId: handle.parentId,
    parentToolUseId: handle.parentToolUseId,
    ...(handle.name ? { name: handle.name } : {}),
    ...(handle.description ? { description: handle.description } : {}),
    ...(handle.background ? { background: true } : {}),
    ...(handle.effort !== undefined ? { effort: handle.effort } : {}),
    ...(handle.budget ? { budget: { ...handle.budget } } : {})
  }
}
