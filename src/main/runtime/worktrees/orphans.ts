// Worktrees left behind when Fanout stopped mid-run (a crash, a killed process): found at start so the
// user can be offered a cleanup. Cleanup never loses work: uncommitted changes block it unless forced,
// and forcing commits them to the agent's branch before the folder goes.
import { readdir, realpath, rmdir } from 'node:fs/promises'
import { hostname } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { commitAll, syncBranchToHead, uncommittedChanges } from './agent-branch'
import { removeCrashDebris } from './crash-debris'
import { agentWorktreeEntries } from './agent-worktrees'
import { branchFor } from './branch-name'
import { errorText, isDirectory, runGit, tryGit } from './git'
import { worktreeGitDirs, worktreeGitDirsOrNull } from './git-dirs'
import { commitMessage } from './finish-worktree'
import { readRepo, WorktreeError } from './repo'
import { enqueueForRepo } from './repo-queue'
import { findGitDir } from './probe'
import { readConfigFile } from '../store/read-config'

export interface OrphanWorktree {
  agentId: string
  path: string
  branch: string
  /** A checkout of the same repository, used to run the cleanup. */
  repoRoot: string
  /** The repository's common git folder (the worktree's git folders are checked against it: git-dirs.ts). */
  commonDir: string
  /** The commit the agent started from; null when the worktree's metadata is missing. */
  baseCommit: string | null
  /** The commit checked out in the worktree (null if git cannot tell). */
  head: string | null
  /** The folder still exists (false when it was deleted by hand). */
  exists: boolean
  locked: boolean
  /** Modified, deleted or new files not yet committed. */
  uncommittedChanges: boolean
  /** Commits on the branch after `baseCommit` (after every other branch when the base is unknown). */
  commitsAhead: number
  agentType?: string
  description?: string
}

export interface FindOrphansOptions {
  repoCwd: string
  /** True for agents running now in this process; their worktrees are in use, not orphaned. */
  isLive?: (agentId: string) => boolean
}

