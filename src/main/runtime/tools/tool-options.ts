// Options every tool factory takes. Tools are built per agent, on that agent's cwd (its worktree when isolated).
import type { FileState } from './file-state'

export interface ToolOptions {
  cwd: string
  /** Shared by Read/Write/Edit/NotebookEdit of one agent; a fresh one is made when absent. */
  fileState?: FileState
  /** Path of `rg`, `false` to force the JS fallback, absent to use `rg` from PATH when there is one. */
  ripgrep?: string | false
}
