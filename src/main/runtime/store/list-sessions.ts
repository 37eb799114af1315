// The list of sessions for a "recent sessions" view: one summary per session folder, newest first.
// A broken folder never hides the others: it is rebuilt from its transcripts when possible, else reported.
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Usage } from '../../../shared/usage'
import { errorCode } from './atomic-file'
import { sessionDir, sessionsDir } from './data-dir'
import { mapLimit } from './map-limit'
import { openSession } from './open-session'
import { isTerminalStatus, type SessionIndex, type SessionStatus } from './session-index'
import { effectiveStatus, readSessionIndex } from './session-index-file'
import { errorMessage } from '../../../shared/error-message'

export interface SessionSummary {
  sessionId: string
  title: string
  status: SessionStatus
  createdAt: number
  updatedAt: number
  cwd: string
  costUsd: number
  usage: Usage
  agentCount: number
  /** The main agent's type (e.g. general-purpose), '' when none started. */
  agentType: string
  /** The session finished on its main agent asking the person something (see AgentRecord.asksYou). */
  asksYou: boolean
  dir: string
}

export interface SessionListProblem {
  sessionId: string
  dir: string
  message: string
}

export interface SessionList {
  /** Newest activity first. */
  sessions: SessionSummary[]
  /** Folders that could not be read at all, one sentence each. */
  problems: SessionListProblem[]
}

export async function listSessions(dataDir: string): Promise<SessionList> {
  const root = sessionsDir(dataDir)
  let names: string[]
  try {
    names = (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name)
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return { sessions: [], problems: [] }
    throw new Error(`Cannot list sessions in ${root}: ${errorMessage(err)}`, { cause: err })
  }
  const problems: SessionListProblem[] = []
  const found = await mapLimit(names, 32, async (name): Promise<SessionSummary | null> => {
    try {
      return await readSessionSummary(dataDir, name)
    } catch (err) {
      problems.push({ sessionId: name, dir: join(root, name), message: `Session ${name} skipped: ${errorMessage(err)}` })
      return null
    }
  })
  const sessions = found.filter((s): s is SessionSummary => s !== null)
  sessions.sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt)
  problems.sort((a, b) => a.sessionId.localeCompare(b.sessionId))
  return { sessions, problems }
}

/**
 * One session's summary, read from its own folder alone: its session.json, else (missing or broken) rebuilt
 * from its transcripts. Throws SessionNotFoundError when the folder holds no session, and an error naming
 * the id when it cannot be a session's (see assertSafeId).
 */
export async function readSessionSummary(dataDir: string, sessionId: string): Promise<SessionSummary> {
  const dir = sessionDir(dataDir, sessionId)
  // A broken session.json counts as none: the transcripts are read instead.
  let index: SessionIndex | null = await readSessionIndex(dataDir, sessionId).catch(() => null)
  if (index) index.status = effectiveStatus(index)
  else index = (await openSession(dataDir, sessionId)).index
  return summarize(index, dir)
}

function summarize(index: SessionIndex, dir: string): SessionSummary {
  const agents = Object.values(index.agents)
  const main = agents.filter((a) => a.parentAgentId === null).sort((a, b) => a.startedAt - b.startedAt)[0]
  return {
    sessionId: index.sessionId,
    title: index.title,
    status: index.status,
    createdAt: index.createdAt,
    updatedAt: index.updatedAt,
    cwd: index.cwd,
    costUsd: index.costUsd,
    usage: index.usage,
    agentCount: agents.length,
    agentType: main?.agentType ?? '',
    asksYou: sessionAsksYou(index),
    dir
  }
}

/** As a live session's row says it (host/session-view.ts): the latest main run completed on a question, nothing else at work. */
export function sessionAsksYou(index: SessionIndex): boolean {
  const roots = Object.values(index.agents).filter((a) => a.parentAgentId === null)
  const root = roots.sort((a, b) => b.startedAt - a.startedAt)[0]
  return (
    index.status === 'completed' &&
    root?.status === 'completed' &&
    root.asksYou === true &&
    !Object.values(index.agents).some((a) => !isTerminalStatus(a.status))
  )
}
