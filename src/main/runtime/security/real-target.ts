// Where a path really leads: every symbolic link along it resolved, including a last component that is a
// dangling link (`notes.txt -> /outside/x` leads to /outside/x even though x does not exist yet), and a
// missing tail kept as written under its real parent. realpath alone answers only for paths that exist,
// and "the nearest existing parent" misses exactly the dangling link a Write would follow.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'

/** Links followed before giving up (the kernel's own limit is 40). */
const MAX_LINKS = 40

/** The real target of `p`, or null when it cannot be known (a symlink loop, more than 40 links). */
export function realTarget(p: string): string | null {
  return follow(resolve(p), 0)
}

function follow(abs: string, links: number): string | null {
  if (links > MAX_LINKS) return null
  try {
    return realpathSync.native(abs)
  } catch {
    // Missing, dangling, a loop, or unreadable: walk it from its parent.
  }
  const parent = dirname(abs)
  if (parent === abs) return abs
  const realParent = follow(parent, links)
  if (realParent === null) return null
  const here = join(realParent, basename(abs))
  let isLink: boolean
  try {
    isLink = lstatSync(here).isSymbolicLink()
  } catch {
    return here // does not exist yet: it will be created here
  }
  if (!isLink) return here
  let target: string
  try {
    target = readlinkSync(here)
  } catch {
    return null
  }
  return follow(resolve(realParent, target), links + 1)
}
