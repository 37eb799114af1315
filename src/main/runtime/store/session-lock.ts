// A session has one owner: the process that runs it (the app, browser mode or `fanout run`) holds
// `<session>/owner.lock`, naming itself (pid, host, start time, which program). Another process asked to run
// the session refuses, or (the app) shows it read-only and follows it. A lock whose owner is gone (crashed,
// killed, its pid since given to another program) is stale and is taken over, so a crash never blocks a
// session for good.
//
// Every lock file is published whole with link(2), which fails when the name exists: of two processes
// racing for a free session exactly one links. A stale lock is replaced in one rename, never removed first,
// under `owner.lock.breaking` (taken the same way), so two processes that both find the same stale lock
// cannot both take the session.
import { randomUuid } from '../random-hex'
import { readFileSync, unlinkSync } from 'node:fs'
import { mkdir, readFile, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { createExclusive, errorCode, writeFileAtomic } from './atomic-file'
import { ensureDataDir, sessionDir } from './data-dir'
import { currentProcess, processState, type ProcessIdentity } from './process-identity'

export interface LockOwner extends ProcessIdentity {
  /** The program holding it, as a person would name it: `fanout run`, `fanout web`, `the Fanout app`. */
  app: string
  /** Milliseconds since the epoch. */
  acquiredAt: number
  /** Tells this holder's lock from a later one of the same process. */
  token: string
}

export interface SessionLock {
  readonly owner: LockOwner
  readonly file: string
  /** Gives the session up (only if the lock is still this holder's). */
  release(): Promise<void>
}

export const lockPath = (dataDir: string, sessionId: string): string => join(sessionDir(dataDir, sessionId), 'owner.lock')

/** "fanout run (pid 4242) since 14:03:10", with the host when it is another one. */
export function describeOwner(owner: LockOwner): string {
  const since = new Date(owner.acquiredAt).toLocaleTimeString('en-GB', { hour12: false })
  const here = currentProcess()
  const where = owner.hostname !== here.hostname ? ` on ${owner.hostname}` : owner.pid === here.pid ? ' in this process' : ''
  return `${owner.app} (pid ${owner.pid}${where}) since ${since}`
}

export class SessionLockedError extends Error {
  override name = 'SessionLockedError'
  constructor(
    readonly sessionId: string,
    readonly owner: LockOwner,
    readonly file: string
  ) {
    const other = owner.hostname !== currentProcess().hostname
    super(
      `Session ${sessionId} is being run by ${describeOwner(owner)}. Wait for it to finish or stop it there` +
        (other ? `; if that process is gone, delete ${file}.` : '.')
    )
  }
}

/** A lock file as found: missing, unreadable (treated as stale), or naming its owner. */
type Found = { kind: 'missing' } | { kind: 'garbage'; text: string } | { kind: 'owner'; owner: LockOwner }

/** A lock file that could not be read: missing when it is not there, else the error. */
function unread(err: unknown): Found {
  if (errorCode(err) === 'ENOENT') return { kind: 'missing' }
  throw err
}

const readLock = (file: string): Promise<Found> => readFile(file, 'utf8').then(parseLock, unread)

/** readLock without the thread pool, for the release (see held). */
function readLockSync(file: string): Found {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    return unread(err)
  }
  return parseLock(text)
}

function parseLock(text: string): Found {
  try {
    const v = JSON.parse(text) as LockOwner
    if (typeof v?.pid === 'number' && typeof v.hostname === 'string' && typeof v.token === 'string') return { kind: 'owner', owner: v }
  } catch {
    // falls through: not a lock this program wrote
  }
  return { kind: 'garbage', text }
}

const ownerOf = (found: Found): LockOwner | null => (found.kind === 'owner' ? found.owner : null)

/** Publishes `content` at `file` in one step; false when the name is taken. */
const publish = (file: string, content: string): Promise<boolean> => createExclusive(file, content, { mode: 0o600 })

const live = (owner: LockOwner | null): owner is LockOwner => owner !== null && processState(owner) !== 'gone'

