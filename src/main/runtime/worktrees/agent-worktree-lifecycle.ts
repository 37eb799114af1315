// The one owner of an agent's worktree, from its making to its removal. Every caller comes through here: an
// agent's run (orchestration/runs/agent-run.ts), Try it (agent-editor/try-agent.ts), landing the work
// (review/merge-one.ts, review/discard.ts), and the orphans a crash left (the session and `fanout worktrees`).
//   make    createAgentWorktree: a new worktree, or the agent's own picked up again (one a killed `git worktree
//           add` left half made is made again, half-made.ts), recorded where the caller keeps it (`record`:
//           for an agent's handle, runs/agent-registry.ts setAgentWorktree, the one writer of it)
//   finish  finishAgentWorktree: when the run ends its changes are committed to its branch and the worktree
//           kept; an unchanged one is removed with its branch
//   land    removeMergedWorktree / discardAgentWorktree: once the person merged or discarded its work
//   orphans findOrphanWorktrees / cleanupOrphanWorktree: worktrees of agents no process is running;
//           repairTornWorktrees: one whose `commondir` a kill left empty, which stops git in the whole repository
// The git steps are helpers private to worktrees/ (create-worktree, finish-worktree, half-made, orphans);
// test/layering.test.ts keeps them there and keeps git's `worktree add|remove` and branch deletion in worktrees/.
import { stat } from 'node:fs/promises'
import { createAgentWorktree as makeWorktree, type AgentWorktree, type CreateWorktreeOptions } from './create-worktree'
import { finishAgentWorktree as finishWorktree, removeWorktreeAndBranch, type FinishWorktreeOptions, type FinishedWorktree } from './finish-worktree'
import { errorMessage } from '../../../shared/error-message'
import { errorText, runGit, tryGit } from './git'
import type { RepoInfo } from './repo'

export { findOrphanWorktrees, cleanupOrphanWorktree, ownerAlive } from './orphans'
export { repairTornWorktrees } from './half-made'
export type { OrphanWorktree, FindOrphansOptions, CleanupOptions, CleanupResult } from './orphans'
export { branchFor, worktreePathFor, BRANCH_PREFIX, DEFAULT_WORKTREES_FOLDER } from './create-worktree'
export type { AgentWorktree, CreateWorktreeOptions } from './create-worktree'
export { commitMessage, recordedCommonDir } from './finish-worktree'
export type { FinishWorktreeOptions, FinishedWorktree, WorktreeRef } from './finish-worktree'

/** Where an agent works now (its folder, branch and cwd), or undefined once its worktree is gone. */
export type RecordWorktree = (at: { path: string; branch: string; hookBased?: boolean; cwd: string } | undefined) => void

/**
 * Makes (or, for an agent being resumed, picks up again) the agent's worktree and records it. Throws a
 * WorktreeError with a sentence a person understands when it cannot be made.
 */
export async function createAgentWorktree(options: CreateWorktreeOptions, record?: RecordWorktree): Promise<AgentWorktree> {
  const worktree = await makeWorktree(options)
  record?.({ path: worktree.path, branch: worktree.branch, cwd: worktree.cwd })
  return worktree
}

/** The run ended: its changes become a commit on its branch and the worktree stays; an unchanged one is removed. */
export function finishAgentWorktree(options: FinishWorktreeOptions): Promise<FinishedWorktree> {
  return finishWorktree(options)
}

/** WorktreeCreate and WorktreeRemove, the hooks that make an agent's folder some other way (another VCS, a layout). */
export interface WorktreeHooks {
  /** The folder the hook made, its error, or null when no hook is configured (then git makes the worktree). */
  create(): Promise<{ path: string } | { error: string } | null>
  /** Null when no hook is configured: Fanout cannot tell what another VCS holds, so the folder stays. */
  remove(path: string): Promise<{ removed: true } | { error: string } | null>
}

export interface RunWorktreeRequest extends Pick<CreateWorktreeOptions, 'agentId' | 'baseRef'> {
  agentType: string
  /** Recorded with the worktree, and the subject of the commit of its changes. */
  description: string
  /** Where it is made from: its parent's folder (a nested agent's parent's worktree) ... */
  repoCwd: string
  /** ... or, when that folder is gone (finished with no changes, or merged), the session's: the same repository. */
  fallbackCwd: string
  /** The folder a WorktreeCreate hook made for an earlier run of the agent, taken again as it is. */
  hookFolder?: string
  hooks: WorktreeHooks
  record: RecordWorktree
}

/** How an agent's worktree ended with its run (the run's result and agent_end carry it). */
export interface FinishedRunWorktree {
  path: string
  branch: string
  kept: boolean
  commit?: string
  error?: string
}

