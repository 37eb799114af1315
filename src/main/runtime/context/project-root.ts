// How far up the folder tree project files (CLAUDE.md, .claude/skills) are looked for: to the root of the
// repository around the working directory, or to the filesystem root outside any repository.
import { statSync } from 'node:fs'
import { lstat, readlink, realpath } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'

/**
 * The nearest folder at or above `cwd` holding a `.git` entry (a folder, or a file in a linked worktree). Looked
 * up on the calling thread: a stat of a few folders takes microseconds, while each through the file system's
 * threads was a round trip (two wake-ups, 0.3-1.5 ms on an idle two-core machine), and every subagent's start
 * asks this before its first request.
 */
export function findRepoRoot(cwd: string): Promise<string | null> {
  return Promise.resolve(foldersUpTo(resolve(cwd), null).find((dir) => present(join(dir, '.git'))) ?? null)
}

/** Whether anything is at `path` (unreadable counts as nothing). */
function present(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined
  } catch {
    return false
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

/**
 * Where `path` really leads, when that is outside `folder` (both through every symbolic link); null when it
 * stays inside. A repository can ship links: a project file Fanout reads or lets an agent write (a skill, an
 * agent's memory folder) must not carry it to a file of the person's elsewhere.
 */
export async function leadsOutside(path: string, folder: string): Promise<string | null> {
  const [real, top] = await Promise.all([whereItLeads(path), realpath(folder).catch(() => resolve(folder))])
  const rel = relative(top, real)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)) ? null : real
}

/** The real path of `path`, also when it (or a link on the way) leads to something that does not exist yet. */
async function whereItLeads(path: string, hops = 0): Promise<string> {
  try {
    return await realpath(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || hops > 40) throw err
  }
  const parent = dirname(path)
  const st = await lstat(path).catch(() => null)
  if (st?.isSymbolicLink()) return whereItLeads(resolve(parent, await readlink(path)), hops + 1)
  return parent === path ? path : join(await whereItLeads(parent, hops + 1), basename(path))
}
