// Where Fanout keeps its data (sessions, settings, credentials), and the path of every file inside it.
// Ids become path components, so each one is checked before it is joined: an id can never escape its folder.
import { mkdir } from 'node:fs/promises'
import { homedir } from 'node:os'
import { isAbsolute, join, posix, resolve, win32 } from 'node:path'

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
    throw new Error(
      `Invalid ${what} ${JSON.stringify(id)}: use 1-128 letters, digits, '.', '_' or '-', not starting with '.' or '-'.`
    )
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
