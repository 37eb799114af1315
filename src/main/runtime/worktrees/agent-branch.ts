// An agent's worktree is on a detached HEAD: the agent's `git commit` (inside its sandbox) moves only that
// worktree's own HEAD, in its admin folder, the one part of the repository's git folder the sandbox may
// write besides new objects (security/sandbox/git-dir-policy.ts). No ref is writable there, so no ref can
// move from inside: not the user's branches or tags, not another agent's branch, not even the agent's own.
// Fanout moves `fanout/<agentId>` to the agent's HEAD itself, outside the sandbox, after checking that HEAD
// names a commit, with a compare-and-swap against the tip it read: that is the only ref an agent's work moves.
import { writeFileAtomic } from '../store/atomic-file'
import { join } from 'node:path'
import { pathspecWithoutPlaceholders } from '../security/placeholders'
import { readConfigFile } from '../store/read-config'
import { runGit, tryGit } from './git'
import { type WorktreeGitDirs, worktreeGitDirs } from './git-dirs'
import { commitIdentityConfig } from './identity'
import { isHalfMade } from './half-made'
import { WorktreeError } from './repo'
import { enqueueForRepo } from './repo-queue'

const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/

/** The commit the worktree's HEAD names (through a symbolic HEAD too), or null when it names none. */
export async function headCommit(dirs: WorktreeGitDirs): Promise<string | null> {
  const out = await tryGit(dirs.workTree, ['rev-parse', '--verify', '--quiet', '--end-of-options', 'HEAD^{commit}'], { dirs })
  return out && COMMIT.test(out) ? out : null
}

/** A HEAD file's text, trimmed: a regular file of at most 4 KiB, or null (a pipe an agent planted must not hang us). */
function readHead(path: string): string | null {
  const read = readConfigFile(path, 4096)
  return 'text' in read ? read.text.trim() : null
}

/** The ref a symbolic HEAD names (`refs/heads/main`), or null when HEAD is detached (as Fanout leaves it). */
export async function headSymref(dirs: WorktreeGitDirs): Promise<string | null> {
  try {
    const text = readHead(join(dirs.gitDir, 'HEAD'))
    if (text === null) return null
    return text.startsWith('ref:') ? text.slice(4).trim() : null
  } catch {
    return null
  }
}

/**
 * Points the worktree's HEAD at `commit`, detached: a new file renamed over HEAD (never written through
 * whatever the agent left at that name, a link included), and no reflog (its folder is the agent's).
 */
export async function detachHead(dirs: WorktreeGitDirs, commit: string): Promise<void> {
  if (!COMMIT.test(commit)) throw new Error(`not a commit id: ${commit}`)
  // No fsync, as git writes HEAD; no folder made: a missing admin folder is an error, not something to create.
  await writeFileAtomic(join(dirs.gitDir, 'HEAD'), `${commit}\n`, { fsync: false, createDir: false })
}

/** The branch's tip, or null when it does not exist. */
export async function branchTip(dirs: WorktreeGitDirs, branch: string): Promise<string | null> {
  return tryGit(dirs.workTree, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { dirs })
}

/**
 * A HEAD the agent pointed at a ref (`git symbolic-ref HEAD refs/heads/main`) names someone else's commit,
 * not its work: it is detached again at the agent's branch, so that what the worktree holds is measured
 * and committed against the agent's own tip. Returns the ref HEAD named, or null when it was detached.
 */
export async function normalizeHead(dirs: WorktreeGitDirs, branch: string): Promise<string | null> {
  const pointedAt = await headSymref(dirs)
  if (pointedAt === null) return null
  const tip = await branchTip(dirs, branch)
  if (tip) await detachHead(dirs, tip)
  return pointedAt
}

/**
 * Moves `refs/heads/<branch>` to the worktree's HEAD commit (only that ref, only if it still holds the tip
 * read here). Returns the branch's tip afterwards.
 */
