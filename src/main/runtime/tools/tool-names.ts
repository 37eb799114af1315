// Names and metadata of the built-in tools, importable without building any tool (the definitions resolver
// and the permission layer use these).

export const BUILTIN_TOOL_NAMES = ['Bash', 'Glob', 'Grep', 'Read', 'Edit', 'Write', 'NotebookEdit', 'WebFetch', 'TodoWrite'] as const
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number]

export interface ToolMeta {
  readOnly: boolean
  concurrencySafe: boolean
}

export const BUILTIN_TOOL_META: Record<BuiltinToolName, ToolMeta> = {
  Bash: { readOnly: false, concurrencySafe: false },
  Glob: { readOnly: true, concurrencySafe: true },
  Grep: { readOnly: true, concurrencySafe: true },
  Read: { readOnly: true, concurrencySafe: true },
  Edit: { readOnly: false, concurrencySafe: false },
  Write: { readOnly: false, concurrencySafe: false },
  NotebookEdit: { readOnly: false, concurrencySafe: false },
  WebFetch: { readOnly: true, concurrencySafe: true },
  TodoWrite: { readOnly: true, concurrencySafe: false }
}

/** Tools that change files: what acceptEdits auto-approves and Edit(...) rules govern. */
export const FILE_EDIT_TOOL_NAMES: readonly string[] = ['Edit', 'Write', 'NotebookEdit', 'MultiEdit']
/** Tools that read files: what Read(...) rules govern (best effort for searches). */
export const FILE_READ_TOOL_NAMES: readonly string[] = ['Read', 'Glob', 'Grep', 'NotebookRead', 'LS']
