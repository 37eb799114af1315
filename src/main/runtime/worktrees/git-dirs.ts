// Which git folders belong to an agent's worktree, found from Fanout's side only. A sandboxed agent writes
// its worktree, so the worktree's `.git` file is its to rewrite (and with the file tools, which are not the
// sandbox, maybe also to replace): git run there would follow it to a folder of the agent's choosing, whose
// config can name programs. So Fanout never asks git "where is this worktree's repository?" in the worktree:
// it starts from the repository's common git folder (known from the user's own checkout), finds the admin
// folder `<common>/worktrees/<name>` whose `gitdir` file names this worktree (the agent cannot write either:
// see security/sandbox/git-dir-policy.ts), checks that folder's `commondir` leads back, and hands all three
// to git explicitly (GitOptions.dirs). Anything else is refused with a sentence saying what was found.
import { readdir, realpath } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { readConfigFile } from '../store/read-config'
import { WorktreeError } from './repo'

export interface WorktreeGitDirs {
  /** The worktree's admin folder (`<commonDir>/worktrees/<name>`): its HEAD, index, per-worktree refs. */
  gitDir: string
  /** The repository's shared git folder: objects, refs, config. */
  commonDir: string
  /** The worktree's root folder. */
  workTree: string
}

const SMALL = 64 * 1024

async function readSmall(path: string): Promise<string | null> {
  try {
    const read = readConfigFile(path, SMALL)
    return 'text' in read ? read.text.trim() : null
  } catch {
    return null
  }
}

const realOr = (path: string) => realpath(path).catch(() => resolve(path))

/** The admin folder under `commonDir` whose `gitdir` names `worktreePath` (resolved), or null. */
export async function findAdminDir(commonDir: string, worktreePath: string): Promise<string | null> {
  const root = join(commonDir, 'worktrees')
  let names: string[]
  try {
    names = await readdir(root)
  } catch {
    return null
  }
  const want = await realOr(worktreePath)
  for (const name of names) {
    const gitdir = await readSmall(join(root, name, 'gitdir'))
    if (!gitdir) continue
    const named = dirname(resolve(root, name, gitdir))
    if (named === resolve(worktreePath) || (await realOr(named)) === want) return join(root, name)
  }
  return null
}

/**
 * The worktree's git folders, checked against the repository's common folder; a WorktreeError when the
 * worktree is not one of that repository's, or its admin folder's `commondir` leads elsewhere.
 */
export async function worktreeGitDirs(worktreePath: string, commonDir: string): Promise<WorktreeGitDirs> {
  const common = await realOr(commonDir)
  const gitDir = await findAdminDir(common, worktreePath)
  if (!gitDir) {
    throw new WorktreeError(`${worktreePath} is not a worktree of the repository at ${common}; Fanout runs no git command there`)
  }
  const commondir = await readSmall(join(gitDir, 'commondir'))
  if (!commondir || (await realOr(resolve(gitDir, commondir))) !== common) {
    throw new WorktreeError(
      `the git folder of ${worktreePath} (${gitDir}) no longer leads to the repository at ${common} (its commondir was changed); Fanout runs no git command there`
    )
  }
  return { gitDir, commonDir: common, workTree: resolve(worktreePath) }
}

/** The same, or null instead of the refusal (for listings that show what they can). */
export async function worktreeGitDirsOrNull(worktreePath: string, commonDir: string): Promise<WorktreeGitDirs | null> {
  try {
    return await worktreeGitDirs(worktreePath, commonDir)
  } catch {
    return null
  }
}
