// When an isolated agent ends: its changes become a commit on its branch and the worktree stays for the
// user to review; a worktree with no changes is removed along with its branch. Work is never dropped:
// nothing is removed unless git confirms it is clean, and a failed commit leaves everything in place.
import { realpath, rmdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { pathspecWithoutPlaceholders, placeholdersUnder } from '../security/placeholders'
import { errorText, isCheckoutRoot, isDirectory, runGit, tryGit } from './git'
import { commitIdentityConfig } from './identity'
import { updateMetadata } from './metadata'
import { enqueueForRepo } from './repo-queue'

export interface WorktreeRef {
  path: string
  branch: string
  baseCommit: string
  /** The parent's checkout: lets a worktree whose folder was deleted still be unregistered. */
  repoRoot?: string
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

/**
 * `git status` output listing every change, including each untracked file (not just its folder). The Bash
 * sandbox's placeholders (empty files that exist only while a sandboxed command runs) are not changes.
 */
export async function uncommittedChanges(worktreePath: string): Promise<string> {
  return runGit(worktreePath, ['status', '--porcelain=v1', '--untracked-files=all', '--ignore-submodules=none', ...pathspecWithoutPlaceholders(worktreePath)])
}

/** `git add -A` (placeholders aside) and commit in the worktree; returns the new commit or throws with git's reason. */
export async function commitAll(worktreePath: string, message: string): Promise<string> {
  await runGit(worktreePath, ['add', '-A', ...pathspecWithoutPlaceholders(worktreePath)])
  const identity = await commitIdentityConfig(worktreePath)
  // --no-verify: this commit is a checkpoint of the agent's work; a hook rejecting work in progress would
  // leave it uncommitted. The user's hooks run when they commit or merge the result themselves.
  await runGit(worktreePath, ['commit', '--no-verify', '--quiet', '-m', message], { config: identity })
  return runGit(worktreePath, ['rev-parse', 'HEAD'])
}

async function commonDirOf(worktreePath: string): Promise<string> {
  return realpath(resolve(worktreePath, await runGit(worktreePath, ['rev-parse', '--git-common-dir'])))
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
  const key = await commonDirOf(worktree.path)
  return enqueueForRepo(key, () => finishLocked(options, key, base))
}

async function finishLocked(
  { worktree, agentType, description }: FinishWorktreeOptions,
  commonDir: string,
  base: Pick<FinishedWorktree, 'branch' | 'path'>
): Promise<FinishedWorktree> {
  if (!(await isCheckoutRoot(worktree.path))) {
    return { ...base, changed: false, kept: true, error: `${worktree.path} is no longer a git worktree; it was left untouched` }
  }
  // The run is over: another Fanout process may land this work now (see review/agent-branches.ts).
  await updateMetadata(worktree.path, { finishedAt: new Date().toISOString() }).catch(() => undefined)
  const dirty = (await uncommittedChanges(worktree.path)) !== ''
  if (dirty) {
    try {
      await commitAll(worktree.path, commitMessage(agentType, description))
    } catch (err) {
      return {
        ...base,
        changed: true,
        kept: true,
        error: `the agent's changes could not be committed (${errorText(err)}); they are still in ${worktree.path}`
      }
    }
  }
  const head = await runGit(worktree.path, ['rev-parse', 'HEAD'])
  const onBranch = await tryGit(worktree.path, ['symbolic-ref', '--quiet', '--short', 'HEAD'])
  if (head !== worktree.baseCommit || onBranch !== worktree.branch) {
    const note = onBranch === worktree.branch ? undefined : `the agent switched the worktree to ${onBranch ?? 'a detached HEAD'}`
    return { ...base, changed: true, kept: true, commit: head, ...(note ? { error: note } : {}) }
  }
  // A sandboxed command it started in the background still runs there (its placeholders say so): keep it.
  const held = placeholdersUnder(worktree.path)
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
  const key = await commonDirOf(repoRoot)
  return enqueueForRepo(key, async () => {
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
