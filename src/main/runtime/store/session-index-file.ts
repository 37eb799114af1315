// Reading and writing session.json, and telling a live session from one whose writer went away.
import { hostname } from 'node:os'
import { readJsonFile, writeJsonAtomic } from './atomic-file'
import { sessionIndexPath } from './data-dir'
import { isTerminalStatus, parseSessionIndex, type SessionIndex } from './session-index'

/** The index as stored; null when session.json does not exist; throws a clear error when it is broken. */
export async function readSessionIndex(dataDir: string, sessionId: string): Promise<SessionIndex | null> {
  const file = sessionIndexPath(dataDir, sessionId)
  const raw = await readJsonFile(file)
  return raw === null ? null : parseSessionIndex(raw, file)
}

export async function writeSessionIndex(dataDir: string, index: SessionIndex): Promise<void> {
  // fsync is skipped: the index is rewritten often and can always be rebuilt from the transcripts.
  await writeJsonAtomic(sessionIndexPath(dataDir, index.sessionId), index, { fsync: false })
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' // exists, owned by someone else
  }
}

/**
 * Whether the process that recorded the session is gone: it closed the session (no writer), or it ran on
 * this machine and its pid is gone (crashed, killed). A writer on another machine is taken as alive.
 */
export function writerGone(writer: SessionIndex['writer']): boolean {
  if (!writer) return true
  return writer.hostname === hostname() && !isProcessAlive(writer.pid)
}

/**
 * The status to show: an index that says its main agent is still running, but whose writer closed or
 * died (same host, pid gone), belongs to a session that was interrupted.
 */
export function effectiveStatus(index: SessionIndex): SessionIndex['status'] {
  if (isTerminalStatus(index.status)) return index.status
  return writerGone(index.writer) ? 'interrupted' : index.status
}

export const currentWriter = (): { pid: number; hostname: string } => ({ pid: process.pid, hostname: hostname() })
