// The tool-name families permission rules speak of (Claude Code's, including tools Fanout does not have),
// importable without loading any tool. Each built-in tool's own metadata is in its file (registry.ts lists them).

/** Tools that change files: what acceptEdits auto-approves and Edit(...) rules govern. */
export const FILE_EDIT_TOOL_NAMES: readonly string[] = ['Edit', 'Write', 'NotebookEdit', 'MultiEdit']
/** Tools that read files: what Read(...) rules govern (best effort for searches). */
export const FILE_READ_TOOL_NAMES: readonly string[] = ['Read', 'Glob', 'Grep', 'NotebookRead', 'LS']
