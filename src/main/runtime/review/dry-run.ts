// `git merge-tree --write-tree` dry runs: would two commits merge cleanly, and which files would conflict.
// Nothing in any checkout, index or ref changes; git only writes the merged tree's objects into the object
// store (unreferenced, so `git gc` drops them). Needs git 2.38 or newer.
import type { DryRun } from '../../../shared/review'
import { errorMessage } from '../../../shared/error-message'
import { runGit, runGitResult } from '../worktrees/git'

export const MIN_GIT = [2, 38] as const

let version: Promise<string> | undefined

/** `git version`, asked once per process. */
export function gitVersion(dir: string): Promise<string> {
  return (version ??= runGit(dir, ['version']).then((out) => out.replace(/^git version\s*/, '').trim()))
}

export function supportsWriteTree(v: string): boolean {
  const m = /^(\d+)\.(\d+)/.exec(v)
  if (!m) return false
  const [major, minor] = [Number(m[1]), Number(m[2])]
  return major > MIN_GIT[0] || (major === MIN_GIT[0] && minor >= MIN_GIT[1])
}

export class GitTooOldError extends Error {
  override name = 'GitTooOldError'
}

/** Throws a sentence naming the version when this git cannot do merge-tree dry runs. */
export async function requireWriteTree(dir: string): Promise<void> {
  const v = await gitVersion(dir)
  if (!supportsWriteTree(v)) {
    throw new GitTooOldError(`Previewing and merging agents' work needs git ${MIN_GIT.join('.')} or newer (for git merge-tree --write-tree); this git is ${v}.`)
  }
}

export interface TreeMerge extends DryRun {
  /** The merged tree (with conflict markers in conflicting files when not clean). */
  tree: string
}

/**
 * Merges `theirs` into `ours` in memory. Exit status 1 means conflicts (listed after the tree); anything
 * else non-zero is a real failure and throws.
 */
export async function mergeTrees(dir: string, ours: string, theirs: string): Promise<TreeMerge> {
  const r = await runGitResult(dir, ['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', ours, theirs], { allowExitCodes: [1] }).catch(
    (err) => {
      throw new Error(`git merge-tree failed: ${errorMessage(err)}`)
    }
  )
  const out = r.stdout.toString('utf8')
  const code = r.code
  const [tree, ...rest] = out.split('\0')
  if (!/^[0-9a-f]{40,64}$/.test(tree)) throw new Error(`git merge-tree gave no tree: ${out.slice(0, 200)}`)
  const conflicts = [...new Set(rest.filter(Boolean))]
  return { clean: code === 0, conflicts, tree }
}
