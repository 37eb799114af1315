// What a tool call touches, in the terms permission rules speak: a command, a path, a URL, a subagent type.
import { isAbsolute, join } from 'node:path'
import { splitGlobBase } from '../tools/glob-pattern'
import { resolveToolPath } from '../tools/paths'
import { isMcpToolName } from '../definitions/tool-list'
import { BUILTIN_TOOL_META } from '../tools/registry'
import { TEAM_TOOL_NAMES } from '../tools/team-tool-names'
import { FILE_EDIT_TOOL_NAMES, FILE_READ_TOOL_NAMES } from '../tools/tool-names'

export type CallKind = 'bash' | 'edit' | 'read' | 'network' | 'free' | 'other'

/**
 * Tools that never need approval (deny rules still apply): they only talk to the runtime itself (coordinator and team tools too).
 * RequestMerge is the exception that proves it: it asks the person itself, every time (request-merge-tool.ts).
 */
export const NO_APPROVAL_TOOLS: readonly string[] = [
  'TodoWrite',
  'Agent',
  'Task',
  'SendMessage',
  'TaskOutput',
  'TaskStop',
  'ExitPlanMode',
  'SetPhase',
  ...TEAM_TOOL_NAMES,
  'RequestMerge'
]

export interface ToolCall {
  name: string
  kind: CallKind
  readOnly: boolean
  command?: string
  /** Bash: the call asks to run outside the sandbox (dangerouslyDisableSandbox). */
  unsandboxed?: boolean
  /** Absolute path the call reads or writes (for Glob/Grep: the directory searched). */
  path?: string
  /** The call searches a whole directory (Glob/Grep), not one file. */
  searchesDirectory?: boolean
  url?: string
  host?: string
  subagentType?: string
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined
}

/** A tool that is not built in, by the Claude Code family its name belongs to (a built-in tool declares its kind). */
function kindByName(name: string): CallKind {
  if (FILE_EDIT_TOOL_NAMES.includes(name)) return 'edit'
  if (FILE_READ_TOOL_NAMES.includes(name)) return 'read'
  if (name === 'WebSearch') return 'network'
  return NO_APPROVAL_TOOLS.includes(name) ? 'free' : 'other'
}

/**
 * `absolute` turns a model-supplied path into the absolute one the tool will use (the path check's own, so `~`
 * means the same home to the decision and to the tool); default: relative to cwd, `~` the process's home.
 */
export function describeCall(
  tool: { name: string; readOnly?: boolean },
  input: unknown,
  cwd: string,
  absolute: (p: string) => string = (p) => resolveToolPath(cwd, p)
): ToolCall {
  const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>
  const name = tool.name
  const meta = BUILTIN_TOOL_META[name] as (typeof BUILTIN_TOOL_META)[string] | undefined
  const readOnly = tool.readOnly ?? meta?.readOnly ?? false
  const kind = meta?.permission ?? kindByName(name)
  if (kind === 'bash') return { name, kind: 'bash', readOnly: false, command: str(args.command) ?? '', unsandboxed: args.dangerouslyDisableSandbox === true }
  if (kind === 'edit') {
    const p = str(args.file_path) ?? str(args.notebook_path)
    return { name, kind: 'edit', readOnly: false, path: p && absolute(p) }
  }
  if (kind === 'read') {
    const file = str(args.file_path) ?? str(args.notebook_path)
    if (file) return { name, kind: 'read', readOnly: true, path: absolute(file) }
    let dir = absolute(str(args.path) ?? '.')
    const pattern = str(args.pattern)
    // Glob searches from its pattern's fixed part (`link/*` searches link/, `../x/*.ts` searches ../x).
    if (name === 'Glob' && pattern) {
      const { base } = splitGlobBase(pattern.startsWith('~/') ? absolute(pattern) : pattern.trim())
      if (base) dir = isAbsolute(base) ? base : join(dir, base)
    }
    return { name, kind: 'read', readOnly: true, path: dir, searchesDirectory: true }
  }
  if (kind === 'network') {
    const url = str(args.url)
    let host: string | undefined
    try {
      host = url ? new URL(url).hostname.toLowerCase() : undefined
    } catch {}
    return { name, kind: 'network', readOnly: true, url, host }
  }
  if (kind === 'free') return { name, kind: 'free', readOnly: true, subagentType: str(args.subagent_type) }
  // An MCP server's `readOnlyHint` is the server's claim about itself, not a grant: its tools run when a rule
  // allows them or a person approves, like Claude Code's (which refuses them in plan mode). The hint still
  // lets the loop run such calls side by side (tool.concurrencySafe); it never decides a permission.
  if (isMcpToolName(name)) return { name, kind: 'other', readOnly: false }
  return { name, kind: 'other', readOnly }
}
