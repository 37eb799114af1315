// Options every tool factory takes. Tools are built per agent, on that agent's cwd (its worktree when isolated).
import { PathPolicy } from '../security/path-policy'
import type { BashSandboxOptions } from './bash-sandbox'
import type { FileState } from './file-state'
import type { TodoList } from './todo-list'

export interface ToolOptions {
  cwd: string
  /** Shared by Read/Write/Edit/NotebookEdit of one agent; a fresh one is made when absent. */
  fileState?: FileState
  /** Path of `rg`, `false` to search in-process always, absent to use `rg` from PATH when there is one. */
  ripgrep?: string | false
  /**
   * Glob and Grep search a tree of up to this many directory entries in-process even when rg is there (a spawn
   * costs more than such a walk); 0 leaves every search to rg. Default IN_PROCESS_SEARCH_UP_TO.
   */
  inProcessSearchUpTo?: number
  /**
   * The one path check (symlinks resolved, deny rules, working directories). Absent: one on cwd with no
   * rules, so paths are still resolved the same way.
   */
  paths?: PathPolicy
  /** How Bash sandboxes its commands (absent: the shared sandbox, workspace floor); false: never (tests of Bash itself). */
  sandbox?: BashSandboxOptions | false
}

/** What the registry builds every built-in tool of one agent with. */
export interface BuiltinToolOptions extends ToolOptions {
  /** The agent's TodoWrite list, kept across its runs. */
  todos?: TodoList
}

export function pathPolicyOf(opts: ToolOptions): PathPolicy {
  return opts.paths ?? new PathPolicy({ cwd: opts.cwd })
}
