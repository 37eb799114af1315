// Reading and writing agent files safely. A read records the file's version (mtime, size, sha256); a save
// first checks the file on disk still has that version — if someone else changed or deleted it, nothing is
// written and the caller gets the current text to offer "reload" or "keep mine". Writes are atomic: a
// temporary file in the same folder (hidden, so the agent scanner never reads it), flushed, then renamed
// over the target, so a crash leaves either the old file or the new one, never half of each.
import { createHash } from 'node:crypto'
import { realpath, stat, unlink } from 'node:fs/promises'
import type { FileVersion, SaveConflict } from '../../../shared/agent-editor'
import { MAX_AGENT_FILE_CHARS } from '../definitions/parse'
import { writeFileAtomic } from '../store/atomic-file'
import { readConfigBytes } from '../store/read-config'

export class AgentFileError extends Error {
  constructor(
    readonly code: 'not_found' | 'conflict' | 'invalid_request' | 'forbidden',
    message: string
  ) {
    super(message)
    this.name = 'AgentFileError'
  }
}

export function versionOf(bytes: Buffer, mtimeMs: number): FileVersion {
  return { mtimeMs, size: bytes.length, hash: createHash('sha256').update(bytes).digest('hex') }
}

const isMissing = (err: unknown): boolean => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')

/** The file's text and version, or null when it does not exist. */
export async function readVersioned(path: string): Promise<{ text: string; version: FileVersion } | null> {
  try {
    const info = await stat(path)
    if (!info.isFile()) throw new AgentFileError('invalid_request', `${path} is not a file.`)
    if (info.size > MAX_AGENT_FILE_CHARS * 4) throw new AgentFileError('invalid_request', `${path} is ${info.size} bytes, too large for an agent file.`)
    // Read as a bounded regular file: a pipe swapped in after the stat is refused, not waited on.
    const read = readConfigBytes(path, MAX_AGENT_FILE_CHARS * 4)
    if ('missing' in read) return null
    if ('error' in read) throw new AgentFileError('invalid_request', `${path} ${read.error}.`)
    const bytes = read.bytes
    return { text: bytes.toString('utf8'), version: versionOf(bytes, info.mtimeMs) }
  } catch (err) {
    if (isMissing(err)) return null
    throw err
  }
}

/** Writes `text` to `path` atomically, keeping the old file's permissions and writing through a symlink. */
export async function writeAtomic(path: string, text: string): Promise<FileVersion> {
  const target = await realpath(path).catch(() => path)
  const mode = await stat(target).then(
    (s) => s.mode & 0o777,
    () => 0o644
  )
  const bytes = Buffer.from(text, 'utf8')
  // The one atomic write (store/atomic-file.ts): a failed write leaves the old file whole and no temp file.
  await writeFileAtomic(target, bytes, { mode, keepMode: true, fsyncDir: true })
  const info = await stat(target)
  return versionOf(bytes, info.mtimeMs)
}

const sameVersion = (a: FileVersion, b: FileVersion): boolean => a.hash === b.hash && a.size === b.size

/**
 * Saves `text` when the file is still at `base` (null: the file must not exist yet). Returns the conflict
 * instead of writing when it is not. `force` writes anyway: the person chose to keep their version.
 */
export async function saveChecked(
  path: string,
  text: string,
  base: FileVersion | null,
  force = false
): Promise<{ version: FileVersion } | { conflict: SaveConflict }> {
  if (!force) {
    const current = await readVersioned(path)
    const changed = base === null ? current !== null : current === null || !sameVersion(current.version, base)
    if (changed) return { conflict: { text: current?.text ?? null, version: current?.version ?? null } }
  }
  return { version: await writeAtomic(path, text) }
}

/** Removes a file when it is still at `base`; a missing file is already removed. */
export async function removeChecked(path: string, base: FileVersion | null): Promise<{ removed: true } | { conflict: SaveConflict }> {
  const current = await readVersioned(path)
  if (!current) return { removed: true }
  if (base && !sameVersion(current.version, base)) return { conflict: { text: current.text, version: current.version } }
  await unlink(path)
  return { removed: true }
}
