// decidePermission: one tool call, one mode, the rules in force → allow, deny (with a message the model can act
// on) or ask (with a reason a person can judge). Order, as in Claude Code: deny rules always win; then the
// mode; then ask rules; then allow rules; then the defaults for the kind of call.
import { homedir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import type { PermissionMode } from '../../../shared/agent-definition'
import { isInside } from '../tools/paths'
import { FILE_EDIT_TOOL_NAMES, FILE_READ_TOOL_NAMES } from '../tools/tool-names'
import { commandVariants, matchBashPattern, parseBashCommand, shellWords, type ParsedCommand } from './bash-command'
import { isReadOnlyBashCommand, isReadOnlySegment } from './bash-read-only'
import { insideWorkingDirs, pathRuleMatches, type PathContext } from './path-rules'
import { type PermissionRule, type PermissionRules } from './rules'
import { describeCall, type ToolCall } from './tool-call'

export interface PermissionCheck {
  mode: PermissionMode
  tool: { name: string; readOnly?: boolean }
  input: unknown
  rules: PermissionRules
  cwd: string
  /** More directories the agent may read (and, in acceptEdits, edit) without asking. */
  additionalDirectories?: string[]
  /** Directories the agent may read without asking, never edit (the session's saved tool outputs). */
  readableDirectories?: string[]
  home?: string
}

export type PermissionDecision =
  | { behavior: 'allow'; rule?: string }
  | { behavior: 'deny'; message: string; rule?: string }
  | { behavior: 'ask'; reason: string; suggestedRules: string[] }

const canonical = (name: string): string => (name === 'Task' ? 'Agent' : name)

export function ruleAppliesToTool(ruleTool: string, toolName: string): boolean {
  if (canonical(ruleTool) === canonical(toolName)) return true
  if (ruleTool === 'Edit' && FILE_EDIT_TOOL_NAMES.includes(toolName)) return true
  if (ruleTool === 'Read' && FILE_READ_TOOL_NAMES.includes(toolName)) return true
  if (ruleTool.startsWith('mcp__') && !ruleTool.includes('*') && ruleTool.split('__').length === 2) return toolName.startsWith(`${ruleTool}__`)
  if (ruleTool.includes('*')) return new RegExp(`^${ruleTool.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(toolName)
  return false
}

function hostMatches(content: string, host: string | undefined, broad: boolean): boolean {
  if (!host || !content.startsWith('domain:')) return false
  const domain = content.slice(7).trim().toLowerCase()
  if (domain.startsWith('*.')) return host.endsWith(domain.slice(1))
  return host === domain || (broad && host.endsWith(`.${domain}`))
}

/** Does a non-Bash rule cover this call? Deny and ask rules read broadly, allow rules narrowly. */
function ruleCovers(rule: PermissionRule, call: ToolCall, ctx: PathContext, behavior: 'allow' | 'deny' | 'ask'): boolean {
  if (!ruleAppliesToTool(rule.toolName, call.name)) return false
  if (rule.content === undefined) return true
  const mode = behavior === 'allow' ? 'allow' : 'deny'
  if (call.kind === 'edit' || call.kind === 'read') {
    if (!call.path) return false
    if (pathRuleMatches(rule.content, rule.root, ctx, call.path, mode)) return true
    // A search rooted in a covered folder reaches its files.
    return Boolean(call.searchesDirectory) && mode === 'deny' && pathRuleMatches(rule.content, rule.root, ctx, join(call.path, 'x'), mode)
  }
  if (call.kind === 'network') return hostMatches(rule.content, call.host, mode === 'deny')
  if (canonical(call.name) === 'Agent') return rule.content === call.subagentType
  // A specifier we cannot interpret: never grants, always restricts.
  return behavior !== 'allow'
}

function bashCandidates(command: string, parsed: ParsedCommand): string[] {
  return [...new Set([command.trim(), ...parsed.segments, ...parsed.nested].flatMap(commandVariants))]
}

function bashRuleHits(rules: PermissionRule[], command: string, parsed: ParsedCommand): PermissionRule | undefined {
  const candidates = bashCandidates(command, parsed)
  return rules.find((r) => ruleAppliesToTool(r.toolName, 'Bash') && (r.content === undefined || candidates.some((c) => matchBashPattern(r.content as string, c))))
}

/** A Bash command that names a path a Read(...) deny rule protects (`cat .env`) is denied like Read would be. */
function bashReadsDeniedPath(deny: PermissionRule[], parsed: ParsedCommand, ctx: PathContext): PermissionRule | undefined {
  const readRules = deny.filter((r) => r.content !== undefined && (r.toolName === 'Read' || r.toolName === 'Edit'))
  if (!readRules.length) return undefined
  for (const seg of [...parsed.segments, ...parsed.nested]) {
    const words = shellWords(seg) ?? seg.split(/\s+/)
    for (const w of words.slice(1)) {
      if (!w || w.startsWith('-')) continue
      const abs = w.startsWith('~/') ? join(ctx.home ?? homedir(), w.slice(2)) : resolve(ctx.cwd, w)
      const hit = readRules.find((r) => pathRuleMatches(r.content as string, r.root, ctx, abs, 'deny'))
      if (hit) return hit
    }
  }
  return undefined
}

function bashAllowed(allow: PermissionRule[], command: string, parsed: ParsedCommand): PermissionRule | undefined {
  const bashRules = allow.filter((r) => ruleAppliesToTool(r.toolName, 'Bash'))
  const bare = bashRules.find((r) => r.content === undefined)
  if (bare) return bare
  // The user approved exactly this text: safe whatever it contains.
  const exact = bashRules.find((r) => r.content === command.trim())
  if (exact) return exact
  if (parsed.unsure.length || parsed.segments.length === 0) return undefined
  let first: PermissionRule | undefined
  for (const seg of parsed.segments) {
    const hit = bashRules.find((r) => matchBashPattern(r.content as string, seg))
    if (!hit && !isReadOnlySegment(seg)) return undefined
    first ??= hit
  }
  return first
}

const MULTI_COMMAND_TOOLS = new Set(['git', 'npm', 'pnpm', 'yarn', 'npx', 'bun', 'deno', 'cargo', 'go', 'docker', 'kubectl', 'pip', 'pip3', 'poetry', 'uv', 'gh', 'dotnet', 'mvn', 'gradle', './gradlew', 'make'])
const EXACT_ONLY = new Set(['rm', 'sudo', 'curl', 'wget', 'chmod', 'chown', 'dd', 'mv', 'kill', 'pkill', 'killall', 'ssh', 'scp', 'eval', 'bash', 'sh', 'zsh', 'python', 'python3', 'node', 'exec'])

/** The rules "allow always" would add: as narrow as is still useful. */
export function suggestRules(call: ToolCall, cwd: string): string[] {
  if (call.kind === 'bash') {
    const command = call.command ?? ''
    const parsed = parseBashCommand(command)
    if (parsed.unsure.length) return [`Bash(${command.trim()})`]
    const out = parsed.segments.filter((s) => !isReadOnlySegment(s)).map((seg) => {
      const w = shellWords(seg)
      if (!w || !w.length || EXACT_ONLY.has(w[0])) return `Bash(${seg})`
      if (MULTI_COMMAND_TOOLS.has(w[0]) && w[1] && !w[1].startsWith('-')) {
        if (w[1] === 'run' && w[2]) return `Bash(${w[0]} run ${w[2]}:*)`
        return `Bash(${w[0]} ${w[1]}:*)`
      }
      return `Bash(${w[0]}:*)`
    })
    return [...new Set(out)]
  }
  if (call.kind === 'edit' && call.path) return [isInside(cwd, call.path) ? 'Edit(./**)' : `Edit(/${join(call.path, '..')}/**)`]
  if (call.kind === 'read' && call.path) return [`Read(/${call.searchesDirectory ? call.path : join(call.path, '..')}/**)`]
  if (call.kind === 'network' && call.host) return [`${call.name}(domain:${call.host})`]
  return [call.name]
}

function denyMessage(call: ToolCall, rule: PermissionRule): string {
  const where = rule.source === 'session' ? 'for this session' : `in ${rule.source} settings`
  return `Permission to use ${call.name} was denied by the rule "${rule.raw}" ${where}. Do not retry this call; find another way or tell the user it is blocked.`
}

function shown(path: string, cwd: string): string {
  return isInside(cwd, path) ? relative(cwd, path) || '.' : path
}

function askReason(call: ToolCall, cwd: string, inside: boolean): string {
  if (call.kind === 'bash') {
    const unsure = parseBashCommand(call.command ?? '').unsure
    return `Bash wants to run: ${call.command}${unsure.length ? ` (it uses ${unsure.join(', ')}, which allow rules do not cover)` : ''}`
  }
  if (call.kind === 'edit') return `${call.name} wants to change ${call.path ? shown(call.path, cwd) : 'a file'}${inside ? '' : ', outside the working directory'}`
  if (call.kind === 'read') return `${call.name} wants to read ${call.path}, outside the working directory`
  if (call.kind === 'network') return `${call.name} wants to fetch ${call.url ?? 'a URL'}`
  return `${call.name} needs approval`
}

export function decidePermission(check: PermissionCheck): PermissionDecision {
  const { mode, rules, cwd } = check
  const ctx: PathContext = { cwd, home: check.home }
  const call = describeCall(check.tool, check.input, cwd)
  const parsed = call.kind === 'bash' ? parseBashCommand(call.command ?? '') : undefined

  // 1. Deny rules, in every mode.
  const denied = parsed
    ? (bashRuleHits(rules.deny, call.command ?? '', parsed) ?? bashReadsDeniedPath(rules.deny, parsed, ctx))
    : rules.deny.find((r) => ruleCovers(r, call, ctx, 'deny'))
  if (denied) return { behavior: 'deny', message: denyMessage(call, denied), rule: denied.raw }

  // 2. The mode.
  if (mode === 'bypassPermissions') return { behavior: 'allow' }
  const readOnlyCall = call.kind === 'bash' ? isReadOnlyBashCommand(call.command ?? '') : call.readOnly
  if (mode === 'plan' && !readOnlyCall && call.kind !== 'free')
    return {
      behavior: 'deny',
      message: `${call.name} is not available in plan mode, which allows only read-only tools (Read, Glob, Grep, read-only Bash such as ls or git status). Describe the change you would make instead of making it.`
    }

  const dirs = [cwd, ...(check.additionalDirectories ?? [])]
  const inside = call.path ? insideWorkingDirs(call.path, dirs) : true
  let decision: Extract<PermissionDecision, { behavior: 'ask' }> | undefined

  // 3. Ask rules, then 4. allow rules.
  const asked = parsed ? bashRuleHits(rules.ask, call.command ?? '', parsed) : rules.ask.find((r) => ruleCovers(r, call, ctx, 'ask'))
  if (asked) decision = { behavior: 'ask', reason: `${askReason(call, cwd, inside)} (the rule "${asked.raw}" asks first)`, suggestedRules: [] }
  else {
    const allowed = parsed ? bashAllowed(rules.allow, call.command ?? '', parsed) : rules.allow.find((r) => ruleCovers(r, call, ctx, 'allow'))
    if (allowed) return { behavior: 'allow', rule: allowed.raw }
  }

  // 5. Defaults by kind of call.
  if (!decision) {
    if (call.kind === 'free') return { behavior: 'allow' }
    if (call.kind === 'read' && (inside || (call.path !== undefined && insideWorkingDirs(call.path, check.readableDirectories ?? [])))) return { behavior: 'allow' }
    if (call.kind === 'bash' && readOnlyCall) return { behavior: 'allow' }
    if (call.kind === 'edit' && mode === 'acceptEdits' && call.path && inside) return { behavior: 'allow' }
    if (call.kind === 'other' && call.readOnly) return { behavior: 'allow' }
    decision = { behavior: 'ask', reason: askReason(call, cwd, inside), suggestedRules: suggestRules(call, cwd) }
  }

  if (mode === 'dontAsk') {
    const example = decision.suggestedRules[0] ?? suggestRules(call, cwd)[0]
    return {
      behavior: 'deny',
      message: `${call.name} needs approval, and this agent runs in dontAsk mode, which denies whatever is not allowed in advance (${decision.reason}). A permissions.allow rule such as ${example} would allow it.`
    }
  }
  return decision
}
