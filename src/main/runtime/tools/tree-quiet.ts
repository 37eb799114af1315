// Whether a small tree is still as it was walked: what a listing needs before it is served again (list-files.ts).
// A name made, removed or renamed in a folder changes that folder's ctime and mtime; an ignore file edited in
// place changes its own. So the walk's answer still holds when the root is the same folder, every folder the walk
// read was last changed before the walk began, every ignore file it read (there or in a folder above: theirs
// apply below) is there and was too, and no ignore file or `.git` it did not find has appeared since. "Before" by
// a margin: a file system stamps times from a clock that ticks coarsely (a jiffy on ext4, two seconds on FAT), so
// a change in the walk's first tick may carry a time before its start; a tree changed that recently is walked
// again. This is git's rule for a "racily clean" index; like git's, it trusts a network file system's server
// clock not to lag the machine's by more than the margin.
import { lstatSync, realpathSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Walk } from './file-walk'

/** How long before a walk's start the tree must have been left alone for its listing to be served again (tests shorten it). */
export const QUIET_BEFORE = { ms: 3000 }

const IGNORE_NAMES = ['.gitignore', '.ignore', '.rgignore']

/**
 * One path to look at: `old`, there and last changed before the walk (a folder not followed through a link:
 * one swapped in is a change; an ignore file and, where it is a link, what it leads to, as the walk read it); `there`, merely there (a `.git`:
 * the walk asked only whether it exists, and git itself keeps changing it); `gone`, not there. `seen`: an old
 * path's inode and times at the first look, which every later look must find again (so a change that a clock
 * set back stamps with an old time is still one).
 */
export interface Watched {
  path: string
  expect: 'old-folder' | 'old-file' | 'there' | 'gone'
  seen?: string
}

/** The identity of a folder (device and inode), taken before a walk of it: null when it is not a folder. */
export function folderId(path: string): string | null {
  const s = lstatSync(path, { throwIfNoEntry: false })
  return s?.isDirectory() ? `${s.dev}:${s.ino}` : null
}

/** What to look at to tell whether `walk` of `root` still holds; null when `root` is not a real path (a link on the way could be turned elsewhere). */
export function pathsToWatch(root: string, walk: Pick<Walk, 'dirs' | 'read'>): Watched[] | null {
  try {
    if (realpathSync.native(root) !== root) return null
  } catch {
    return null
  }
  const watch: Watched[] = walk.dirs.map((path) => ({ path, expect: 'old-folder' }))
  const folders = new Set<string>([root, ...walk.dirs])
  for (let dir = root; dirname(dir) !== dir; ) {
    dir = dirname(dir)
    folders.add(dir)
  }
  for (const dir of folders) {
    for (const name of IGNORE_NAMES) {
      const file = join(dir, name)
      watch.push({ path: file, expect: walk.read.has(file) ? 'old-file' : 'gone' })
    }
    const git = join(dir, '.git')
    const exclude = join(git, 'info', 'exclude')
    watch.push({ path: git, expect: walk.read.has(git) ? 'there' : 'gone' })
    // Read only where a .git is; one made later is seen as the .git appearing.
    if (walk.read.has(git)) watch.push({ path: exclude, expect: walk.read.has(exclude) ? 'old-file' : 'gone' })
  }
  return watch
}

/** True when `root` is still the folder `rootId` names and every watched path is as expected for a walk begun at `walkedAt`. */
export function quietSince(root: string, rootId: string, watch: readonly Watched[], walkedAt: number): boolean {
  if (folderId(root) !== rootId) return false
  const before = walkedAt - QUIET_BEFORE.ms
  for (const w of watch) {
    const s = lstatSync(w.path, { throwIfNoEntry: false })
    if (w.expect === 'gone') {
      if (s) return false
      continue
    }
    if (!s) return false
    if (w.expect === 'there') continue
    // An ignore file is read through a link: the link (turned elsewhere, it is a new one) and what it leads to.
    const target = w.expect === 'old-file' && s.isSymbolicLink() ? statSync(w.path, { throwIfNoEntry: false }) : s
    if (!target) return false
    const now = `${s.dev}:${s.ino}:${s.ctimeMs}:${s.mtimeMs}|${target.dev}:${target.ino}:${target.size}:${target.ctimeMs}:${target.mtimeMs}`
    if (w.seen === undefined) {
      if (Math.max(s.ctimeMs, s.mtimeMs, target.ctimeMs, target.mtimeMs) >= before) return false
      w.seen = now
    } else if (w.seen !== now) return false
  }
  return true
}
