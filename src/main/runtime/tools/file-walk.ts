// The in-process equivalent of `rg --files --hidden --no-require-git`: every regular file under a root,
// hidden files included, `.git` skipped, ignore files and override globs honoured, symlinks not followed (as
// ripgrep). With `maxEntries` it gives up once it has looked at that many directory entries: how the search
// tools tell a small tree (walked here, faster than spawning a process) from a large one (left to rg).
import { readdir } from 'node:fs/promises'
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
}

export async function walkTree(opts: WalkOptions): Promise<Walk> {
  const out: string[] = []
  const overrides = opts.overrides ?? new OverrideGlobs([])
  let seen = 0
  let complete = true
  const visit = async (dir: string, rel: string, ignore: IgnoreStack): Promise<void> => {
    if (opts.signal?.aborted) throw new Error('aborted')
    if (!complete || (opts.maxFiles !== undefined && out.length >= opts.maxFiles)) return
    let entries
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch {
      return // unreadable directory: ripgrep reports and skips it too
    }
    seen += entries.length
    if (opts.maxEntries !== undefined && seen > opts.maxEntries) {
      complete = false
      return
    }
    const subdirs: Promise<void>[] = []
    for (const entry of entries) {
      if (entry.name === '.git') continue
      const isDir = entry.isDirectory()
      if (!isDir && !entry.isFile()) continue
      const childRel = rel ? `${rel}/${entry.name}` : entry.name
      const childAbs = join(dir, entry.name)
      const override = overrides.match(childRel, isDir)
      if (override === 'ignore') continue
      if (override === 'none' && ignore.ignores(childAbs, isDir)) continue
      if (isDir) subdirs.push(visit(childAbs, childRel, ignore.descend(childAbs)))
      else if (!opts.accept || opts.accept(childRel)) out.push(childRel)
    }
    await Promise.all(subdirs)
  }
  await visit(opts.root, '', IgnoreStack.forRoot(opts.root))
  return { files: out, complete }
}

export async function walkFiles(opts: WalkOptions): Promise<string[]> {
  return (await walkTree(opts)).files
}
