// The one list of built-in tools. Each tool's file exports its metadata and factory (a BuiltinTool); adding a
// tool is that file plus one line here (DESIGN.md, "Adding a tool"). Order matters: it is the order of the
// tools in every request, which the prompt cache keys on.
import { BASH_TOOL } from './bash'
import type { BuiltinTool } from './builtin-tool'
import type { Tool } from './define-tool'
import { EDIT_TOOL } from './edit'
import { FileState } from './file-state'
import { GLOB_TOOL } from './glob'
import { GREP_TOOL } from './grep'
import { NOTEBOOK_EDIT_TOOL } from './notebook-edit'
import { READ_TOOL } from './read'
import { TODO_WRITE_TOOL, TodoList } from './todo-write'
import type { BuiltinToolOptions } from './tool-options'
import { WEB_FETCH_TOOL } from './web-fetch'
import { WRITE_TOOL } from './write'

export const BUILTIN_TOOLS: readonly BuiltinTool[] = [
  BASH_TOOL,
  GLOB_TOOL,
  GREP_TOOL,
  READ_TOOL,
  EDIT_TOOL,
  WRITE_TOOL,
  NOTEBOOK_EDIT_TOOL,
  WEB_FETCH_TOOL,
  TODO_WRITE_TOOL
]

export const BUILTIN_TOOL_NAMES: readonly string[] = BUILTIN_TOOLS.map((t) => t.meta.name)

/** Each built-in tool's metadata by name, as its file declares it (the permission layer reads it without building tools). */
export const BUILTIN_TOOL_META: Readonly<Record<string, BuiltinTool['meta']>> = Object.fromEntries(BUILTIN_TOOLS.map((t) => [t.meta.name, t.meta]))

/**
 * The built-in tools of one agent, on its cwd, in the registry's order; its Read/Write/Edit share one FileState.
 * With `only`, just the tools it names: an agent given three tools does not pay for building nine (each spawn
 * of a fan-out builds its agent's tools while its siblings wait to start).
 */
export function createBuiltinTools(opts: BuiltinToolOptions, only?: ReadonlySet<string>): Tool[] {
  const shared: BuiltinToolOptions = { ...opts, fileState: opts.fileState ?? new FileState(), todos: opts.todos ?? new TodoList() }
  const out: Tool[] = []
  for (const t of BUILTIN_TOOLS) if (!only || only.has(t.meta.name)) out.push(t.create(shared))
  return out
}
