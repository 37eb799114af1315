// What a session keeps on disk, and its hold on it: the lock (one process runs a session), the folder where
// large tool outputs go, background agents' output logs, the team's log, and (with a data folder) the
// transcripts and state files. Without a data folder nothing is kept after the session: a temporary folder.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentEvent } from '../../../../shared/events'
import { checkDataDirWritable, sessionDir } from '../../store'
import { acquireSessionLock, type SessionLock } from '../../store/session-lock'
import type { AgentHandle, AgentRegistry } from '../runs/agent-registry'
import { OutputLogs } from '../runs/output-log'
import { SessionPersistence } from '../runs/persistence'
import type { AgentSessionOptions } from './session-options'

/** Takes the session's lock (after checking that its data folder can hold it), builds the session, and releases the lock when that throws. */
export async function withSessionLock<T>(dataDir: string, sessionId: string, owner: string | undefined, build: (lock: SessionLock) => Promise<T>): Promise<T> {
  await checkDataDirWritable(dataDir)
  const lock = await acquireSessionLock(dataDir, sessionId, { app: owner ?? 'Fanout' })
  try {
    return await build(lock)
  } catch (err) {
    await lock.release()
    throw err
  }
}

export type SessionFilesOptions = Pick<AgentSessionOptions, 'dataDir' | 'cwd' | 'title'> & {
  sessionId: string
  registry: AgentRegistry
  onError(err: Error): void
  /** This process holds the session's lock. */
  owned: boolean
}

export class SessionFiles {
  /** Where tool outputs too large for the conversation are saved. */
  readonly toolOutputDir: string
  /** The team's durable log. */
  readonly teamLog: string
  readonly outputLogs: OutputLogs
  readonly persistence: SessionPersistence | null

  constructor(o: SessionFilesOptions) {
    const files = o.dataDir ? sessionDir(o.dataDir, o.sessionId) : join(tmpdir(), `fanout-${o.sessionId}`)
    this.toolOutputDir = join(files, 'tool-outputs')
    this.teamLog = join(files, 'team', 'log.jsonl')
    this.outputLogs = new OutputLogs(o.dataDir ? join(files, 'outputs') : files, o.onError)
    this.persistence = o.dataDir
      ? new SessionPersistence({
          dataDir: o.dataDir,
          sessionId: o.sessionId,
          cwd: o.cwd,
          title: o.title,
          registry: o.registry,
          onError: o.onError,
          owned: o.owned
        })
      : null
  }

  /** Every event, on its way out: into the transcripts and state, and the agent's output log when it has one. */
  record(event: AgentEvent): void {
    this.persistence?.record(event)
    this.outputLogs.get(event.agentId)?.add(event)
  }

  /** Resolves once everything the agent has recorded so far is on disk (a no-op without a data folder). */
  durable(agentId: string): Promise<void> {
    return this.persistence ? this.persistence.flushAgent(agentId) : Promise.resolve()
  }

  /** Starts opening a new agent's transcript as it is spawned (SessionPersistence.openTranscript). */
  openTranscript(handle: AgentHandle): void {
    this.persistence?.openTranscript(handle)
  }

  /** Records an agent as launched (queued, with its task) before its caller is told so. */
  recordLaunch(handle: AgentHandle, prompt: string | null): Promise<void> {
    return this.persistence ? this.persistence.writeState(handle, 'queued', prompt ?? undefined) : Promise.resolve()
  }

  async flush(opts: { endState?: boolean } = {}): Promise<void> {
    await Promise.all([this.persistence?.flush(opts), this.outputLogs.flush()])
  }

  async close(): Promise<void> {
    await this.outputLogs.flush()
    await this.persistence?.close()
  }

  /** After close (the lock may be let go by then), best effort: the session's view for the next open. */
  async checkpoint(): Promise<void> {
    await this.persistence?.checkpoint()
  }
}
