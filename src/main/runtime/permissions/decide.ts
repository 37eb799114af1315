// decidePermission: one tool call, one mode, the rules in force → allow, deny (with a message the model can act
// on) or ask (with a reason a person can judge). Order, as in Claude Code: deny rules always win; then the
// mode; then ask rules; then allow rules; then the defaults for the kind of call. Paths are judged by the one
// path check (security/path-policy.ts): where they really lead, symlinks resolved. An allowed Bash call also
// says which sandbox it runs in; where the sandbox cannot run, what it would have auto-approved is asked.
import { join, relative } from 'node:path'
import type { PermissionMode } from '../../../shared/agent-definition'
import { NO_SANDBOX_LEAD, NO_SANDBOX_TAIL } from '../../../shared/sandbox-words'
import { PathPolicy } from '../security/path-policy'
import { namesProtectedPath } from '../security/protected-paths'
import { isInside } from '../tools/paths'
import { parseBashCommand, type ParsedCommand } from './bash-command'
import { bashFileEditVerdict, bashReadOnlyVerdict } from './bash-read-only'
import {
  bashAllowed,
  bashReadsDeniedPath,
  bashRuleHits,
  commandParts,
  gitRevealsProtected,
  suggestBashRules,
  type SandboxLevel,
  type SandboxState
} from './decide-bash'
import { insideWorkingDirs, pathRuleMatches, type PathContext } from './path-rules'
import { ruleAppliesToTool, type PermissionRule, type PermissionRules } from './rules'
import { describeCall, type ToolCall } from './tool-call'
import type { CallVerdict } from '../tool-call/verdict'

export { ruleAppliesToTool }
export type { SandboxLevel, SandboxState }

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
  /** The path check to use (built from cwd, additionalDirectories and the rules when absent). */
  policy?: PathPolicy
  /** Whether Bash can run sandboxed here. Default: available. */
  sandbox?: SandboxState
  /** The agent is read-only by its definition (Explore, Plan): its commands never write. */
  readOnlyAgent?: boolean
  /**
   * Folders the agent may write with its file tools in every mode without asking (deny rules still apply): its
   * own memory folder (`memory:` in its definition), as Claude Code allows an agent's memory writes.
   */
  writableDirs?: string[]
}

/** Steps 3 and 4 of a tool call answer in the pipeline's one verdict type: allow, deny or ask (never pass). */
export type RulesVerdict = Exclude<CallVerdict, { behavior: 'pass' }>

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
    // A search rooted in a covered folder reaches its files (searches from above skip them instead).
    return Boolean(call.searchesDirectory) && mode === 'deny' && pathRuleMatches(rule.content, rule.root, ctx, join(call.path, 'x'), mode)
  }
  if (call.kind === 'network') return hostMatches(rule.content, call.host, mode === 'deny')
  if (call.name === 'Agent' || call.name === 'Task') return rule.content === call.subagentType
  // A specifier we cannot interpret: never grants, always restricts.
  return behavior !== 'allow'
}

/** The rules "allow always" would add: as narrow as is still useful. */
export function suggestRules(call: ToolCall, cwd: string, policy?: PathPolicy): string[] {
  if (call.kind === 'bash') return suggestBashRules(call.command ?? '', policy ?? new PathPolicy({ cwd }))
  if (call.kind === 'edit' && call.path) return [isInside(cwd, call.path) ? 'Edit(./**)' : `Edit(/${join(call.path, '..')}/**)`]
  if (call.kind === 'read' && call.path) return [`Read(/${call.searchesDirectory ? call.path : join(call.path, '..')}/**)`]
  if (call.kind === 'network' && call.host) return [`${call.name}(domain:${call.host})`]
  return [call.name]
}

function denyMessage(call: ToolCall, rule: PermissionRule): string {
  const where = rule.source === 'session' ? 'for this session' : `in ${rule.source} settings`
  return `Permission to use ${call.name} was denied by the rule "${rule.raw}" ${where}. Do not retry this call; find another way or tell the user it is blocked.`
}

/** The allow rule for exactly this file, the one kind that lets a protected path be written without asking. */
function exactEditRule(path: string, cwd: string): string {
  return isInside(cwd, path) ? `Edit(./${relative(cwd, path)})` : `Edit(/${path})`
}

function shown(path: string, cwd: string): string {
  return isInside(cwd, path) ? relative(cwd, path) || '.' : path
}

