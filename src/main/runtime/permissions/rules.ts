// Permission rules as Claude Code writes them in settings: `Bash`, `Bash(npm run test:*)`, `Read(./secrets/**)`,
// `Edit(src/**)`, `WebFetch(domain:example.com)`, `Agent(Explore)`, `mcp__github`, `mcp__github__*`.
import { FILE_EDIT_TOOL_NAMES, FILE_READ_TOOL_NAMES } from '../tools/tool-names'

export const RULE_BEHAVIORS = ['allow', 'deny', 'ask'] as const
export type RuleBehavior = (typeof RULE_BEHAVIORS)[number]

/** Where a rule came from, for messages ("denied by Bash(rm:*) from project settings"). */
export type RuleSource = 'managed' | 'user' | 'project' | 'local' | 'cli' | 'session'

export interface PermissionRule {
  toolName: string
  /** The text inside the parentheses, absent for a bare tool name. */
  content?: string
  source: RuleSource
  /** The directory `/path` patterns are relative to (the project root of the settings file). Default: cwd. */
  root?: string
  /** The rule as written. */
  raw: string
}

export interface PermissionRules {
  allow: PermissionRule[]
  deny: PermissionRule[]
  ask: PermissionRule[]
}

export const emptyRules = (): PermissionRules => ({ allow: [], deny: [], ask: [] })

export function mergeRules(...sets: PermissionRules[]): PermissionRules {
  return { allow: sets.flatMap((s) => s.allow), deny: sets.flatMap((s) => s.deny), ask: sets.flatMap((s) => s.ask) }
}

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_\-.*]*$/

export type ParsedRule = { ok: true; rule: PermissionRule } | { ok: false; error: string; toolName?: string }

export function parseRule(raw: string, source: RuleSource, root?: string): ParsedRule {
  const text = raw.trim()
  if (!text) return { ok: false, error: 'the rule is empty' }
  const open = text.indexOf('(')
  if (open === -1) {
    if (text.includes(')')) return { ok: false, error: `"${raw}" has ")" without "("` }
    return TOOL_NAME.test(text) ? { ok: true, rule: { toolName: text, source, root, raw } } : { ok: false, error: `"${raw}" is not a tool name` }
  }
  const toolName = text.slice(0, open).trim()
  if (!TOOL_NAME.test(toolName)) return { ok: false, error: `"${toolName}" is not a tool name` }
  if (!text.endsWith(')')) return { ok: false, error: `"${raw}" is missing the closing ")"`, toolName }
  const content = text.slice(open + 1, -1).trim()
  // `Bash()` and `Bash(*)` mean the whole tool, as in Claude Code.
  if (content === '' || content === '*') return { ok: true, rule: { toolName, source, root, raw } }
  return { ok: true, rule: { toolName, content, source, root, raw } }
}

export function formatRule(toolName: string, content?: string): string {
  return content === undefined ? toolName : `${toolName}(${content})`
}

/** Rules from strings (e.g. `--allowedTools`), throwing on a malformed one: the caller typed it just now. */
export function rulesFrom(spec: Partial<Record<RuleBehavior, string[]>>, source: RuleSource, root?: string): PermissionRules {
  const out = emptyRules()
  for (const behavior of RULE_BEHAVIORS) {
    for (const raw of spec[behavior] ?? []) {
      const parsed = parseRule(raw, source, root)
      if (!parsed.ok) throw new Error(`Invalid permission rule: ${parsed.error}`)
      out[behavior].push(parsed.rule)
    }
  }
  return out
}

const canonical = (name: string): string => (name === 'Task' ? 'Agent' : name)

/** Does a rule written for `ruleTool` apply to a call of `toolName`? (Edit covers every editing tool, Read every reading one.) */
export function ruleAppliesToTool(ruleTool: string, toolName: string): boolean {
  if (canonical(ruleTool) === canonical(toolName)) return true
  if (ruleTool === 'Edit' && FILE_EDIT_TOOL_NAMES.includes(toolName)) return true
  if (ruleTool === 'Read' && FILE_READ_TOOL_NAMES.includes(toolName)) return true
  if (ruleTool.startsWith('mcp__') && !ruleTool.includes('*') && ruleTool.split('__').length === 2) return toolName.startsWith(`${ruleTool}__`)
  if (ruleTool.includes('*'))
    return new RegExp(
      `^${ruleTool
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`
    ).test(toolName)
  return false
}
