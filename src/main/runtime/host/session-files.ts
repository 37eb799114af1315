// A session's folder as the sidebar manages it: the name a person gave it (kept beside the transcripts in
// name.json, so the recorder, which rewrites session.json as agents run, never overwrites it), the demo's
// marker, and deleting it, to the system's trash where there is one. Each looks at that one session's
// folder, never the list.
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { HostCallError } from '../../../shared/host-call-error'
import { ensureDataDir, NewerTranscriptError, readSessionSummary, SessionNotFoundError, sessionDir, writeJsonAtomic, type SessionSummary } from '../store'

const NAME_FILE = 'name.json'
const DEMO_FILE = 'demo.json'

/** The name a person gave the session, or null. Read synchronously: the session list asks per row. */
export function sessionName(dataDir: string, sessionId: string): string | null {
  try {
    const v = JSON.parse(readFileSync(join(sessionDir(dataDir, sessionId), NAME_FILE), 'utf8')) as { title?: unknown }
    return typeof v.title === 'string' && v.title.trim() ? v.title : null
  } catch {
    return null
  }
}

export async function saveSessionName(dataDir: string, sessionId: string, title: string): Promise<void> {
  await writeJsonAtomic(join(sessionDir(dataDir, sessionId), NAME_FILE), { title })
}

/** Whether the session is the scripted demo: reopened, it goes on with the demo's model, not a key. */
export function isDemoSession(dataDir: string, sessionId: string): boolean {
  return existsSync(join(sessionDir(dataDir, sessionId), DEMO_FILE))
}

export async function markDemoSession(dataDir: string, sessionId: string): Promise<void> {
  await ensureDataDir(dataDir)
  await writeFile(join(sessionDir(dataDir, sessionId), DEMO_FILE), JSON.stringify({ demo: true, scripted: true }) + '\n').catch(() => undefined)
}

const noSession = (sessionId: string) => new HostCallError('not_found', `There is no session ${sessionId}.`)

/**
 * The store's "no such session" as the call's `not_found`; a session a newer Fanout wrote as `conflict`, its
 * sentence as it is (it names the file and both versions); any other failure as it is.
 */
export function sessionCallError(err: unknown, sessionId: string): unknown {
  if (err instanceof NewerTranscriptError) return new HostCallError('conflict', err.message)
  return err instanceof SessionNotFoundError ? noSession(sessionId) : err
}

/** The session's folder; `not_found` for an id no session folder can have. */
function folderOf(dataDir: string, sessionId: string): string {
  try {
    return sessionDir(dataDir, sessionId)
  } catch {
    throw noSession(sessionId)
  }
}

/** A stored session's summary, read from its folder alone; `not_found` when there is no such session. */
export async function storedSession(dataDir: string, sessionId: string): Promise<SessionSummary> {
  folderOf(dataDir, sessionId)
  try {
    return await readSessionSummary(dataDir, sessionId)
  } catch (err) {
    throw sessionCallError(err, sessionId)
  }
}

/** Moves a path to the trash; Electron's shell.trashItem in the app. Throws when it cannot. */
export type TrashItem = (path: string) => Promise<void>

const ACTIVE = ['running', 'queued', 'waiting_permission']

/**
 * Deletes a session that nothing runs: `live` is this process's copy of it, if any (closed first). Refuses
 * with `conflict` while any of its agents works, here or in another process; resolves whether it went to the trash.
 */
export async function deleteSessionFolder(
  dataDir: string,
  sessionId: string,
  opts: { live: { busy: boolean; close(): Promise<void> } | null; home: string; env: Record<string, string | undefined>; trash?: TrashItem }
): Promise<boolean> {
  if (!existsSync(folderOf(dataDir, sessionId))) throw noSession(sessionId)
  if (opts.live?.busy) throw new HostCallError('conflict', 'This session is still running; stop it before deleting it.')
  if (!opts.live) {
    // A folder that holds no readable session is not running either: it goes like any other.
    const stored = await readSessionSummary(dataDir, sessionId).catch(() => null)
    if (stored && ACTIVE.includes(stored.status))
      throw new HostCallError('conflict', 'This session is running in another Fanout window or `fanout run`; stop it there before deleting it.')
  }
  await opts.live?.close()
  return removeSessionFolder(dataDir, sessionId, opts)
}

/**
 * Removes a session's folder: to the trash when `trash` works (or, without it, the freedesktop or macOS
 * trash of `home`), else for good. Resolves whether it went to the trash.
 */
export async function removeSessionFolder(
  dataDir: string,
  sessionId: string,
  opts: { trash?: TrashItem | undefined; home: string; env: Record<string, string | undefined>; platform?: NodeJS.Platform }
): Promise<boolean> {
  const dir = sessionDir(dataDir, sessionId)
  const trash = opts.trash ?? homeTrash(opts.home, opts.env, opts.platform ?? process.platform)
  if (trash) {
    try {
      await trash(dir)
      return true
    } catch {
      // another file system, or no trash after all: deleted below, as the person confirmed
    }
  }
  await rm(dir, { recursive: true, force: true })
  return false
}

/** The trash of the user's home folder (freedesktop.org on Linux and BSDs, ~/.Trash on macOS); none on Windows. */
function homeTrash(home: string, env: Record<string, string | undefined>, platform: NodeJS.Platform): TrashItem | null {
  if (platform === 'win32') return null
  if (platform === 'darwin') {
    return async (path) => rename(path, freeName(join(home, '.Trash'), basename(path)))
  }
  const root = env.XDG_DATA_HOME ? join(env.XDG_DATA_HOME, 'Trash') : join(home, '.local/share/Trash')
  return async (path) => {
    await mkdir(join(root, 'files'), { recursive: true })
    await mkdir(join(root, 'info'), { recursive: true })
    const target = freeName(join(root, 'files'), basename(path))
    const name = basename(target)
    const info = join(root, 'info', `${name}.trashinfo`)
    const date = new Date().toISOString().slice(0, 19)
    await writeFile(info, `[Trash Info]\nPath=${encodeURI(path)}\nDeletionDate=${date}\n`, { flag: 'wx' })
    try {
      await rename(path, target)
    } catch (err) {
      await rm(info, { force: true })
      throw err
    }
  }
}

function freeName(dir: string, name: string): string {
  for (let i = 0; ; i++) {
    const candidate = join(dir, i ? `${name}.${i}` : name)
    if (!existsSync(candidate) && !existsSync(join(dir, '..', 'info', `${basename(candidate)}.trashinfo`))) return candidate
  }
}
