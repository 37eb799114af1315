// The built-in tool set, built for one agent on its cwd. Names and input schemas follow Claude Code's, because
// real agent files list them (`tools: Read, Grep, Glob, Bash`).
import type { Tool } from './define-tool'
import { createBashTool } from './bash'
import { createEditTool } from './edit'
import { FileState } from './file-state'
import { createGlobTool } from './glob'
import { createGrepTool } from './grep'
import { createNotebookEditTool } from './notebook-edit'
import { createReadTool } from './read'
import { createTodoWriteTool, TodoList } from './todo-write'
import type { ToolOptions } from './tool-options'
import { createWebFetchTool } from './web-fetch'
import { createWriteTool } from './write'

export { BUILTIN_TOOL_META, BUILTIN_TOOL_NAMES, FILE_EDIT_TOOL_NAMES, FILE_READ_TOOL_NAMES, type BuiltinToolName, type ToolMeta } from './tool-names'

export interface BuiltinToolOptions extends ToolOptions {
  todos?: TodoList
}

export function createBuiltinTools(opts: BuiltinToolOptions): Tool[] {
  const shared: BuiltinToolOptions = { ...opts, fileState: opts.fileState ?? new FileState(), todos: opts.todos ?? new TodoList() }
  return [
    createBashTool(shared),
    createGlobTool(shared),
    createGrepTool(shared),
    createReadTool(shared),
    createEditTool(shared),
    createWriteTool(shared),
    createNotebookEditTool(shared),
    createWebFetchTool(shared),
    createTodoWriteTool(shared)
  ]
}

export { defineTool, type Tool, type ToolContext, type ToolResult } from './define-tool'
export { FileState } from './file-state'
export { TodoList, type Todo } from './todo-write'
export type { ToolOptions } from './tool-options'
export { createBashTool, createEditTool, createGlobTool, createGrepTool, createNotebookEditTool, createReadTool, createTodoWriteTool, createWebFetchTool, createWriteTool }
