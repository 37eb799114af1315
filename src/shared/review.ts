// Reviewing and landing agents' work: what an isolated agent changed on its branch (`fanout/<agentId>`),
// the dry-run conflict preview, and what a merge or a discard did. Types only, shared by the runtime
// (src/main/runtime/review), the contract, the CLI and the renderer's Changes view.

export type FileChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type-changed'

export interface ChangedFile {
  /** Path relative to the repository root (the new path of a rename). */
  path: string
  /** The path before a rename or copy. */
  oldPath?: string
  status: FileChangeStatus
  /** Lines added and removed; 0 for a binary file. */
  additions: number
  deletions: number
  binary: boolean
}

export interface AgentCommit {
  sha: string
  subject: string
  author: string
  /** Milliseconds since the epoch. */
  date: number
}

/**
 * - `running`: the agent is still at work (in this process or another Fanout); nothing can be landed yet.
 * - `ready`: its branch holds work that is not on the current branch.
 * - `merged`: everything on its branch is already on the current branch (merged by hand, say): only cleanup is left.
 * - `empty`: its branch holds nothing beyond where it started.
 */
export type AgentWorkState = 'running' | 'ready' | 'merged' | 'empty'

export interface AgentChanges {
  agentId: string
  /** `fanout/<agentId>`. */
  branch: string
  /** The branch's tip commit. */
  tip: string
  /** Where the agent started (recorded with its worktree, else the fork point from the current branch). */
  baseCommit: string
  /** The worktree folder, or null when it no longer exists (the branch was kept). */
  worktreePath: string | null
  agentType?: string
  description?: string
  state: AgentWorkState
  /** Commits on the branch that the current branch does not have, newest first. */
  commits: AgentCommit[]
  /** What merging would bring: the branch against its fork point from the current branch. */
  files: ChangedFile[]
  additions: number
  deletions: number
  /** Changes in its worktree not yet committed to the branch (an agent at work, or one a crash cut off). */
  uncommitted: ChangedFile[]
}

export interface CheckoutState {
  /** Top of the checkout changes are merged into. */
  root: string
  /** The branch checked out there; null when HEAD is detached. */
  branch: string | null
  head: string | null
  /** Tracked files with uncommitted changes (staged or not), at most 50. */
  dirtyFiles: string[]
  /** A merge, rebase, cherry-pick, revert or bisect in progress there. */
  operation: string | null
}

export interface ReviewList {
  checkout: CheckoutState
  agents: AgentChanges[]
  /** Agents asked about whose branch is gone, with what became of it when Fanout landed or dropped it. */
  gone: Array<{ agentId: string; branch: string; outcome: LandedRecord | null }>
}

export interface LandedRecord {
  agentId: string
  branch: string
  action: 'merged' | 'squashed' | 'discarded'
  /** The commit on the current branch (merged, squashed) or the tip that was dropped (discarded). */
  commit: string
  /** The branch it landed on. */
  into?: string
  at: number
}

export interface FileDiff {
  path: string
  oldPath?: string
  /** Text before (null: the file did not exist) and after (null: deleted). */
  oldText: string | null
  newText: string | null
  binary: boolean
  /** Larger than the viewer shows (the sizes are given); the CLI's `worktrees diff` shows it whole. */
  tooLarge: boolean
  oldSize: number
  newSize: number
}

/** The outcome of a `git merge-tree --write-tree` dry run. */
export interface DryRun {
  clean: boolean
  /** Files that would conflict. */
  conflicts: string[]
}

export interface PreviewPair {
  a: string
  b: string
  /** Files both agents changed. */
  overlap: string[]
  /** Their branches merged with each other. */
  result: DryRun
}

export interface MergePreview {
  checkout: CheckoutState
  /** Agents in the preview (ready ones), in the order they started. */
  agents: Array<{ agentId: string; branch: string; agentType?: string; description?: string; files: string[]; againstHead: DryRun; uncommitted: number }>
  pairs: PreviewPair[]
  /** The order "merge all" takes: every agent that merges cleanly, one after another. */
  order: string[]
  /** The first agent that cannot merge after those in `order`, and why. */
  blocked: MergeStop | null
}

export type MergeStrategy = 'merge' | 'squash'

export interface MergeStop {
  agentId: string
  branch: string
  reason: 'conflict' | 'dirty' | 'running' | 'operation' | 'detached' | 'untracked' | 'failed'
  /** The sentence to show. */
  message: string
  /** Conflicting files, or the checkout's dirty files. */
  files: string[]
  /** Agents already merged (or about to be) whose changes it collides with; empty when it collides with the current branch itself. */
  with: string[]
}

export interface MergedAgent {
  agentId: string
  branch: string
  /** The new commit on the current branch. */
  commit: string
  strategy: MergeStrategy
  files: number
  /** Cleanup after the merge: the worktree and branch were removed, or why one was kept. */
  cleanup: string | null
}

export interface MergeOutcome {
  merged: MergedAgent[]
  /** Where it stopped; the branches of this agent and of every agent after it are kept. */
  stopped: MergeStop | null
  /** Agents asked for that were not merged (the stopped one included). */
  notMerged: string[]
  /** The branch they were merged into. */
  into: string | null
  /** Agents "all" left out, one sentence each (still working). */
  skipped: string[]
}

export interface DiscardOutcome {
  agentId: string
  branch: string
  removedWorktree: boolean
  deletedBranch: boolean
  /** What was dropped: commits and files (for the record and the message). */
  lostCommits: number
  lostFiles: number
}
