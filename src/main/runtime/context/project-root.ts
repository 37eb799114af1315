// How far up the folder tree project files (CLAUDE.md, .claude/skills) are looked for: to the root of the
// repository around the working directory, or to the filesystem root outside any repository.
import { stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}

/** The nearest folder at or above `cwd` holding a `.git` entry (a folder, or a file in a linked worktree). */
export async function findRepoRoot(cwd: string): Promise<string | null> {
  let dir = resolve(cwd)
  for (;;) {
    if (await exists(join(dir, '.git'))) return dir
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}

/** `cwd` and its ancestors up to `top` inclusive (or the filesystem root), innermost first. */
export function foldersUpTo(cwd: string, top: string | null): string[] {
  const out: string[] = []
  let dir = resolve(cwd)
  for (;;) {
    out.push(dir)
    const parent = dirname(dir)
    if ((top && dir === resolve(top)) || parent === dir) return out
    dir = parent
  }
}

/** The folders searched for project files, innermost first. */
export async function projectFolders(cwd: string): Promise<string[]> {
  return foldersUpTo(cwd, await findRepoRoot(cwd))
}

/** Where project-scoped files (agent memory) live: the repository root, or `cwd` outside a repository. */
export async function projectRootOf(cwd: string): Promise<string> {
  return (await findRepoRoot(cwd)) ?? resolve(cwd)
}
