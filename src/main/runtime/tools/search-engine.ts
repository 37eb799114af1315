// Which engine a Glob or Grep uses: ripgrep is a process to spawn (several ms here, ~50 ms for sixteen at
// once on two cores, as a fan-out does), while walking a small tree in-process costs a millisecond or two.
// So a search first walks the tree in-process within a budget of directory entries; a tree that fits is
// searched right there, a larger one is handed to rg (and remembered as large for a minute, so the next
// search there goes straight to rg). Both engines honour the same ignore files and globs and answer alike
// (see the engine-agreement tests); the path policy filters either's results afterwards.
import { walkTree, type Walk, type WalkOptions } from './file-walk'

/**
 * Directory entries a search walks in-process before it leaves the tree to rg. Measured here (`npm run bench`,
 * "Search engine by tree size"): in-process wins up to a few thousand files alone and about 1.5k with sixteen
 * searches at once.
 */
export const IN_PROCESS_SEARCH_UP_TO = 1500

const LARGE_FOR_MS = 60_000
const large = new Map<string, number>()

function knownLarge(root: string): boolean {
  const at = large.get(root)
  if (at === undefined) return false
  if (Date.now() - at < LARGE_FOR_MS) return true
  large.delete(root)
  return false
}

/**
 * The walk of a small tree (the options' filters applied), or null when rg should search it: the tree holds
 * more than `upTo` entries (or `upTo` is 0).
 */
export async function smallTreeWalk(opts: WalkOptions & { upTo: number }): Promise<Walk | null> {
  if (opts.upTo <= 0 || knownLarge(opts.root)) return null
  const walk = await walkTree({ ...opts, maxEntries: opts.upTo })
  if (walk.complete) return walk
  if (large.size > 1000) large.clear()
  large.set(opts.root, Date.now())
  return null
}

/** smallTreeWalk's files. */
export async function smallTreeFiles(opts: WalkOptions & { upTo: number }): Promise<string[] | null> {
  return (await smallTreeWalk(opts))?.files ?? null
}
