// When an isolated agent ends: its changes become a commit on its branch and the worktree stays for the
// user to review; a worktree with no changes is removed along with its branch. Work is never dropped:
// nothing is removed unless git confirms it is clean, and a failed commit leaves everything in place.
import { realpath, rmdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { placeholdersUnder } from '../security/placeholders'
import { commitAll, normalizeHead, syncBranchFromAdminDir, syncBranchToHead, uncommittedChanges } from './agent-branch'
import { removeCrashDebris } from './crash-debris'
import { errorText, isDirectory, runGit, tryGit } from './git'
import { findAdminDir, type WorktreeGitDirs, worktreeGitDirs } from './git-dirs'
import { updateMetadata } from './metadata'
import { WorktreeError } from './repo'
import { enqueueForRepo } from './repo-queue'

export interface WorktreeRef {
  path: string
  branch: string
  baseCommit: string
  /** The parent's checkout: lets a worktree whose folder was deleted still be unregistered. */
  repoRoot?: string
  /** The repository's common git folder, as recorded when the worktree was made (see git-dirs.ts). */
  commonDir?: string
}

export interface FinishWorktreeOptions {
  worktree: WorktreeRef
  agentType: string
  description: string
}

export interface FinishedWorktree {
  /** The agent left changes: uncommitted edits, new or deleted files, or commits of its own. */
  changed: boolean
  /** The worktree folder is still there (always when changed, and when removal was refused). */
  kept: boolean
  /** The branch's tip when it holds the agent's work. */
  commit?: string
  branch: string
  path: string
  /** Why something did not go to plan (e.g. the commit failed); the work is still in the worktree. */
  error?: string
}

export function commitMessage(agentType: string, description: string): string {
  const subject = description.replace(/\s+/g, ' ').trim()
  return `Agent ${agentType}: ${subject || 'changes'}`
}

/** The repository's common git folder as Fanout recorded it, else as the parent's checkout (not the worktree) says. */
export async function recordedCommonDir(ref: Pick<WorktreeRef, 'commonDir' | 'repoRoot' | 'path'>): Promise<string> {
  if (ref.commonDir) return realpath(ref.commonDir)
  if (!ref.repoRoot) throw new WorktreeError(`Fanout has no record of the repository ${ref.path} belongs to; it runs no git command there`)
  return realpath(resolve(ref.repoRoot, await runGit(ref.repoRoot, ['rev-parse', '--git-common-dir'])))
}

/**
 * Removes a clean, unchanged worktree and then its branch, from the repository that owns it (`anyCheckout`
 * is a folder of that repository other than the worktree). The branch is deleted only if it still points at
 * `baseCommit`, so a commit made at the last moment is never lost.
 */
export async function removeWorktreeAndBranch(anyCheckout: string, ref: WorktreeRef): Promise<string | undefined> {
  try {
    // Without --force git itself refuses when the worktree holds modified or untracked files.
    await runGit(anyCheckout, ['worktree', 'remove', ref.path])
  } catch (err) {
    return `the worktree was not removed: ${errorText(err)}`
  }
  const deleted = await tryGit(anyCheckout, ['update-ref', '-d', `refs/heads/${ref.branch}`, ref.baseCommit])
  // Tidy the per-repository folder once its last worktree is gone (fails harmlessly when not empty).
  await rmdir(dirname(ref.path)).catch(() => undefined)
  return deleted === null ? `the branch ${ref.branch} was kept: it no longer points at ${ref.baseCommit}` : undefined
}

export async function finishAgentWorktree(options: FinishWorktreeOptions): Promise<FinishedWorktree> {
  const { worktree } = options
  const base: Pick<FinishedWorktree, 'branch' | 'path'> = { branch: worktree.branch, path: worktree.path }
  if (!(await isDirectory(worktree.path))) return finishMissing(worktree, base)
  const key = await recordedCommonDir(worktree)
  return enqueueForRepo(key, () => finishLocked(options, key, base))
}

async function finishLocked(
  { worktree, agentType, description }: FinishWorktreeOptions,
  commonDir: string,
  base: Pick<FinishedWorktree, 'branch' | 'path'>
): Promise<FinishedWorktree> {
  // Never the worktree's own `.git` file or its admin folder's commondir as they are now: the agent could
  // have rewritten them. A worktree that no longer checks out against the record is left untouched.
  let dirs: WorktreeGitDirs
  try {
    dirs = await worktreeGitDirs(worktree.path, commonDir)
  } catch (err) {
    return { ...base, changed: false, kept: true, error: `${errorText(err)}; it was left untouched` }
  }
  // The run is over: another Fanout process may land this work now (see review/agent-branches.ts).
  await updateMetadata(worktree.path, commonDir, { finishedAt: new Date().toISOString() }).catch(() => undefined)
  let pointedAt: string | null
  let head: string
  try {
    pointedAt = await normalizeHead(dirs, worktree.branch)
    // A Write a kill cut off left its temp file, not the agent's work: never committed (crash-debris.ts).
    await removeCrashDebris(dirs)
    head =
      (await uncommittedChanges(dirs)) !== ''
        ? await commitAll(dirs, worktree.branch, commitMessage(agentType, description))
        : await syncBranchToHead(dirs, worktree.branch)
  } catch (err) {
    return {
      ...base,
      changed: true,
      kept: true,
      error: `the agent's changes could not be committed (${errorText(err)}); they are still in ${worktree.path}`
    }
  }
  if (head !== worktree.baseCommit) {
    const note = pointedAt ? `the agent pointed the worktree's HEAD at ${pointedAt}; its files were committed to ${worktree.branch} only` : undefined
    return { ...base, changed: true, kept: true, commit: head, ...(note ? { error: note } : {}) }
  }
  // A sandboxed command it started in the background still runs there (its placeholders say so): keep it.
  const held = [...placeholdersUnder(worktree.path), ...placeholdersUnder(dirs.gitDir)]
  if (held.length) {
    return {
      ...base,
      changed: false,
      kept: true,
      error: `a sandboxed command is still running in ${worktree.path} (the sandbox's placeholders are there), so the worktree was kept`
    }
  }
  // Run the removal from the main repository: a process cannot remove the folder it is standing in on every OS.
  const error = await removeWorktreeAndBranch(commonDir, worktree)
  const kept = await isDirectory(worktree.path)
  return { ...base, changed: false, kept, ...(error ? { error } : {}) }
}

/** The folder was deleted under the agent: keep the branch if it has commits, otherwise tidy both away. */
async function finishMissing(worktree: WorktreeRef, base: Pick<FinishedWorktree, 'branch' | 'path'>): Promise<FinishedWorktree> {
  const gone = `the worktree folder ${worktree.path} no longer exists`
  if (!worktree.repoRoot || !(await isDirectory(worktree.repoRoot))) return { ...base, changed: false, kept: false, error: gone }
  const repoRoot = worktree.repoRoot
  const key = await recordedCommonDir(worktree)
  return enqueueForRepo(key, async () => {
    // Commits the agent made are named by its admin folder's HEAD alone (it works detached): onto the branch first.
    const adminDir = await findAdminDir(key, worktree.path)
    if (adminDir) await syncBranchFromAdminDir(repoRoot, adminDir, worktree.branch)
    // Unregister the vanished folder (a no-op failure when git already pruned it).
    await tryGit(repoRoot, ['worktree', 'remove', worktree.path])
    const tip = await tryGit(repoRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${worktree.branch}`])
    if (tip && tip !== worktree.baseCommit) {
      return { ...base, changed: true, kept: false, commit: tip, error: `${gone}; its commits are on ${worktree.branch}` }
    }
    if (tip) await tryGit(repoRoot, ['update-ref', '-d', `refs/heads/${worktree.branch}`, worktree.baseCommit])
    return { ...base, changed: false, kept: false, error: gone }
  })
}
