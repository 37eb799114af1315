// The in-process equivalent of `rg --files --hidden --no-require-git`: every regular file under a root,
// hidden files included, `.git` skipped, ignore files and override globs honoured, symlinks not followed (as
// ripgrep). With `maxEntries` it gives up once it has looked at that many directory entries: how the search
// tools tell a small tree (walked here, faster than spawning a process) from a large one (left to rg).
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { IgnoreStack, OverrideGlobs } from './ignore-rules'

export interface WalkOptions {
  root: string
  overrides?: OverrideGlobs
  /** Extra per-file filter on the root-relative path (e.g. Grep's `type`). */
  accept?: (relPath: string) => boolean
  signal?: AbortSignal
  /** Stop after this many files. */
  maxFiles?: number
  /** Give up after looking at this many directory entries (the walk is then incomplete). */
  maxEntries?: number
}

export interface Walk {
  /** Root-relative, forward-slash paths of the files found, in no particular order. */
  files: string[]
  /** False when `maxEntries` stopped it. */
  complete: boolean
  /** Every directory it read or tried to (absolute), the root first. */
  dirs: string[]
  /** The ignore files it found and read, here and above the root, and every `.git` it met on the way (absolute). */
  read: ReadonlySet<string>
}

/**
 * Directories read between two turns of the event loop. Each is read on the calling thread: a readdir of a small
 * folder takes microseconds, while through the file system's threads it was a round trip of two thread wake-ups
 * (0.3-1.5 ms on an idle two-core machine), one per level of the tree on the way to a Glob's answer. A large
 * tree (the walk without rg) still lets the loop turn every few milliseconds.
 */
const DIRS_PER_TURN = 64

export async function walkTree(opts: WalkOptions): Promise<Walk> {
  const out: string[] = []
  const dirs: string[] = []
  const found = new Set<string>()
  const overrides = opts.overrides ?? new OverrideGlobs([])
  let seen = 0
  const todo: Array<{ dir: string; rel: string; ignore: IgnoreStack }> = [{ dir: opts.root, rel: '', ignore: IgnoreStack.forRoot(opts.root, found) }]
  for (let read = 0; todo.length; read++) {
    if (opts.signal?.aborted) throw new Error('aborted')
    if (opts.maxFiles !== undefined && out.length >= opts.maxFiles) break
    if (read > 0 && read % DIRS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    const { dir, rel, ignore } = todo.pop()!
    dirs.push(dir)
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      continue // unreadable directory: ripgrep reports and skips it too
    }
    seen += entries.length
    if (opts.maxEntries !== undefined && seen > opts.maxEntries) return { files: out, complete: false, dirs, read: found }
    for (const entry of entries) {
      if (entry.name === '.git') continue
      const isDir = entry.isDirectory()
      if (!isDir && !entry.isFile()) continue
      const childRel = rel ? `${rel}/${entry.name}` : entry.name
      const childAbs = join(dir, entry.name)
      const override = overrides.match(childRel, isDir)
      if (override === 'ignore') continue
      if (override === 'none' && ignore.ignores(childAbs, isDir)) continue
      if (isDir) todo.push({ dir: childAbs, rel: childRel, ignore: ignore.descend(childAbs) })
      else if (!opts.accept || opts.accept(childRel)) out.push(childRel)
    }
  }
  return { files: out, complete: true, dirs, read: found }
}

export async function walkFiles(opts: WalkOptions): Promise<string[]> {
  return (await walkTree(opts)).files
}