function askReason(call: ToolCall, cwd: string, inside: boolean, parsed?: ParsedCommand, policy?: PathPolicy): string {
  if (call.kind === 'bash') {
    const unsure = parsed?.unsure ?? []
    const outside = call.unsandboxed ? ' outside the sandbox (it asked to leave it)' : ''
    const history = policy && parsed ? gitRevealsProtected(parsed, policy) : undefined
    const why = history ? ` (git can show files the rule "${history.raw}" protects from the repository's history)` : ''
    return `Bash wants to run${outside}: ${call.command}${unsure.length ? ` (it uses ${unsure.join(', ')}, which allow rules do not cover)` : ''}${why}`
  }
  if (call.kind === 'edit') {
    const why = call.path ? policy?.protectedWrite(call.path) : null
    const what = why ? ` (a protected path: ${why}; other programs run or obey it, or it holds credentials)` : ''
    return `${call.name} wants to change ${call.path ? shown(call.path, cwd) : 'a file'}${inside ? '' : ', outside the working directory'}${what}`
  }
  if (call.kind === 'read') return `${call.name} wants to read ${call.path}, outside the working directory`
  if (call.kind === 'network') return `${call.name} wants to fetch ${call.url ?? 'a URL'}`
  return `${call.name} needs approval`
}

const PLAN_MESSAGE = (name: string, why?: string) =>
  `${name} is not available in plan mode, which allows only read-only tools (Read, Glob, Grep, read-only Bash such as ls or git status)${why ? `; this command is not read-only: ${why}` : ''}. Describe the change you would make instead of making it.`