/** The process that runs the session now, if any (a stale lock counts as none). */
export async function sessionOwner(dataDir: string, sessionId: string): Promise<LockOwner | null> {
  const owner = ownerOf(await readLock(lockPath(dataDir, sessionId)).catch(() => ({ kind: 'missing' }) as const))
  return live(owner) ? owner : null
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Takes the session for this process, or throws SessionLockedError naming its owner. Creates the session's
 * folder (a new session's too), so the lock is taken before anything else is written there.
 */
export async function acquireSessionLock(dataDir: string, sessionId: string, opts: { app: string }): Promise<SessionLock> {
  const file = lockPath(dataDir, sessionId)
  await ensureDataDir(dataDir)
  await mkdir(sessionDir(dataDir, sessionId), { recursive: true })
  const taken = await tryLock(file, opts.app)
  if ('owner' in taken) throw new SessionLockedError(sessionId, taken.owner, file)
  return taken.lock
}

/**
 * Takes the lock file `file` (its folder exists) for this process when it is free or stale; else names the
 * live process holding it. The one way Fanout takes a lock between processes: a session's, a repository's merges.
 */
export async function tryLock(file: string, app: string): Promise<{ lock: SessionLock } | { owner: LockOwner }> {
  const owner: LockOwner = { ...currentProcess(), app, acquiredAt: Date.now(), token: randomUuid() }
  const content = JSON.stringify(owner) + '\n'
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await publish(file, content)) return { lock: held(file, owner) }
    const found = await readLock(file)
    if (found.kind === 'missing') continue // let go meanwhile: try again
    if (found.kind === 'owner' && live(found.owner)) return { owner: found.owner }
    if (await replaceStale(file, found, content)) return { lock: held(file, owner) }
    if (attempt > 2) await sleep(5 + Math.random() * 20) // another process is replacing it just now
  }
  throw new Error(`Could not take ${file}: it kept changing (other processes are racing for it).`)
}

/**
 * Replaces a stale lock by this process's, in one rename, under `owner.lock.breaking`: the lock is never
 * absent meanwhile (so nobody can publish a fresh one that this would then remove), and of the processes
 * that found the same stale lock only the first to hold the breaker replaces it; the others find a live
 * lock after it. Returns whether this process now holds the lock.
 */
async function replaceStale(file: string, stale: Found, content: string): Promise<boolean> {
  const breaker = `${file}.breaking`
  if (!(await publish(breaker, content))) {
    // Someone is replacing it; only a breaker whose process died (a crash within these milliseconds) is removed.
    const other = ownerOf(await readLock(breaker))
    const old = await stat(breaker).then(
      (s) => Date.now() - s.mtimeMs > 10_000,
      () => false
    )
    if (!live(other) || old) await unlink(breaker).catch(() => {})
    return false
  }
  try {
    const now = await readLock(file)
    // Still the stale lock that was read, not one another process put there since.
    const same =
      stale.kind === 'garbage'
        ? now.kind === 'garbage' && now.text === stale.text
        : stale.kind === 'owner' && now.kind === 'owner' && now.owner.token === stale.owner.token && !live(now.owner)
    if (!same) return false
    await writeFileAtomic(file, content, { mode: 0o600, fsync: false })
    return true
  } finally {
    await unlink(breaker).catch(() => {})
  }
}

function held(file: string, owner: LockOwner): SessionLock {
  let released = false
  return {
    owner,
    file,
    // Read and removed with two system calls of a few microseconds, not through the thread pool: a session's
    // end (`fanout run` prints its answer after it) waited ~1 ms for the five round trips of open, stat, read,
    // close and unlink on a lock file of 150 bytes.
    async release() {
      if (released) return
      released = true
      let now: LockOwner | null = null
      try {
        now = ownerOf(readLockSync(file))
      } catch {}
      if (now?.token !== owner.token) return
      try {
        unlinkSync(file)
      } catch {}
    }
  }
}
