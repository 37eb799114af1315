// Where Fanout keeps its data (sessions, settings, credentials), and the path of every file inside it.
// Ids become path components, so each one is checked before it is joined: an id can never escape its folder.
import { mkdir, stat, unlink, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, posix, resolve, win32 } from 'node:path'
import { errorMessage } from '../../../shared/error-message'

export interface DataDirOptions {
  platform?: NodeJS.Platform
  homedir?: string
  /** Base for a relative FANOUT_DATA_DIR (default: the process's cwd). */
  cwd?: string
}

/**
 * `FANOUT_DATA_DIR` if set, else the platform's per-user data folder:
 * Linux (and other Unixes) `$XDG_DATA_HOME/fanout` or `~/.local/share/fanout`,
 * macOS `~/Library/Application Support/Fanout`, Windows `%APPDATA%\Fanout`.
 */
export function resolveDataDir(env: Record<string, string | undefined> = process.env, opts: DataDirOptions = {}): string {
  const platform = opts.platform ?? process.platform
  const home = opts.homedir ?? homedir()
  const explicit = env.FANOUT_DATA_DIR?.trim()
  if (explicit) return resolve(opts.cwd ?? process.cwd(), explicit)
  if (platform === 'win32') {
    const appData = env.APPDATA?.trim() || win32.join(home, 'AppData', 'Roaming')
    return win32.join(appData, 'Fanout')
  }
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'Fanout')
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME?.trim()
  if (xdg && isAbsolute(xdg)) return posix.join(xdg, 'fanout')
  return posix.join(home, '.local', 'share', 'fanout')
}

const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/

/** Whether `id` is safe to use as a file name (letters, digits, `.`, `_`, `-`). */
export const isSafeId = (id: string): boolean => SAFE_ID.test(id)

/** Throws a clear error unless `id` is safe to use as a file name (letters, digits, `.`, `_`, `-`). */
export function assertSafeId(id: string, what: string): void {
  if (typeof id !== 'string' || !isSafeId(id)) {
    throw new Error(`Invalid ${what} ${JSON.stringify(id)}: use 1-128 letters, digits, '.', '_' or '-', not starting with '.' or '-'.`)
  }
}

export const sessionsDir = (dataDir: string): string => join(dataDir, 'sessions')

export function sessionDir(dataDir: string, sessionId: string): string {
  assertSafeId(sessionId, 'session id')
  return join(sessionsDir(dataDir), sessionId)
}

export const sessionIndexPath = (dataDir: string, sessionId: string): string => join(sessionDir(dataDir, sessionId), 'session.json')

export const agentsDir = (dataDir: string, sessionId: string): string => join(sessionDir(dataDir, sessionId), 'agents')

export function transcriptPath(dataDir: string, sessionId: string, agentId: string): string {
  assertSafeId(agentId, 'agent id')
  return join(agentsDir(dataDir, sessionId), `${agentId}.jsonl`)
}

export function agentStatePath(dataDir: string, sessionId: string, agentId: string): string {
  assertSafeId(agentId, 'agent id')
  return join(agentsDir(dataDir, sessionId), `${agentId}.state.json`)
}

export const mailboxDir = (dataDir: string, sessionId: string): string => join(sessionDir(dataDir, sessionId), 'mailbox')

export const settingsPath = (dataDir: string): string => join(dataDir, 'settings.json')

export const credentialsPath = (dataDir: string): string => join(dataDir, 'credentials')

/** Creates the data folder private to the user (0700) when it does not exist yet. */
export async function ensureDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
}

/** The data folder cannot hold sessions: its message is one line that says which path and why. */
export class DataDirError extends Error {
  override name = 'DataDirError'
}

/** The nearest path at or above `path` that exists and is not a folder, if any (what ENOTDIR is about). */
async function fileInTheWay(path: string): Promise<string | null> {
  for (let p = path; ; p = dirname(p)) {
    const s = await stat(p).catch(() => null)
    if (s && !s.isDirectory()) return p
    if (dirname(p) === p) return null
  }
}

/**
 * Checks, before any work starts, that sessions can be recorded under `dataDir`: the folders exist or can be
 * made, and a file can be written there. Throws DataDirError with one line a person can act on.
 */
export async function checkDataDirWritable(dataDir: string): Promise<void> {
  const dir = sessionsDir(dataDir)
  const probe = join(dir, `.write-check-${process.pid}`)
  try {
    await ensureDataDir(dataDir)
    await mkdir(dir, { recursive: true })
    await writeFile(probe, '')
    await unlink(probe)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const blocker = code === 'ENOTDIR' || code === 'EEXIST' ? await fileInTheWay(dir) : null
    const why = blocker
      ? `${blocker} is a file, not a folder`
      : code === 'EACCES' || code === 'EPERM'
        ? `no permission to write in ${dir}`
        : code === 'EROFS'
          ? `${dir} is on a read-only file system`
          : code === 'ENOSPC' || code === 'EDQUOT'
            ? `the disk holding ${dir} is full`
            : `${dir} cannot be written (${errorMessage(err)})`
    throw new DataDirError(`Cannot record sessions in the data folder ${dataDir}: ${why}. Fix that, or set FANOUT_DATA_DIR to a folder you can write to.`, {
      cause: err
    })
  }
}