/** An isolated agent's folder for one run: a git worktree, or a folder a WorktreeCreate hook made. */
export interface RunWorktree {
  path: string
  /** `fanout/<id>`; empty for a hook's folder. */
  branch: string
  cwd: string
  /** The git worktree; undefined when a hook made the folder. */
  git?: AgentWorktree
  /** When the run ends: commit and keep, or remove (a hook's folder goes through WorktreeRemove, else stays). */
  finish(): Promise<FinishedRunWorktree>
}

/** The isolated agent's folder for its run, made and recorded, or why it could not be. */
export async function openRunWorktree(req: RunWorktreeRequest): Promise<RunWorktree | { error: string }> {
  const made = req.hookFolder ? { path: req.hookFolder } : await req.hooks.create()
  if (made && 'error' in made) return { error: made.error }
  if (made) {
    if (!(await isFolder(made.path))) return { error: `the WorktreeCreate hook printed ${made.path}, which is not a folder.` }
    req.record({ path: made.path, branch: '', hookBased: true, cwd: made.path })
    return { path: made.path, branch: '', cwd: made.path, finish: () => finishHookFolder(made.path, req) }
  }
  const { fallbackCwd: _f, hookFolder: _h, hooks: _k, record, ...options } = req
  let worktree: AgentWorktree
  try {
    worktree = await createAgentWorktree({ ...options, repoCwd: (await isFolder(req.repoCwd)) ? req.repoCwd : req.fallbackCwd }, record)
  } catch (err) {
    return { error: errorMessage(err) }
  }
  const about = { agentType: req.agentType, description: req.description }
  return {
    path: worktree.path,
    branch: worktree.branch,
    cwd: worktree.cwd,
    git: worktree,
    finish: async () => {
      const done = await finishAgentWorktree({ worktree, ...about })
      return {
        path: done.path,
        branch: done.branch,
        kept: done.kept,
        ...(done.commit ? { commit: done.commit } : {}),
        ...(done.error ? { error: done.error } : {})
      }
    }
  }
}

async function finishHookFolder(path: string, req: Pick<RunWorktreeRequest, 'hooks' | 'record'>): Promise<FinishedRunWorktree> {
  const removed = await req.hooks.remove(path)
  const error = !removed
    ? `no WorktreeRemove hook is configured, so the folder ${path} made by the WorktreeCreate hook was kept`
    : 'error' in removed
      ? `${removed.error}; the folder ${path} was kept`
      : undefined
  if (!error) req.record(undefined)
  return { path, branch: '', kept: Boolean(error), ...(error ? { error } : {}) }
}

const isFolder = async (path: string): Promise<boolean> => (await stat(path).catch(() => null))?.isDirectory() ?? false

/** An agent's branch as review sees it: its worktree folder (undefined when deleted by hand), branch and tip. */
export interface LandedWork {
  worktreePath: string | null
  branch: string
  tip: string
}

/**
 * Its work is on the current branch now: the worktree goes (only if git finds it clean) and so does the branch
 * (only if still at `tip`). Returns what was kept and why, or null.
 */
export async function removeMergedWorktree(repo: Pick<RepoInfo, 'cwd' | 'commonDir'>, work: LandedWork): Promise<string | null> {
  if (work.worktreePath) {
    const problem = await removeWorktreeAndBranch(repo.commonDir, { path: work.worktreePath, branch: work.branch, baseCommit: work.tip })
    return problem ?? null
  }
  const deleted = await tryGit(repo.cwd, ['update-ref', '-d', `refs/heads/${work.branch}`, work.tip])
  return deleted === null ? `the branch ${work.branch} was kept: it moved after the merge` : null
}

/**
 * Drops the work the person agreed to lose: the worktree folder, uncommitted files included, then the branch
 * if it is still at `tip` (the tip they saw). A worktree git will not remove keeps everything.
 */
export async function discardAgentWorktree(
  repo: Pick<RepoInfo, 'cwd' | 'commonDir'>,
  work: LandedWork
): Promise<{ removedWorktree: boolean; deletedBranch: boolean } | { error: string }> {
  let removedWorktree = false
  if (work.worktreePath) {
    await tryGit(repo.cwd, ['worktree', 'unlock', work.worktreePath])
    try {
      // --force: the person agreed to lose the uncommitted files too. Run from the repository, not the worktree.
      await runGit(repo.commonDir, ['worktree', 'remove', '--force', work.worktreePath])
      removedWorktree = true
    } catch (err) {
      return { error: `The worktree ${work.worktreePath} could not be removed, so nothing was discarded: ${errorText(err)}` }
    }
  } else {
    // Its folder was deleted by hand: drop the stale registration, if git still has one.
    await tryGit(repo.cwd, ['worktree', 'prune'])
  }
  const deletedBranch = (await tryGit(repo.cwd, ['update-ref', '-d', `refs/heads/${work.branch}`, work.tip])) !== null
  return { removedWorktree, deletedBranch }
}
