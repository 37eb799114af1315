// What worktree isolation needs to know about the parent's repository, read without changing anything.
import { lstat, realpath } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import { errorText, isDirectory, runGit, tryGit } from './git'

export class WorktreeError extends Error {
  override name = 'WorktreeError'
}

export interface RepoInfo {
  /** The parent's working directory, resolved through symlinks. */
  cwd: string
  /** Top of the checkout that contains `cwd` (itself possibly a linked worktree). */
  repoRoot: string
  /** `cwd` relative to `repoRoot` ('' at the root). */
  relativeCwd: string
  /** The shared .git directory of all the repository's worktrees: the key for serializing git operations. */
  commonDir: string
  /** The repository's main checkout (or bare directory): where the default worktree folder is derived from. */
  mainRoot: string
  /** A readable repository name for folder names. */
  repoName: string
  /** The commit checked out in `cwd`'s checkout, or null when the repository has no commits. */
  head: string | null
  /** The branch checked out there, or null when HEAD is detached. */
  branch: string | null
}

/** Reads the repository around `cwd`; a clear WorktreeError when there is none. */
export async function readRepo(cwd: string): Promise<RepoInfo> {
  const dir = resolve(cwd)
  if (!(await isDirectory(dir))) {
    throw new WorktreeError(`isolation: worktree needs a git repository; ${dir} is not a directory`)
  }
  let top: string
  try {
    top = await runGit(dir, ['rev-parse', '--show-toplevel'])
  } catch (err) {
    const why = errorText(err)
    if (/not a git repository/i.test(why)) {
      throw new WorktreeError(`isolation: worktree needs a git repository; ${dir} is not inside one`)
    }
    throw new WorktreeError(`isolation: worktree needs a checkout with a working tree; git says for ${dir}: ${why}`)
  }
  if (!top) throw new WorktreeError(`isolation: worktree needs a checkout with a working tree; ${dir} is inside a bare repository`)
  // A main checkout's git folder has no `commondir` (only a linked worktree's admin folder has one): one that
  // appeared there was planted, to send git to a config of someone's choosing. Fanout runs no git there.
  if ((await isDirectory(join(top, '.git'))) && (await lstat(join(top, '.git', 'commondir')).catch(() => null))) {
    throw new WorktreeError(
      `the git folder ${join(top, '.git')} holds a commondir file, which sends git to another repository's configuration; Fanout runs no git there until it is removed`
    )
  }
  const realCwd = await realpath(dir)
  const repoRoot = await realpath(top)
  const commonDir = await realpath(resolve(dir, await runGit(dir, ['rev-parse', '--git-common-dir'])))
  const head = await tryGit(dir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])
  const branch = await tryGit(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD'])
  const mainRoot = await mainWorktreeRoot(dir, commonDir)
  return {
    cwd: realCwd,
    repoRoot,
    relativeCwd: relative(repoRoot, realCwd),
    commonDir,
    mainRoot,
    repoName: basename(mainRoot).replace(/\.git$/, '') || 'repo',
    head: head || null,
    branch: branch || null
  }
}

/** What git says when a worktree's `commondir` is empty: "fatal: failed to read <admin folder>/commondir: Success". */
const TORN_COMMONDIR = /failed to read .*commondir/

/**
 * The first entry of `git worktree list` is always the main checkout (or the bare repository). When the listing
 * fails (a linked worktree's `commondir` a kill left empty stops every git command that lists worktrees, until
 * create-worktree.ts removes that half-made one), it is worked out as git does: the common dir without `/.git`.
 */
async function mainWorktreeRoot(dir: string, commonDir: string): Promise<string> {
  const listing = await runGit(dir, ['worktree', 'list', '--porcelain']).catch((err: unknown) => {
    if (TORN_COMMONDIR.test(errorText(err))) return null
    throw err
  })
  if (listing === null) return commonDir.endsWith(`${sep}.git`) ? dirname(commonDir) : commonDir
  const first = listing.split('\n').find((line) => line.startsWith('worktree '))
  if (!first) return resolve(commonDir, '..')
  const path = first.slice('worktree '.length)
  try {
    return await realpath(path)
  } catch {
    return resolve(path)
  }
}

export interface WorktreeEntry {
  path: string
  head: string | null
  /** Short branch name (`fanout/abc`), or null when detached. */
  branch: string | null
  locked: boolean
  /** git's note that the folder no longer exists. */
  prunable: boolean
  bare: boolean
}

/** Parses `git worktree list --porcelain` (records separated by blank lines). */
export function parseWorktreeList(porcelain: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = []
  for (const block of porcelain.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter(Boolean)
    const pathLine = lines.find((l) => l.startsWith('worktree '))
    if (!pathLine) continue
    const value = (key: string) => lines.find((l) => l === key || l.startsWith(`${key} `))
    const branchRef = value('branch')?.slice('branch '.length) ?? null
    entries.push({
      path: pathLine.slice('worktree '.length),
      head: value('HEAD')?.slice('HEAD '.length) ?? null,
      branch: branchRef ? branchRef.replace(/^refs\/heads\//, '') : null,
      locked: value('locked') !== undefined,
      prunable: value('prunable') !== undefined,
      bare: value('bare') !== undefined
    })
  }
  return entries
}

export async function listWorktrees(dir: string): Promise<WorktreeEntry[]> {
  return parseWorktreeList(await runGit(dir, ['worktree', 'list', '--porcelain']))
}
