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
import { breaksGit, findHalfMade, removeHalfMade } from './half-made'
import { dropPendingAdd, pendingAdds } from './pending-add'
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
  /** A `git worktree add` killed part way left it (half-made.ts): its cleanup removes it once proved to hold no work. */
  halfMade?: true
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
  const repoRoot = repo.mainRoot === repo.commonDir ? repo.repoRoot : repo.mainRoot
  const halfMade = await findHalfMade(repo.cwd, repo.commonDir)
  const records = new Map((await pendingAdds(repo.commonDir)).map((p) => [p.agentId, p]))
  // A half-made registration whose `commondir` a kill left empty stops git from listing any worktree: it is
  // listed below (half made), and the whole worktrees once it is cleaned up.
  const entries = await agentWorktreeEntries(repo).catch((err: unknown) => {
    if (halfMade.some(breaksGit)) return []
    throw err
  })
  for (const { agentId, entry, meta } of entries) {
    if (isLive?.(agentId) || halfMade.some((h) => h.path === entry.path)) continue
    const exists = await isDirectory(entry.path)
    // Fanout's record of the add names its maker until the metadata does (a kill may have come between the two).
    const record = records.get(agentId)
    if (ownerAlive(meta?.owner ?? record?.owner)) continue
    const baseCommit = meta?.baseCommit ?? record?.baseCommit ?? null
    const branch = branchFor(agentId)
    const dirs = exists ? await worktreeGitDirsOrNull(entry.path, repo.commonDir) : null
    const about = meta ?? record
    orphans.push({
      agentId,
      path: entry.path,
      branch,
      repoRoot,
      commonDir: repo.commonDir,
      baseCommit,
      head: entry.head,
      exists,
      locked: entry.locked,
      uncommittedChanges: dirs ? (await uncommittedChanges(dirs)) !== '' : false,
      // The agent's HEAD: its commits reach its branch when Fanout finishes it, which a crash may have cut off.
      commitsAhead: await commitsAhead(repo.cwd, entry.head ?? `refs/heads/${branch}`, branch, baseCommit),
      ...(about?.agentType ? { agentType: about.agentType } : {}),
      ...(about?.description ? { description: about.description } : {})
    })
  }
  for (const agentId of new Set(halfMade.map((h) => h.agentId))) {
    const mine = halfMade.filter((h) => h.agentId === agentId)
    if (isLive?.(agentId) || mine.some((h) => ownerAlive(h.meta?.owner ?? h.record?.owner))) continue
    const about = mine.find((h) => h.record)?.record ?? mine.find((h) => h.meta)?.meta ?? null
    const path = mine.find((h) => h.path)?.path ?? mine[0].adminDir ?? ''
    const branch = branchFor(agentId)
    const baseCommit = about?.baseCommit ?? null
    orphans.push({
      agentId,
      path,
      branch,
      repoRoot,
      commonDir: repo.commonDir,
      baseCommit,
      head: null,
      exists: await isDirectory(path),
      locked: true,
      uncommittedChanges: false,
      commitsAhead: await commitsAhead(repo.cwd, `refs/heads/${branch}`, branch, baseCommit),
      ...(about?.agentType ? { agentType: about.agentType } : {}),
      ...(about?.description ? { description: about.description } : {}),
      halfMade: true
    })
  }
  return orphans
}

/**
 * True when the repository has no linked worktree at all (its common git folder has no `worktrees/` entry) and
 * no add of Fanout's was cut off (pending-add.ts), read from the files alone: the check at every run's start then
 * starts no git. Anything unusual asks git.
 */
async function noLinkedWorktrees(cwd: string): Promise<boolean> {
  const found = await findGitDir(cwd).catch(() => null)
  if (!found) return false
  // The repository's own file, read bounded and only if regular (a pipe there must not hang the run).
  const commondir = readConfigFile(join(found.gitDir, 'commondir'), 4096)
  if ('error' in commondir) return false
  const common = 'text' in commondir ? resolve(found.gitDir, commondir.text.trim()) : found.gitDir
  const empty = async (dir: string) => {
    const entries = await readdir(dir).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? [] : null))
    return entries !== null && entries.length === 0
  }
  return (await empty(join(common, 'worktrees'))) && (await empty(join(common, 'fanout', 'worktree-adds')))
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
  if (orphan.halfMade) return cleanupHalfMade(orphan, repoRoot)
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
  await dropPendingAdd(orphan.commonDir, orphan.agentId)
  const branchDeleted = await deleteBranchIfEmpty(repoRoot, orphan)
  return { removed: true, branchDeleted, ...(commit ? { commit } : {}) }
}

/**
 * Looked for again here, in the repository's queue (this process may have been making it when it was listed):
 * every half-made registration of the agent goes, each once proved to hold no work, then Fanout's record.
 */
async function cleanupHalfMade(orphan: OrphanWorktree, repoRoot: string): Promise<CleanupResult> {
  const found = await findHalfMade(repoRoot, orphan.commonDir, orphan.agentId)
  if (!found.length) return { removed: false, branchDeleted: false, reason: `${orphan.path} is no longer half made; list the worktrees again` }
  try {
    for (const half of found) await removeHalfMade(repoRoot, orphan.commonDir, half)
  } catch (err) {
    return { removed: false, branchDeleted: false, reason: errorText(err) }
  }
  await rmdir(dirname(orphan.path)).catch(() => undefined)
  await dropPendingAdd(orphan.commonDir, orphan.agentId)
  // The branch git made for it, still at its start, holds nothing (a kept branch's work is never at its base),
  // unless a whole worktree of the agent's is on it.
  const inUse = (await agentWorktreeEntries({ cwd: repoRoot, commonDir: orphan.commonDir })).some((w) => w.agentId === orphan.agentId)
  const branchDeleted = !inUse && (await deleteBranchIfEmpty(repoRoot, orphan))
  return { removed: true, branchDeleted }
}

/** Deletes the branch only when it is exactly at its known base: it holds no work at all. */
async function deleteBranchIfEmpty(repoRoot: string, orphan: OrphanWorktree): Promise<boolean> {
  if (!orphan.baseCommit) return false
  const tip = await tryGit(repoRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${orphan.branch}`])
  if (tip !== orphan.baseCommit) return false
  return (await tryGit(repoRoot, ['update-ref', '-d', `refs/heads/${orphan.branch}`, orphan.baseCommit])) !== null
}