export function decidePermission(check: PermissionCheck): RulesVerdict {
  const { mode, rules, cwd } = check
  const ctx: PathContext = { cwd, home: check.home }
  const policy = check.policy ?? new PathPolicy({ cwd, roots: check.additionalDirectories ?? [], rules: () => rules, home: check.home })
  const call = describeCall(check.tool, check.input, cwd, (p) => policy.absolute(p))
  const parsed = call.kind === 'bash' ? parseBashCommand(call.command ?? '') : undefined
  const sandbox = check.sandbox ?? { available: true }
  const floor: SandboxLevel = mode === 'plan' || check.readOnlyAgent ? 'read-only' : 'workspace'

  // 1. Deny rules, in every mode.
  const denied = parsed
    ? (bashRuleHits(rules.deny, call.command ?? '', parsed) ?? bashReadsDeniedPath(parsed, policy))
    : rules.deny.find((r) => ruleCovers(r, call, ctx, 'deny'))
  if (denied) return { behavior: 'deny', message: denyMessage(call, denied), rule: denied.raw }
  if (call.kind === 'bash' && call.unsandboxed && floor === 'read-only')
    return {
      behavior: 'deny',
      message: `Bash may not leave the sandbox here: ${mode === 'plan' ? 'plan mode' : 'this agent is read-only, and'} its commands run without write access. Run the command without dangerouslyDisableSandbox.`
    }
  const history = parsed ? gitRevealsProtected(parsed, policy) : undefined

  // 2. An agent's own memory files, in every mode (its file tools only); then the mode.
  if (call.kind === 'edit' && call.path && check.writableDirs?.some((dir) => new PathPolicy({ cwd: dir, home: check.home }).inBounds(call.path!)))
    return { behavior: 'allow' }
  // A protected path (protected-paths.ts) is asked for in every mode, bypass and acceptEdits included, unless an
  // allow rule names it (a broad `Edit(./**)` does not); plan and dontAsk deny it (below), as they deny any ask.
  const protectedWhy = call.kind === 'edit' && call.path ? policy.protectedWrite(call.path) : null
  if (protectedWhy && mode !== 'plan') {
    const named = rules.allow.find((r) => ruleCovers(r, call, ctx, 'allow') && r.content !== undefined && namesProtectedPath(r.content))
    if (named) return { behavior: 'allow', rule: named.raw }
    const asked = rules.ask.find((r) => ruleCovers(r, call, ctx, 'ask'))
    const decision = {
      behavior: 'ask' as const,
      reason: askReason(call, cwd, policy.inBounds(call.path as string), undefined, policy) + (asked ? ` (the rule "${asked.raw}" asks first)` : ''),
      suggestedRules: [exactEditRule(call.path as string, cwd)],
      outside: !policy.inBounds(call.path as string),
      protectedPath: true
    }
    if (mode !== 'dontAsk') return decision
    return {
      behavior: 'deny',
      message: `${call.name} may not change ${shown(call.path as string, cwd)} without a person's approval (${protectedWhy}), and this agent runs in dontAsk mode. A permissions.allow rule naming the file, such as ${decision.suggestedRules[0]}, would allow it. Do not try to change it another way.`
    }
  }
  if (mode === 'bypassPermissions') {
    if (call.kind !== 'bash') return { behavior: 'allow' }
    if (history)
      return {
        behavior: 'deny',
        message: `${denyMessage(call, history)} (git can print protected files from the repository's history, which no sandbox hides; a person must approve such a command, and bypass mode asks no one).`,
        rule: history.raw
      }
    // Bypass skips the questions, not the OS boundary: leaving the sandbox needs a person.
    if (call.unsandboxed && sandbox.available)
      return {
        behavior: 'deny',
        message:
          'Bash may not leave the sandbox in bypassPermissions mode: that needs a person to approve it. Run the command in the sandbox, or ask the user to run it (or to allow its domains in sandbox.network.allowedDomains).'
      }
    return { behavior: 'allow', sandbox: sandbox.available ? floor : 'off' }
  }
  const verdict = call.kind === 'bash' && !call.unsandboxed ? bashReadOnlyVerdict(call.command ?? '', policy) : undefined
  const readOnlyCall = call.kind === 'bash' ? verdict?.readOnly === true : call.readOnly
  if (mode === 'plan' && !readOnlyCall && call.kind !== 'free')
    return { behavior: 'deny', message: PLAN_MESSAGE(call.name, verdict && !verdict.readOnly ? verdict.reason : undefined) }

  const inside = call.path ? policy.inBounds(call.path) : true
  let decision: Extract<RulesVerdict, { behavior: 'ask' }> | undefined
  // Without a sandbox, what it would have auto-approved is asked instead.
  const bashAuto = (level: SandboxLevel, rule?: string): RulesVerdict | undefined =>
    sandbox.available ? { behavior: 'allow', sandbox: level, ...(rule ? { rule } : {}) } : undefined
  const noSandbox = sandbox.available ? '' : ` (${NO_SANDBOX_LEAD}${sandbox.reason}${NO_SANDBOX_TAIL})`

  // 3. Ask rules, then 4. allow rules.
  const asked = parsed ? bashRuleHits(rules.ask, call.command ?? '', parsed) : rules.ask.find((r) => ruleCovers(r, call, ctx, 'ask'))
  if (asked)
    decision = {
      behavior: 'ask',
      reason: `${askReason(call, cwd, inside, parsed, policy)} (the rule "${asked.raw}" asks first)`,
      suggestedRules: [],
      outside: !inside
    }
  else if (parsed) {
    const allowed = call.unsandboxed || history ? undefined : bashAllowed(rules.allow, call.command ?? '', parsed, policy)
    const auto = allowed && bashAuto(readOnlyCall ? 'read-only' : floor, allowed.raw)
    if (auto) return auto
  } else {
    const allowed = rules.allow.find((r) => ruleCovers(r, call, ctx, 'allow'))
    if (allowed) return { behavior: 'allow', rule: allowed.raw }
  }

  // 5. Defaults by kind of call.
  if (!decision) {
    if (call.kind === 'free') return { behavior: 'allow' }
    if (call.kind === 'read' && (inside || (call.path !== undefined && insideWorkingDirs(call.path, check.readableDirectories ?? []))))
      return { behavior: 'allow' }
    if (call.kind === 'bash' && readOnlyCall) {
      const auto = bashAuto('read-only')
      if (auto) return auto
    }
    if (call.kind === 'edit' && mode === 'acceptEdits' && call.path && inside) return { behavior: 'allow' }
    // acceptEdits covers Bash that only makes, copies, moves or removes files in the project (touch, mkdir,
    // echo > f …), as in Claude Code; still in the workspace sandbox, and never a protected path.
    if (
      call.kind === 'bash' &&
      mode === 'acceptEdits' &&
      floor === 'workspace' &&
      !call.unsandboxed &&
      !history &&
      bashFileEditVerdict(call.command ?? '', policy).readOnly
    ) {
      const auto = bashAuto('workspace')
      if (auto) return auto
    }
    if (call.kind === 'other' && call.readOnly) return { behavior: 'allow' }
    const reason = askReason(call, cwd, inside, parsed, policy) + (call.kind === 'bash' ? noSandbox : '')
    const suggestedRules = call.unsandboxed ? [] : suggestRules(call, cwd, policy)
    // A compound command says which of its parts those rules cover, and what lets the others run.
    const parts =
      call.kind === 'bash' && !call.unsandboxed ? commandParts(call.command ?? '', rules.allow, suggestedRules, policy, sandbox.available) : undefined
    decision = { behavior: 'ask', reason, suggestedRules, outside: !inside, ...(parts ? { commandParts: parts } : {}) }
  }

  if (mode === 'dontAsk') {
    const example = decision.suggestedRules[0] ?? suggestRules(call, cwd, policy)[0]
    return {
      behavior: 'deny',
      message: `${call.name} needs approval, and this agent runs in dontAsk mode, which denies whatever is not allowed in advance (${decision.reason}). A permissions.allow rule such as ${example} would allow it.`
    }
  }
  return decision
}

/** The sandbox a Bash call runs in once a person (or a hook) approved it. */
export function approvedSandbox(input: unknown, mode: PermissionMode, readOnlyAgent: boolean, sandbox: SandboxState): SandboxLevel {
  const unsandboxed = typeof input === 'object' && input !== null && (input as Record<string, unknown>).dangerouslyDisableSandbox === true
  // The person was told the sandbox is unavailable when they approved: it runs as they saw it.
  if (!sandbox.available) return 'off'
  if (mode === 'plan' || readOnlyAgent) return 'read-only'
  return unsandboxed ? 'off' : 'workspace'
}