/** The process that made the worktree is still running on this machine (it may be another Fanout window or CLI). */
export function ownerAlive(owner: { pid: number; hostname: string } | undefined): boolean {
  if (!owner || owner.hostname !== hostname() || owner.pid === process.pid) return false
  try {
    process.kill(owner.pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Fanout worktrees of the repository around `repoCwd` whose agent is not running. [] outside a git repository. */
export async function findOrphanWorktrees({ repoCwd, isLive }: FindOrphansOptions): Promise<OrphanWorktree[]> {
  if (await noLinkedWorktrees(repoCwd)) return []
  let repo
  try {
    repo = await readRepo(repoCwd)
  } catch (err) {
    if (err instanceof WorktreeError) return []
    throw err
  }
  const orphans: OrphanWorktree[] = []
  for (const { agentId, entry, meta } of await agentWorktreeEntries(repo)) {
    if (isLive?.(agentId)) continue
    const exists = await isDirectory(entry.path)
    if (ownerAlive(meta?.owner)) continue
    const baseCommit = meta?.baseCommit ?? null
    const branch = branchFor(agentId)
    const dirs = exists ? await worktreeGitDirsOrNull(entry.path, repo.commonDir) : null
    orphans.push({
      agentId,
      path: entry.path,
      branch,
      repoRoot: repo.mainRoot === repo.commonDir ? repo.repoRoot : repo.mainRoot,
      commonDir: repo.commonDir,
      baseCommit,
      head: entry.head,
      exists,
      locked: entry.locked,
      uncommittedChanges: dirs ? (await uncommittedChanges(dirs)) !== '' : false,
      // The agent's HEAD: its commits reach its branch when Fanout finishes it, which a crash may have cut off.
      commitsAhead: await commitsAhead(repo.cwd, entry.head ?? `refs/heads/${branch}`, branch, baseCommit),
      ...(meta?.agentType ? { agentType: meta.agentType } : {}),
      ...(meta?.description ? { description: meta.description } : {})
    })
  }
  return orphans
}

/**
 * True when the repository has no linked worktree at all (its common git folder has no `worktrees/` entry), read
 * from the files alone: the check at every run's start then starts no git. Anything unusual asks git.
 */
async function noLinkedWorktrees(cwd: string): Promise<boolean> {
  const found = await findGitDir(cwd).catch(() => null)
  if (!found) return false
  // The repository's own file, read bounded and only if regular (a pipe there must not hang the run).
  const commondir = readConfigFile(join(found.gitDir, 'commondir'), 4096)
  if ('error' in commondir) return false
  const common = 'text' in commondir ? resolve(found.gitDir, commondir.text.trim()) : found.gitDir
  const entries = await readdir(join(common, 'worktrees')).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? [] : null))
  return entries !== null && entries.length === 0
}

async function commitsAhead(dir: string, tip: string, branch: string, baseCommit: string | null): Promise<number> {
  const args = baseCommit ? ['rev-list', '--count', `${baseCommit}..${tip}`] : ['rev-list', '--count', tip, '--not', `--exclude=${branch}`, '--branches']
  return Number((await tryGit(dir, args)) ?? 0) || 0
}

export interface CleanupOptions {
  /** Commit uncommitted changes to the agent's branch, then remove the worktree (and override a lock). */
  force?: boolean
}

export interface CleanupResult {
  /** The worktree folder and its registration are gone. */
  removed: boolean
  /** The branch was deleted (only when it held no work beyond its base). */
  branchDeleted: boolean
  /** The commit made from uncommitted changes when forced. */
  commit?: string
  /** Why nothing (or not everything) was removed. */
  reason?: string
}

export async function cleanupOrphanWorktree(orphan: OrphanWorktree, options: CleanupOptions = {}): Promise<CleanupResult> {
  const key = await realpath(orphan.commonDir)
  return enqueueForRepo(key, () => cleanupLocked(orphan, orphan.repoRoot, options.force === true))
}

async function cleanupLocked(orphan: OrphanWorktree, repoRoot: string, force: boolean): Promise<CleanupResult> {
  let commit: string | undefined
  if (await isDirectory(orphan.path)) {
    let dirs
    try {
      dirs = await worktreeGitDirs(orphan.path, orphan.commonDir)
    } catch (err) {
      return { removed: false, branchDeleted: false, reason: `${errorText(err)}; it was left untouched` }
    }
    // What the kill left that is not the agent's work goes first (crash-debris.ts). Then look again: the
    // user may have edited files since the orphan list was made.
    await removeCrashDebris(dirs)
    if ((await uncommittedChanges(dirs)) !== '') {
      if (!force) {
        return {
          removed: false,
          branchDeleted: false,
          reason: `${orphan.path} has uncommitted changes; cleaning up with force commits them to ${orphan.branch} first`
        }
      }
      const message = commitMessage(orphan.agentType ?? orphan.agentId, `${orphan.description ?? 'work'} (saved from an interrupted run)`)
      try {
        commit = await commitAll(dirs, orphan.branch, message)
      } catch (err) {
        return { removed: false, branchDeleted: false, reason: `the uncommitted changes could not be committed, so nothing was removed: ${errorText(err)}` }
      }
    }
    // Commits the agent made that a crash kept from its branch: on the branch before the worktree goes.
    try {
      await syncBranchToHead(dirs, orphan.branch)
    } catch (err) {
      return {
        removed: false,
        branchDeleted: false,
        reason: `the worktree's commits could not be put on ${orphan.branch}, so nothing was removed: ${errorText(err)}`
      }
    }
    if (orphan.locked) {
      if (!force)
        return {
          removed: false,
          branchDeleted: false,
          reason: `${orphan.path} is locked; clean up with force to unlock and remove it`,
          ...(commit ? { commit } : {})
        }
      await tryGit(repoRoot, ['worktree', 'unlock', orphan.path])
    }
    try {
      // No --force: git re-checks that nothing uncommitted is left before deleting the folder.
      await runGit(repoRoot, ['worktree', 'remove', orphan.path])
    } catch (err) {
      return { removed: false, branchDeleted: false, reason: `git refused to remove the worktree: ${errorText(err)}`, ...(commit ? { commit } : {}) }
    }
    await rmdir(dirname(orphan.path)).catch(() => undefined)
  } else {
    await tryGit(repoRoot, ['worktree', 'remove', orphan.path])
  }
  const branchDeleted = await deleteBranchIfEmpty(repoRoot, orphan)
  return { removed: true, branchDeleted, ...(commit ? { commit } : {}) }
}

/** Deletes the branch only when it is exactly at its known base: it holds no work at all. */
async function deleteBranchIfEmpty(repoRoot: string, orphan: OrphanWorktree): Promise<boolean> {
  if (!orphan.baseCommit) return false
  const tip = await tryGit(repoRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${orphan.branch}`])
  if (tip !== orphan.baseCommit) return false
  return (await tryGit(repoRoot, ['update-ref', '-d', `refs/heads/${orphan.branch}`, orphan.baseCommit])) !== null
}
