// The checkout agents' work is merged into: its branch, and whether it is in a state a merge may touch
// (no uncommitted changes to tracked files, no merge or rebase of the person's own in progress).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { CheckoutState } from '../../../shared/review'
import { readRepo, type RepoInfo } from '../worktrees'
import { runGit, runGitRaw } from '../worktrees/git'

const MAX_DIRTY = 50

/** Files git keeps in the git dir while an operation is under way, and the operation's name. */
const OPERATIONS: Array<[string, string]> = [
  ['MERGE_HEAD', 'merge'],
  ['rebase-merge', 'rebase'],
  ['rebase-apply', 'rebase'],
  ['CHERRY_PICK_HEAD', 'cherry-pick'],
  ['REVERT_HEAD', 'revert'],
  ['BISECT_LOG', 'bisect']
]

/** Paths of a `git status --porcelain=v1 -z` listing (a rename's second entry, its old path, is skipped). */
export function statusPaths(z: string): Array<{ code: string; path: string }> {
  const parts = z.split('\0')
  const out: Array<{ code: string; path: string }> = []
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i]
    if (entry.length < 4) continue
    const code = entry.slice(0, 2)
    out.push({ code, path: entry.slice(3) })
    if (code[0] === 'R' || code[0] === 'C') i++
  }
  return out
}

export async function checkoutState(repo: RepoInfo): Promise<CheckoutState> {
  const root = repo.repoRoot
  const status = await runGitRaw(root, ['status', '--porcelain=v1', '-z', '--untracked-files=no', '--ignore-submodules=dirty'])
  const dirtyFiles = statusPaths(status)
    .map((e) => e.path)
    .slice(0, MAX_DIRTY)
  const gitDir = await runGit(root, ['rev-parse', '--absolute-git-dir'])
  const operation = OPERATIONS.find(([file]) => existsSync(join(gitDir, file)))?.[1] ?? null
  return { root, branch: repo.branch, head: repo.head, dirtyFiles, operation }
}

/** The repository around `cwd` and the state of its checkout, read fresh. */
export async function readCheckout(cwd: string): Promise<{ repo: RepoInfo; checkout: CheckoutState }> {
  const repo = await readRepo(cwd)
  return { repo, checkout: await checkoutState(repo) }
}

/** Why a merge may not touch this checkout now, or null. */
export function checkoutRefusal(c: CheckoutState): { reason: 'dirty' | 'operation' | 'detached'; message: string; files: string[] } | null {
  if (c.operation) {
    return {
      reason: 'operation',
      message: `A ${c.operation} is in progress in ${c.root}; finish or abort it first (git ${c.operation === 'bisect' ? 'bisect reset' : `${c.operation} --abort`}).`,
      files: []
    }
  }
  if (!c.branch) return { reason: 'detached', message: `HEAD is detached in ${c.root}; check out the branch to merge into first.`, files: [] }
  if (c.dirtyFiles.length) {
    const list = c.dirtyFiles.slice(0, 5).join(', ') + (c.dirtyFiles.length > 5 ? ` and ${c.dirtyFiles.length - 5} more` : '')
    return {
      reason: 'dirty',
      message: `${c.root} has uncommitted changes (${list}); commit or stash them first, so a merge never mixes with your own edits.`,
      files: c.dirtyFiles
    }
  }
  return null
}
