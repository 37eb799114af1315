// `isolation: worktree`: the agent gets its own checkout of the parent's current commit, on its own branch,
// in a folder outside the user's checkout. The parent's working tree, index and branch are never touched:
// every command here either reads the parent's repository or writes only the new worktree and its branch.
import { mkdir } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { detachHead, headCommit } from './agent-branch'
import { agentWorktreeEntries } from './agent-worktrees'
import { branchFor } from './branch-name'
import { currentProcess } from '../store/process-identity'
import { errorText, isDirectory, runGit, tryGit } from './git'
import { worktreeGitDirs } from './git-dirs'
import { startPoint, type WorktreeBaseRef } from './base-ref'
import { findHalfMade, removeHalfMade, repairTornWorktrees } from './half-made'
import { updateMetadata, writeMetadata } from './metadata'
import { dropPendingAdd, type PendingAdd, readPendingAdd, writePendingAdd } from './pending-add'
import { readRepo, WorktreeError, type RepoInfo } from './repo'
import { enqueueForRepo } from './repo-queue'

export { BRANCH_PREFIX, branchFor } from './branch-name'
/** Folder, next to the repository's main checkout, that holds agent worktrees when no baseDir is given. */
export const DEFAULT_WORKTREES_FOLDER = '.fanout-worktrees'

export interface CreateWorktreeOptions {
  /** The parent agent's working directory (anywhere inside its checkout). */
  repoCwd: string
  agentId: string
  /**
   * Where worktrees go: `<baseDir>/<repoName>/<agentId>`. Defaults to
   * `<folder containing the main checkout>/.fanout-worktrees/<repoName>/<agentId>`. Must be outside the checkout.
   */
  baseDir?: string
  /** Recorded with the worktree so a crash-orphaned one can still be committed under a meaningful message. */
  agentType?: string
  description?: string
  /**
   * Where a new worktree starts (Claude Code's `worktree.baseRef`): `head`, the parent's current commit (the
   * default), or `fresh`, the remote's default branch (`origin/HEAD`, fetched first; the current commit when
   * there is no remote or it cannot be reached).
   */
  baseRef?: WorktreeBaseRef
}

export interface AgentWorktree {
  agentId: string
  /** The worktree's root folder. */
  path: string
  /** `fanout/<agentId>`. */
  branch: string
  /** The commit the worktree started from (the parent's HEAD at creation). */
  baseCommit: string
  /** The parent's checkout root. */
  repoRoot: string
  /** The repository's common git folder: Fanout's record of where the worktree's git folders are (git-dirs.ts). */
  commonDir: string
  /** The parent's cwd relative to its checkout root; the agent's cwd is the same place inside the worktree. */
  relativeCwd: string
  /** Where the agent's tools run: `path` + `relativeCwd`. */
  cwd: string
  /** True when an existing worktree or branch for this agent was picked up again (resume). */
  reused: boolean
  /** What a new worktree started from (`HEAD`, `origin/main`), and why not what was asked when it fell back. */
  startedFrom?: { ref: string; note?: string }
}

const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

function checkAgentId(agentId: string): void {
  if (!AGENT_ID.test(agentId) || agentId.includes('..') || agentId.endsWith('.lock')) {
    throw new WorktreeError(
      `isolation: worktree: agent id ${JSON.stringify(agentId)} cannot name a branch and a folder (use letters, digits, '.', '_' and '-')`
    )
  }
}

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

export function worktreePathFor(repo: Pick<RepoInfo, 'mainRoot' | 'repoName'>, agentId: string, baseDir?: string): string {
  const base = baseDir ? resolve(baseDir) : join(dirname(repo.mainRoot), DEFAULT_WORKTREES_FOLDER)
  return join(base, repo.repoName, agentId)
}

/**
 * Creates (or, for an agent being resumed, reattaches) the agent's worktree. Throws a WorktreeError with a
 * sentence a person understands when the folder is not in a git repository, the repository has no commits,
 * or the location is unusable.
 */
export async function createAgentWorktree(options: CreateWorktreeOptions): Promise<AgentWorktree> {
  checkAgentId(options.agentId)
  const repo = await readRepo(options.repoCwd)
  return enqueueForRepo(repo.commonDir, () => createLocked(repo, options))
}

