// The little the environment block needs to say about git (is this a repository, which branch), read-only.
import { readRepo, WorktreeError } from './repo'

export interface GitProbe {
  isGitRepo: boolean
  /** Checked-out branch; null when detached or not a repository. */
  branch: string | null
  /** Top of the checkout; null when not a repository. */
  repoRoot: string | null
}

export async function probeGit(cwd: string): Promise<GitProbe> {
  try {
    const repo = await readRepo(cwd)
    return { isGitRepo: true, branch: repo.branch, repoRoot: repo.repoRoot }
  } catch (err) {
    if (err instanceof WorktreeError) return { isGitRepo: false, branch: null, repoRoot: null }
    throw err
  }
}
