// Tool lists as agent files write them, read with Claude Code's rules:
// - a string is split on commas and spaces that are not inside parentheses
//   ("Read, Grep Glob, Bash(npm test:*)" -> Read, Grep, Glob, Bash(npm test:*));
// - a YAML list keeps its string items (each one split the same way) and drops the rest;
// - `*` anywhere means "all tools";
// - a permission pattern `Tool(content)` names the tool `Tool`, with `content` for the permission layer.

/** Old names that still appear in agent files, mapped to the tool that replaced them. */
export const TOOL_ALIASES: Readonly<Record<string, string>> = Object.freeze({ Task: 'Agent' })

export interface ToolListRead {
  /** The names, or undefined when the value was absent or null. */
  list?: string[]
  /** Items of a YAML list that were not strings and were dropped. */
  dropped: unknown[]
}

/** Claude Code's `parseToolListFromCLI` for one string. */
export function splitToolString(value: string): string[] {
  const out: string[] = []
  let current = ''
  let depth = 0
  const flush = (): void => {
    const t = current.trim()
    if (t) out.push(t)
    current = ''
  }
  for (const ch of value) {
    if (ch === '(') depth++
    else if (ch === ')') depth = Math.max(0, depth - 1)
    if (depth === 0 && (ch === ',' || ch === ' ' || ch === '\t' || ch === '\n')) flush()
    else current += ch
  }
  flush()
  return out
}

export function readToolList(value: unknown): ToolListRead {
  if (value === undefined || value === null) return { dropped: [] }
  if (typeof value === 'string') return { list: splitToolString(value), dropped: [] }
  if (Array.isArray(value)) {
    const dropped = value.filter((item) => typeof item !== 'string')
    return { list: value.filter((item): item is string => typeof item === 'string').flatMap(splitToolString), dropped }
  }
  // A number, boolean or mapping: not a tool list at all. Claude Code treats a falsy value as empty.
  return { list: [], dropped: [value] }
}

export interface ToolSpec {
  /** The tool the spec names, with aliases applied (`Task` -> `Agent`). */
  toolName: string
  /** What was inside `Tool(...)`, if anything but `*` or nothing. */
  ruleContent?: string
}

/** `Bash(git:*)` -> { toolName: 'Bash', ruleContent: 'git:*' }; `Task` -> { toolName: 'Agent' }. */
export function parseToolSpec(spec: string): ToolSpec {
  const s = spec.trim()
  const open = s.indexOf('(')
  let name = s
  let ruleContent: string | undefined
  if (open > 0 && s.endsWith(')')) {
    name = s.slice(0, open).trim()
    const content = s.slice(open + 1, -1).trim()
    if (content !== '' && content !== '*') ruleContent = content
  }
  return { toolName: Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : name, ...(ruleContent !== undefined ? { ruleContent } : {}) }
}

export const isMcpToolName = (name: string): boolean => name.startsWith('mcp__')

/**
 * `mcp__server__*` or a bare `mcp__server`: every tool of that server. Returns the name prefix the
 * server's tools share (`mcp__server__`), or undefined for an ordinary name.
 */
export function mcpServerWildcard(name: string): string | undefined {
  if (!isMcpToolName(name)) return undefined
  const parts = name.split('__')
  if (parts.length === 2 && parts[1]) return `${name}__`
  if (parts.length === 3 && parts[2] === '*' && parts[1]) return `mcp__${parts[1]}__`
  return undefined
}
