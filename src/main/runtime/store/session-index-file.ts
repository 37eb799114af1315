// Reading and writing session.json, and telling a live session from one whose writer went away.
import { readJsonFile, writeJsonAtomic, type MadeAhead } from './atomic-file'
import { currentProcess, processState } from './process-identity'
import { sessionIndexPath } from './data-dir'
import { isTerminalStatus, parseSessionIndex, type SessionIndex } from './session-index'

/** The index as stored; null when session.json does not exist; throws a clear error when it is broken. */
export async function readSessionIndex(dataDir: string, sessionId: string): Promise<SessionIndex | null> {
  const file = sessionIndexPath(dataDir, sessionId)
  const raw = await readJsonFile(file)
  return raw === null ? null : parseSessionIndex(raw, file)
}

/** Writes session.json; `index` is serialized before this returns (a caller may pass the live index and change it after). */
export function writeSessionIndex(dataDir: string, index: Readonly<SessionIndex>, ahead?: MadeAhead, opts: { refill?: boolean } = {}): Promise<void> {
  // fsync is skipped: the index is rewritten often and can always be rebuilt from the transcripts.
  return writeJsonAtomic(sessionIndexPath(dataDir, index.sessionId), index, { fsync: false, ...(ahead ? { ahead } : {}), ...opts })
}

/**
 * Whether the process that recorded the session is gone: it closed the session (no writer), or it ran on
 * this machine and is not running any more (crashed, killed; its pid free or given to a later process).
 * A writer on another machine is taken as alive.
 */
export function writerGone(writer: SessionIndex['writer']): boolean {
  if (!writer) return true
  return processState(writer) === 'gone'
}

/**
 * The status to show: an index that says its main agent is still running, but whose writer closed or
 * died (same host, pid gone), belongs to a session that was interrupted.
 */
export function effectiveStatus(index: SessionIndex): SessionIndex['status'] {
  if (isTerminalStatus(index.status)) return index.status
  return writerGone(index.writer) ? 'interrupted' : index.status
}

export const currentWriter = (): NonNullable<SessionIndex['writer']> => currentProcess()
