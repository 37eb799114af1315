// Reopening a session after a restart: the index plus every agent's events. The transcripts are the
// source of truth (they are written within milliseconds; session.json is throttled), so the index is
// always rebuilt by replaying them; session.json only contributes what transcripts cannot say
// (agents whose transcript is gone, the writer's identity).
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { AgentEndEvent } from '../../../shared/events'
import { errorCode } from './atomic-file'
import { agentsDir, sessionDir } from './data-dir'
import { interruptedEnd } from './interruption'
import { emptyIndex, finalizeIndex, isTerminalStatus, SessionIndexBuilder, type SessionIndex } from './session-index'
import { effectiveStatus, readSessionIndex, writerGone } from './session-index-file'
import { mapLimit } from './map-limit'
import { NewerTranscriptError } from './transcript/decode'
import { migratedNote, TRANSCRIPT_VERSION } from './transcript/migrations'
import { readTranscript, type ReadTranscriptOptions, type Transcript } from './transcript/reader'
import { errorMessage } from '../../../shared/error-message'

export interface OpenedSession {
  /** The rebuilt index; `status` is `interrupted` when the session's writer went away mid-run. */
  index: SessionIndex
  /** Each agent's transcript (header, events, issues), by agent id. */
  agents: Record<string, Transcript>
  /** What was wrong or missing, one sentence each (broken session.json, corrupt lines, lost transcripts). */
  notes: string[]
  /** session.json was missing, unreadable or behind the transcripts. */
  rebuilt: boolean
  /**
   * When the session's writer is gone: the end of each run it cut off (status `interrupted`), already
   * added to that agent's events and to the index. Not on disk until a new writer records them.
   */
  interrupted: AgentEndEvent[]
}

export class SessionNotFoundError extends Error {
  override name = 'SessionNotFoundError'
}

export interface OpenSessionOptions extends ReadTranscriptOptions {
  /** The caller holds the session's lock, so the process that wrote it is gone whatever its pid says now. */
  writerGone?: boolean
}

export async function openSession(dataDir: string, sessionId: string, readOptions: OpenSessionOptions = {}): Promise<OpenedSession> {
  const dir = sessionDir(dataDir, sessionId)
  const notes: string[] = []
  let stored: SessionIndex | null = null
  let storedBroken = false
  try {
    stored = await readSessionIndex(dataDir, sessionId)
  } catch (err) {
    storedBroken = true
    notes.push(`session.json could not be read, rebuilt from transcripts: ${errorMessage(err)}`)
  }

  const files = await listTranscripts(agentsDir(dataDir, sessionId))
  if (!stored && !files.length) {
    if (storedBroken) throw new Error(`Session ${sessionId} in ${dir} has a broken session.json and no transcripts: ${notes[0]}`)
    throw new SessionNotFoundError(`No session ${sessionId} in ${join(dataDir, 'sessions')}`)
  }
  if (!stored && !storedBroken) notes.push('session.json is missing; the session was rebuilt from its transcripts')

  const read = await mapLimit(files, 16, (f) =>
    readTranscript(f, readOptions).catch((err: Error) => {
      // A newer Fanout's session is refused whole: without that agent, a resume would write over its story.
      if (err instanceof NewerTranscriptError) throw err
      notes.push(`${err.message}; that agent is left out`)
      return null
    })
  )
  const transcripts = read.filter((t): t is Transcript => t !== null)
  const migrated = transcripts.filter((t) => t.writtenIn < TRANSCRIPT_VERSION).map((t) => t.writtenIn)
  if (migrated.length) notes.push(migratedNote(migrated))
  // Replay agents in the order they were created so the first main agent gives the session its title.
  // Agents created in the same millisecond keep the order the live session saw them in, which is the
  // order of session.json's agents (a fan-out starts several at once; their panels keep their places).
  const seen = new Map(Object.keys(stored?.agents ?? {}).map((id, i) => [id, i]))
  const place = (t: Transcript) => seen.get(t.header?.agentId ?? t.events[0]?.agentId ?? '') ?? seen.size
  transcripts.sort((a, b) => createdAt(a) - createdAt(b) || place(a) - place(b))
  const agents: Record<string, Transcript> = {}
  const firstTs = transcripts.length ? createdAt(transcripts[0]) : Date.now()
  const builder = new SessionIndexBuilder(emptyIndex(sessionId, stored?.cwd ?? '', stored?.createdAt ?? firstTs))
  const gone = readOptions.writerGone === true || writerGone(stored?.writer ?? null)
  const interrupted: AgentEndEvent[] = []
  // Fanout stopped no earlier than the session's last recorded event: every run it cut off ran until then.
  const stoppedAt = gone ? lastMoment(transcripts) : undefined
  for (const t of transcripts) {
    const agentId = t.header?.agentId ?? t.events[0]?.agentId
    if (!agentId) {
      // Not a line in it: a file opened ahead for an agent that never wrote one (SessionRecorder.prepare), left
      // by a kill. Nothing is skipped, so nothing is said; a caller holding the lock removes it (its writer is gone).
      if (!t.issues.length) {
        if (readOptions.writerGone === true) await rm(t.file, { force: true }).catch(() => undefined)
        continue
      }
      notes.push(`${t.file} holds no readable events, skipped`)
      continue
    }
    agents[agentId] = t
    for (const issue of t.issues) notes.push(issue.message)
    const end = gone ? interruptedEnd(t.events, stoppedAt) : null
    if (end) {
      t.events.push(end)
      interrupted.push(end)
    }
    for (const e of t.events) builder.apply(e)
  }
  const index = builder.index
  if (stored) {
    for (const [id, rec] of Object.entries(stored.agents)) {
      if (index.agents[id]) continue
      index.agents[id] = gone && !isTerminalStatus(rec.status) ? { ...rec, status: 'interrupted' } : rec
      notes.push(`agent ${id} has no transcript; kept its entry from session.json`)
    }
    // The title the app gave the session (a demo's, a try's) is kept; the first prompt's is the fallback.
    if (stored.title) index.title = stored.title
    if (stored.updatedAt > index.updatedAt) index.updatedAt = stored.updatedAt
    index.writer = stored.writer
  }
  finalizeIndex(index)
  const rebuilt = !stored || storedBroken || differs(stored, index)
  index.status = effectiveStatus(index)
  return { index, agents, notes, rebuilt, interrupted }
}

async function listTranscripts(dir: string): Promise<string[]> {
  try {
    const names = await readdir(dir)
    return names.filter((n) => n.endsWith('.jsonl')).map((n) => join(dir, n))
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return []
    throw new Error(`Cannot list ${dir}: ${errorMessage(err)}`, { cause: err })
  }
}

const createdAt = (t: Transcript): number => t.header?.createdAt ?? t.events[0]?.ts ?? 0

function differs(stored: SessionIndex, rebuilt: SessionIndex): boolean {
  const ids = Object.keys(rebuilt.agents)
  if (ids.length !== Object.keys(stored.agents).length) return true
  return ids.some((id) => {
    const a = stored.agents[id]
    const b = rebuilt.agents[id]
    return !a || a.status !== b.status || a.turnCount !== b.turnCount || a.usage.costUsd !== b.usage.costUsd || a.usage.outputTokens !== b.usage.outputTokens
  })
}

function lastMoment(transcripts: readonly Transcript[]): { ts: number; seq: number } {
  let ts = 0
  let seq = 0
  for (const t of transcripts) {
    for (const e of t.events) {
      if (e.ts > ts) ts = e.ts
      if (e.seq > seq) seq = e.seq
    }
  }
  return { ts, seq }
}
