// Whether a path is still exactly the empty placeholder that was made for a sandbox mount: the same inode,
// empty, with the permission bits and modification time it was made with. Anything a person or a tool does
// to it (writing, even writing nothing; touch; chmod; putting a file into a placeholder folder) changes one
// of these, and from then on it is theirs: never removed, never hidden.
import { lstatSync, readdirSync, type BigIntStats } from 'node:fs'
import { join } from 'node:path'
import type { Identity, JournalEntry, MountKind } from './mount-journal'

/** Mode bubblewrap (and Fanout, in its place) gives a placeholder file, and a placeholder folder. */
export const PLACEHOLDER_FILE_MODE = 0o444
export const PLACEHOLDER_DIR_MODE = 0o755

/** Same modification time within this (times restored through utimes() lose a little precision). */
const MTIME_SLACK_NS = 1_000_000n
/** A placeholder known only by the intent to make it: made within this window around the intent. */
const INTENT_WINDOW_MS = { before: 2_000, after: 15_000 }

export function lstatOrNull(path: string): BigIntStats | null {
  try {
    // A missing path is the common answer (every ignore file a search looks for): told without an exception,
    // which costs twenty times the stat.
    return lstatSync(path, { bigint: true, throwIfNoEntry: false }) ?? null
  } catch {
    return null
  }
}

export function identityOf(st: BigIntStats): Identity {
  return { dev: String(st.dev), ino: String(st.ino), mode: Number(st.mode & 0o7777n), mtimeNs: String(st.mtimeNs) }
}

export function kindOf(st: BigIntStats): MountKind | null {
  return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : null
}

/** Empty as the sandbox library judges it (the test it deletes by): a file of 0 bytes, a folder with no entries. */
export function isEmptyPlaceholderShape(path: string, st: BigIntStats | null = lstatOrNull(path)): boolean {
  if (!st) return false
  if (st.isFile()) return st.size === 0n
  if (!st.isDirectory()) return false
  try {
    return readdirSync(path).length === 0
  } catch {
    return false
  }
}

/**
 * The path is still the placeholder `entry` describes. A folder also counts while everything in it is a
 * placeholder too (`inner`), since another sandbox may have put its own in it.
 */
export function stillPlaceholder(entry: Pick<JournalEntry, 'path' | 'kind' | 'id' | 'at'>, inner: (path: string) => boolean = () => false): boolean {
  const st = lstatOrNull(entry.path)
  if (!st || kindOf(st) !== entry.kind) return false
  if (entry.kind === 'file' && st.size !== 0n) return false
  if (entry.kind === 'dir') {
    let names: string[]
    try {
      names = readdirSync(entry.path)
    } catch {
      return false
    }
    if (!names.every((n) => inner(join(entry.path, n)))) return false
  }
  const id = entry.id
  if (!id) {
    // Made by bubblewrap while this process could not: judged by its shape and when it appeared.
    const mode = Number(st.mode & 0o7777n)
    const ctimeMs = Number(st.ctimeNs / 1_000_000n)
    if (entry.kind === 'file' && mode !== PLACEHOLDER_FILE_MODE) return false
    return ctimeMs >= entry.at - INTENT_WINDOW_MS.before && ctimeMs <= entry.at + INTENT_WINDOW_MS.after
  }
  if (String(st.dev) !== id.dev || String(st.ino) !== id.ino || Number(st.mode & 0o7777n) !== id.mode) return false
  if (entry.kind === 'dir') return true // its times change whenever another sandbox's placeholder comes and goes inside
  const delta = st.mtimeNs - BigInt(id.mtimeNs)
  return delta < MTIME_SLACK_NS && delta > -MTIME_SLACK_NS
}