async function createLocked(repo: RepoInfo, options: CreateWorktreeOptions): Promise<AgentWorktree> {
  const { agentId } = options
  const branch = branchFor(agentId)
  const result = (path: string, baseCommit: string, reused: boolean): Promise<AgentWorktree> =>
    finishSetup(repo, { agentId, path, branch, baseCommit, repoRoot: repo.repoRoot, commonDir: repo.commonDir, relativeCwd: repo.relativeCwd, cwd: '', reused })

  // What an earlier `git worktree add` for this agent that a kill stopped part way left (half-made.ts): never
  // taken as it is; removed once its maker is gone and it is proved to hold no work, then made again below.
  // Another agent's goes too when it stops git for everyone (repairTornWorktrees: a `commondir` a kill left empty
  // fails every `git worktree add` here, so one killed add would keep every other agent from being isolated until
  // its own agent ran again); the rest wait for their own agent or the orphan cleanup.
  const pending = readPendingAdd(repo.commonDir, agentId)
  const halfMade = await findHalfMade(repo.cwd, repo.commonDir)
  for (const half of halfMade) if (half.agentId === agentId) await removeHalfMade(repo.cwd, repo.commonDir, half)
  await repairTornWorktrees(
    repo,
    halfMade.filter((h) => h.agentId !== agentId)
  )

  const existing = (await agentWorktreeEntries(repo)).find((w) => w.agentId === agentId)
  if (existing && (await isDirectory(existing.entry.path))) {
    const { path } = existing.entry
    const baseCommit = existing.meta?.baseCommit ?? pending?.baseCommit ?? (await baseOf(repo, branch))
    // Running again: this process owns it now, and it is no longer finished. One git made just before a kill
    // has no metadata yet: without it, once detached, nothing would say whose it is.
    if (existing.meta) await updateMetadata(path, repo.commonDir, { owner: ownerNow(), finishedAt: undefined })
    else await writeMetadata(path, repo.commonDir, metadataFor(options, repo, baseCommit))
    await dropPendingAdd(repo.commonDir, agentId)
    return result(path, baseCommit, true)
  }
  if (existing) {
    // Registered but its folder is gone: drop only that stale registration (the branch and its commits stay).
    await runGit(repo.cwd, ['worktree', 'remove', '--force', existing.entry.path])
  }

  const path = worktreePathFor(repo, agentId, options.baseDir)
  for (const checkout of new Set([repo.repoRoot, repo.mainRoot])) {
    if (isInside(checkout, path)) {
      throw new WorktreeError(`isolation: worktree folder ${path} would be inside the checkout ${checkout}; choose a base folder outside it`)
    }
  }
  try {
    await mkdir(dirname(path), { recursive: true })
  } catch (err) {
    throw new WorktreeError(`isolation: worktree cannot create the folder ${dirname(path)}: ${errorText(err)}`)
  }

  const tip = await tryGit(repo.cwd, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`])
  if (tip) {
    // The agent ran before and its branch was kept (or a killed add made it): continue on it rather than start over.
    const baseCommit = pending?.baseCommit ?? (await baseOf(repo, branch))
    await addRecorded(repo, { ...metadataFor(options, repo, baseCommit), path, checkout: tip }, ['worktree', 'add', path, branch])
    return result(path, baseCommit, true)
  }

  if (!repo.head) {
    throw new WorktreeError(`isolation: worktree needs at least one commit; the repository at ${repo.repoRoot} has none yet (make an initial commit first)`)
  }
  const start = await startPoint(repo, options.baseRef ?? 'head')
  const meta = { ...metadataFor(options, repo, start.commit), path, checkout: start.commit }
  try {
    await addRecorded(repo, meta, ['worktree', 'add', '--no-track', '-b', branch, path, start.commit])
  } catch (err) {
    // git may leave the new branch behind when the checkout fails; delete it only if it still points at our start.
    await tryGit(repo.cwd, ['update-ref', '-d', `refs/heads/${branch}`, start.commit])
    throw err
  }
  return { ...(await result(path, start.commit, false)), startedFrom: { ref: start.ref, ...(start.note ? { note: start.note } : {}) } }
}

/**
 * `git worktree add`, with Fanout's record of it written first and its metadata after (pending-add.ts): a kill
 * at any point leaves one of the two naming the agent and the process that was making its worktree.
 */
async function addRecorded(repo: RepoInfo, record: PendingAdd, args: string[]): Promise<void> {
  await writePendingAdd(repo.commonDir, record)
  try {
    await addWorktree(repo, args, record.path)
  } catch (err) {
    // git removes what it made when it fails (not when killed); the record goes with it.
    await dropPendingAdd(repo.commonDir, record.agentId)
    throw err
  }
  const { path: _p, checkout: _c, ...meta } = record
  await writeMetadata(record.path, repo.commonDir, meta)
  await dropPendingAdd(repo.commonDir, record.agentId)
}

function ownerNow() {
  const me = currentProcess()
  return { pid: me.pid, hostname: me.hostname, processStart: me.processStart }
}

async function addWorktree(repo: RepoInfo, args: string[], path: string): Promise<void> {
  try {
    // In English whatever the user's language: a half-made worktree is told by git's "initializing" lock reason.
    await runGit(repo.cwd, args, { env: { LC_ALL: 'C' } })
  } catch (err) {
    throw new WorktreeError(`isolation: worktree could not be created at ${path}: ${errorText(err)}`)
  }
}

/** Where a reattached branch started: its fork point from the parent's current commit. */
async function baseOf(repo: RepoInfo, branch: string): Promise<string> {
  if (repo.head) {
    const base = await tryGit(repo.cwd, ['merge-base', repo.head, `refs/heads/${branch}`])
    if (base) return base
  }
  return runGit(repo.cwd, ['rev-parse', `refs/heads/${branch}`])
}

function metadataFor(options: CreateWorktreeOptions, repo: RepoInfo, baseCommit: string) {
  return {
    version: 1 as const,
    agentId: options.agentId,
    baseCommit,
    repoRoot: repo.repoRoot,
    relativeCwd: repo.relativeCwd,
    createdAt: new Date().toISOString(),
    agentType: options.agentType,
    description: options.description,
    // Which process is using the worktree: another Fanout process's running agent is not an orphan.
    owner: ownerNow()
  }
}

async function finishSetup(repo: RepoInfo, worktree: AgentWorktree): Promise<AgentWorktree> {
  // The agent works on a detached HEAD: inside its sandbox no ref is writable, and Fanout moves its branch
  // to its commits (agent-branch.ts). A worktree of an older build, still on its branch, is detached here too.
  const dirs = await worktreeGitDirs(worktree.path, repo.commonDir)
  const head = await headCommit(dirs)
  if (head) await detachHead(dirs, head)
  const cwd = join(worktree.path, worktree.relativeCwd)
  // The parent's cwd may be a folder git does not track (empty or ignored); recreate it so the agent can start there.
  await mkdir(cwd, { recursive: true })
  return { ...worktree, cwd }
}
