// Other names of protected files. A hard link is the same file under another name: the sandbox denies writes
// to a protected path, but `echo x > copy` through a second name in the working tree would change the hook
// all the same. A sandboxed command cannot make such a link (the protected path is a read-only mount, and
// link(2) does not cross mounts), and git never checks one out, but an unpacked archive can hold one. Only
// when a protected file has more than one name is the tree walked for the others; most never are.
import { lstatSync, readdirSync, type Stats } from 'node:fs'
import { join } from 'node:path'

/** Entries looked at before giving up on a walk (a tree this big is refused whole by the caller's list). */
const MAX_ENTRIES = 200_000

function filesUnder(path: string, visit: (file: string, info: Stats) => void, budget: { left: number }): void {
  let info: Stats
  try {
    info = lstatSync(path)
  } catch {
    return
  }
  if (--budget.left < 0) return
  if (info.isFile()) return visit(path, info)
  if (!info.isDirectory()) return
  let names: string[]
  try {
    names = readdirSync(path)
  } catch {
    return
  }
  for (const n of names) filesUnder(join(path, n), visit, budget)
}

/**
 * The other names, under `tree`, of the regular files at or below `protectedPaths` that have more than one
 * name. Empty (and cheap) when none has.
 */
export function otherNamesOf(protectedPaths: readonly string[], tree: string): string[] {
  const linked = new Map<string, string>()
  const budget = { left: MAX_ENTRIES }
  for (const p of protectedPaths)
    filesUnder(
      p,
      (file, info) => {
        if (info.nlink > 1) linked.set(`${info.dev}:${info.ino}`, file)
      },
      budget
    )
  if (linked.size === 0) return []
  const found: string[] = []
  filesUnder(
    tree,
    (file, info) => {
      const original = linked.get(`${info.dev}:${info.ino}`)
      if (original !== undefined && original !== file) found.push(file)
    },
    { left: MAX_ENTRIES }
  )
  return found
}