export async function syncBranchToHead(dirs: WorktreeGitDirs, branch: string): Promise<string> {
  await normalizeHead(dirs, branch)
  const head = await headCommit(dirs)
  const tip = await branchTip(dirs, branch)
  if (!head) {
    if (tip) return tip
    throw new Error(`the worktree ${dirs.workTree} has no commit checked out and ${branch} does not exist`)
  }
  if (head === tip) return head
  await runGit(dirs.workTree, ['update-ref', '-m', 'fanout: the agent committed', `refs/heads/${branch}`, head, tip ?? ''], { dirs })
  return head
}

/**
 * `git add -A` (placeholders aside) and a commit of it on top of the worktree's HEAD, made with plumbing
 * (commit-tree: no hooks, no signing program), then HEAD detached at it and the branch moved to it.
 * Returns the new tip, or throws with git's reason.
 */
export async function commitAll(dirs: WorktreeGitDirs, branch: string, message: string): Promise<string> {
  const run = (args: string[], config: string[] = []) => runGit(dirs.workTree, args, { dirs, config })
  // A checkout git never finished (half-made.ts): its missing files would be committed as deletions.
  if (isHalfMade(dirs.gitDir))
    throw new WorktreeError(`${dirs.workTree} was never fully checked out (git worktree add was stopped); nothing is committed from it`)
  await normalizeHead(dirs, branch)
  await run(['add', '-A', ...pathspecWithoutPlaceholders(dirs.workTree)])
  const tree = await run(['write-tree'])
  const head = await headCommit(dirs)
  const identity = await commitIdentityConfig(dirs.workTree, dirs)
  const commit = await run(['commit-tree', '--no-gpg-sign', tree, ...(head ? ['-p', head] : []), '-m', message], identity)
  await detachHead(dirs, commit)
  return syncBranchToHead(dirs, branch)
}

/**
 * `git status` listing every change, including each untracked file; the sandbox's placeholders are not changes.
 * Submodules count by the commit they are at, not by what is uncommitted inside them (which no commit here
 * could hold): looking inside would run git in a repository the agent may have made, with its config.
 */
export async function uncommittedChanges(dirs: WorktreeGitDirs): Promise<string> {
  return runGit(
    dirs.workTree,
    ['status', '--porcelain=v1', '--untracked-files=all', '--ignore-submodules=dirty', ...pathspecWithoutPlaceholders(dirs.workTree)],
    {
      dirs
    }
  )
}

/**
 * For a worktree whose folder is gone: moves the branch to the commit its admin folder's HEAD still names
 * (read as a file, checked to be a commit), so commits the agent made are not lost with the registration.
 */
export async function syncBranchFromAdminDir(repoRoot: string, adminDir: string, branch: string): Promise<void> {
  let text: string
  try {
    const read = readHead(join(adminDir, 'HEAD'))
    if (read === null) return
    text = read
  } catch {
    return
  }
  if (!COMMIT.test(text)) return
  const head = await tryGit(repoRoot, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${text}^{commit}`])
  const tip = await tryGit(repoRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])
  if (!head || head === tip) return
  await tryGit(repoRoot, ['update-ref', '-m', 'fanout: the agent committed', `refs/heads/${branch}`, head, tip ?? ''])
}

/**
 * After each of the agent's commands: its branch follows the commits it made (detached HEAD only; a HEAD it
 * pointed at a ref is left for finishing to set right). Serialized with the repository's other operations.
 * Never throws: the branch is moved again when the agent finishes.
 */
export async function followAgentCommits(worktree: { path: string; branch: string; commonDir: string }): Promise<void> {
  await enqueueForRepo(worktree.commonDir, async () => {
    const dirs = await worktreeGitDirs(worktree.path, worktree.commonDir)
    if ((await headSymref(dirs)) === null) await syncBranchToHead(dirs, worktree.branch)
  }).catch(() => undefined)
}
