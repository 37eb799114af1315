// The environment block every agent's system prompt ends with: where it works, on what, and when.
// Built from plain values (no probing here) so the same inputs always give the same text.

export interface WorktreeNote {
  /** The worktree folder. */
  path: string
  /** The branch the agent's changes are committed to (`fanout/<agentId>`). */
  branch: string
  /** The commit the worktree started from. */
  baseCommit?: string
  /** The checkout the worktree was made from. */
  repoRoot?: string
}

export interface EnvironmentInput {
  cwd: string
  isGitRepo: boolean
  /** The checked-out branch; null or absent when detached or unknown. */
  branch?: string | null
  /** `process.platform` style: linux, darwin, win32. */
  platform: string
  osVersion?: string
  /** Today: a Date (formatted in local time) or a ready `YYYY-MM-DD` string. */
  date: Date | string
  model: string
  /** Set when the agent runs in an isolated worktree. */
  worktree?: WorktreeNote
}

function formatDate(date: Date | string): string {
  if (typeof date === 'string') return date
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

export function environmentDetails(input: EnvironmentInput): string {
  const git = !input.isGitRepo ? 'no' : input.branch ? `yes, on branch ${input.branch}` : 'yes, detached HEAD'
  const lines = [
    `Working directory: ${input.cwd}`,
    `Git repository: ${git}`,
    `Platform: ${input.platform}`,
    ...(input.osVersion ? [`OS version: ${input.osVersion}`] : []),
    `Today's date: ${formatDate(input.date)}`,
    `Model: ${input.model}`
  ]
  const wt = input.worktree
  if (wt) {
    const from = [wt.baseCommit ? `commit ${wt.baseCommit.slice(0, 12)}` : null, wt.repoRoot ? `of ${wt.repoRoot}` : null].filter(Boolean).join(' ')
    lines.push(
      '',
      `You are working in an isolated git worktree at ${wt.path}${from ? `, created from ${from}` : ''}. ` +
        "Your changes stay here and do not affect the user's checkout. Uncommitted changes in the original checkout are not present in this copy. " +
        `When you finish, everything you changed is committed to the branch ${wt.branch} for the user to review; you do not need to commit it yourself. ` +
        `The worktree is on a detached HEAD: commits you make move it, and they land on ${wt.branch} too; other branches and tags cannot be changed from here.`
    )
  }
  return lines.join('\n')
}
