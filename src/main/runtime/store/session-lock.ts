// A session has one owner: the process that runs it (the app, browser mode or `fanout run`) holds
// `<session>/owner.lock`, naming itself (pid, host, start time, which program). Another process asked to run
// the session refuses, or (the app) shows it read-only and follows it. A lock whose owner is gone (crashed,
// killed, its pid since given to another program) is stale and is taken over, so a crash never blocks a
// session for good.
//
// Every lock file is published whole with link(2), which fails when the name exists: of two processes
// racing for a free session exactly one links. Breaking a stale lock is itself guarded by `owner.lock.breaking`
// (taken the same way), so two processes that both find the same stale lock cannot both replace it.
import { randomUUID } from 'node:crypto'
import { mkdir, readFile, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { createExclusive, errorCode } from './atomic-file'
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

/** The lock's owner as written; null when there is no lock or it cannot be read (treated as stale). */
async function readOwner(file: string): Promise<LockOwner | null> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return null
    throw err
  }
  try {
    const v = JSON.parse(text) as LockOwner
    return typeof v?.pid === 'number' && typeof v.hostname === 'string' && typeof v.token === 'string' ? v : null
  } catch {
    return null
  }
}

/** Publishes `content` at `file` in one step; false when the name is taken. */
const publish = (file: string, content: string): Promise<boolean> => createExclusive(file, content, { mode: 0o600 })

const live = (owner: LockOwner | null): owner is LockOwner => owner !== null && processState(owner) !== 'gone'

/** The process that runs the session now, if any (a stale lock counts as none). */
export async function sessionOwner(dataDir: string, sessionId: string): Promise<LockOwner | null> {
  const owner = await readOwner(lockPath(dataDir, sessionId)).catch(() => null)
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
  const owner: LockOwner = { ...currentProcess(), app: opts.app, acquiredAt: Date.now(), token: randomUUID() }
  const content = JSON.stringify(owner) + '\n'
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await publish(file, content)) return held(file, owner)
    const existing = await readOwner(file)
    if (live(existing)) throw new SessionLockedError(sessionId, existing, file)
    await breakStale(file, existing, owner)
    if (attempt > 2) await sleep(5 + Math.random() * 20) // another process is breaking it just now
  }
  throw new Error(`Could not take ${file}: it kept changing (another process is racing for the session).`)
}

/** Removes a stale lock once, whoever else found it stale at the same moment. */
async function breakStale(file: string, stale: LockOwner | null, me: LockOwner): Promise<void> {
  const breaker = `${file}.breaking`
  if (!(await publish(breaker, JSON.stringify(me) + '\n'))) {
    // Someone is breaking it; only a breaker that died (a crash within these few milliseconds) is removed.
    const other = await readOwner(breaker)
    const old = await stat(breaker).then((s) => Date.now() - s.mtimeMs > 10_000, () => false)
    if (!live(other) || old) await unlink(breaker).catch(() => {})
    return
  }
  try {
    const now = await readOwner(file)
    // Still the stale lock that was read (not one a faster process put there since): it goes.
    if (now?.token === stale?.token && !live(now)) await unlink(file).catch(() => {})
  } finally {
    await unlink(breaker).catch(() => {})
  }
}

function held(file: string, owner: LockOwner): SessionLock {
  let released = false
  return {
    owner,
    file,
    async release() {
      if (released) return
      released = true
      const now = await readOwner(file).catch(() => null)
      if (now?.token === owner.token) await unlink(file).catch(() => {})
    }
  }
}
