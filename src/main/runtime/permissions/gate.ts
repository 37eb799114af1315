// The permission gate an agent loop calls before every tool call: decides, asks a person when it must (or,
// headless, denies with a reason that says how to allow it next time), and remembers "allow always" answers as
// session rules shared with every agent of the session.
import type { PermissionMode } from '../../../shared/agent-definition'
import type { CommandPart } from '../../../shared/events'
import { PathPolicy } from '../security/path-policy'
import { refreshHooksPath } from '../security/protected-paths'
import type { SandboxLevel } from '../tools/define-tool'
import { approvedSandbox, decidePermission, type SandboxState } from './decide'
import { effectiveMode } from './mode'
import { mergeRules, parseRule, type PermissionRule, type PermissionRules, type RuleBehavior } from './rules'
import { errorMessage } from '../../../shared/error-message'

export type PermissionAnswer = 'allow' | 'allow_always' | 'deny'

export interface PermissionRequest {
  toolName: string
  input: unknown
  toolUseId: string
  /** Why approval is needed, for a person. */
  reason: string
  /** What "allow always" would add, e.g. `Bash(npm run test:*)`. */
  suggestedRules: string[]
  /** A compound Bash command part by part (see decide.ts commandParts). */
  commandParts?: CommandPart[]
  /** An overwriting Write: the file's text now (permissions/previous-text.ts). */
  previousText?: string
  mode: PermissionMode
  cwd: string
}

export type AskFn = (req: PermissionRequest) => Promise<PermissionAnswer>

/** An answer given in the person's place (PermissionRequest hooks), or null to ask as usual. */
export type AskHookAnswer = { behavior: 'allow'; updatedInput?: Record<string, unknown> } | { behavior: 'deny'; message: string }
export type AskHook = (req: PermissionRequest) => Promise<AskHookAnswer | null>

export type GateDecision = { behavior: 'allow'; sandbox?: SandboxLevel; updatedInput?: Record<string, unknown> } | { behavior: 'deny'; message: string }

export interface PermissionGateOptions {
  mode: PermissionMode
  rules: PermissionRules
  cwd: string
  /** Asks a person (the app, or the parent's watcher for `bubble`). Absent: behaves as headless. */
  ask?: AskFn
  /**
   * Consulted where the gate would ask (a person, or headless: deny): its allow or deny stands for the
   * person's answer. Never for a protected path, which only a person may approve.
   */
  askHook?: AskHook
  headless?: boolean
  additionalDirectories?: string[]
  /** Directories whose files may be read without asking (never edited). */
  readableDirectories?: string[]
  home?: string
  /** Folders this agent may write in every mode: its own memory folder (read at each call, as it is found at run start). */
  writableDirs?: () => string[] | undefined
  /** Told about every denial (e.g. the CLI prints them to stderr). */
  onDenied?: (message: string, toolName: string) => void
  /** Whether Bash can run in the OS sandbox (asked before deciding a Bash call). Absent: available. */
  sandbox?: () => Promise<SandboxState>
  /** The agent is read-only by its definition: its commands run without write access. */
  readOnlyAgent?: boolean
  /** More working directories for the path check (e.g. the agent's memory folder). */
  extraRoots?: string[]
}

export interface PermissionGate {
  readonly mode: PermissionMode
  /** The rules in force: the given ones plus session rules added by "allow always". */
  rules(): PermissionRules
  canUseTool(tool: { name: string; readOnly?: boolean }, input: unknown, toolUseId: string): Promise<GateDecision>
  /** Adds a rule for the rest of the session (shared with subagents' gates). */
  addSessionRule(rule: string, behavior?: RuleBehavior): void
  /** A gate for a subagent: effective mode, same rules (deny rules always inherited), its own cwd and asker. */
  forSubagent(opts: {
    definitionMode?: PermissionMode
    cwd: string
    ask?: AskFn
    askHook?: AskHook
    headless?: boolean
    readOnlyAgent?: boolean
    extraRoots?: string[]
    writableDirs?: () => string[] | undefined
    /** Allow rules for this gate alone: a slash command's `allowed-tools` while its prompt runs (deny rules still win). */
    extraAllow?: readonly PermissionRule[]
  }): PermissionGate
}

const EDIT_TOOLS = new Set(['Edit', 'Write', 'NotebookEdit', 'MultiEdit'])

/**
 * How a headless denial can be allowed next time: only ways that would work. acceptEdits when the mode is not
 * already at least that and the edit is inside the working directories; bypassPermissions unless it is on; a
 * rule only when the allow list does not already hold it (then: why that rule did not cover this call).
 */
export function headlessMessage(toolName: string, reason: string, suggested: string[], mode: PermissionMode, rules: PermissionRules, outside: boolean): string {
  const ways: string[] = []
  if (EDIT_TOOLS.has(toolName) && !outside && mode !== 'acceptEdits' && mode !== 'bypassPermissions') ways.push('--permission-mode acceptEdits')
  if (mode !== 'bypassPermissions') ways.push('--permission-mode bypassPermissions')
  if (outside) ways.push('additionalDirectories in .claude/settings.json for the folder it needs')
  const present = new Set(rules.allow.map((r) => r.raw))
  const fresh = suggested.filter((r) => !present.has(r))
  const held = suggested.filter((r) => present.has(r))
  if (fresh.length) ways.push(`a permissions.allow rule like ${fresh[0]} in .claude/settings.json`)
  const already = held.length
    ? ` The allow rule ${held[0]} is already in place; it does not cover this call because ${outside ? 'the call reaches outside the working directories' : 'of how the command is written (each part of it must be allowed)'}.`
    : ''
  const how = ways.length ? ` Allow it with ${ways.slice(0, -1).join(', ')}${ways.length > 1 ? ' or ' : ''}${ways[ways.length - 1]}.` : ''
  return `${toolName} needs approval and this run is headless, so it was denied (${reason}).${how}${already}`
}

function makeGate(opts: PermissionGateOptions, session: PermissionRules): PermissionGate {
  const rules = (): PermissionRules => mergeRules(opts.rules, session)
  const addSessionRule = (raw: string, behavior: RuleBehavior = 'allow'): void => {
    const parsed = parseRule(raw, 'session', opts.cwd)
    if (!parsed.ok) throw new Error(`Invalid permission rule: ${parsed.error}`)
    if (!session[behavior].some((r) => r.raw === parsed.rule.raw)) session[behavior].push(parsed.rule)
  }
  const deny = (message: string, toolName: string): GateDecision => {
    opts.onDenied?.(message, toolName)
    return { behavior: 'deny', message }
  }
  return {
    mode: opts.mode,
    rules,
    addSessionRule,
    async canUseTool(tool, input, toolUseId) {
      const sandbox: SandboxState = tool.name === 'Bash' && opts.sandbox ? await opts.sandbox() : { available: true }
      const roots = [...(opts.additionalDirectories ?? []), ...(opts.extraRoots ?? [])]
      // The configured hooks path (core.hooksPath) is protected: read it before judging a write.
      if (EDIT_TOOLS.has(tool.name)) await refreshHooksPath(opts.cwd)
      const policy = new PathPolicy({ cwd: opts.cwd, roots, rules, home: opts.home })
      const writable = opts.writableDirs?.()
      const decision = decidePermission({
        mode: opts.mode,
        tool,
        input,
        rules: rules(),
        cwd: opts.cwd,
        additionalDirectories: roots,
        readableDirectories: opts.readableDirectories,
        home: opts.home,
        policy,
        sandbox,
        readOnlyAgent: opts.readOnlyAgent,
        ...(writable?.length ? { writableDirs: writable } : {})
      })
      if (decision.behavior === 'allow') return { behavior: 'allow', ...(decision.sandbox ? { sandbox: decision.sandbox } : {}) }
      if (decision.behavior === 'deny') return deny(decision.message, tool.name)
      const approvedFor = (call: unknown): GateDecision =>
        tool.name === 'Bash' ? { behavior: 'allow', sandbox: approvedSandbox(call, opts.mode, opts.readOnlyAgent === true, sandbox) } : { behavior: 'allow' }
      const request: PermissionRequest = {
        toolName: tool.name,
        input,
        toolUseId,
        reason: decision.reason,
        suggestedRules: decision.suggestedRules,
        ...(decision.commandParts ? { commandParts: decision.commandParts } : {}),
        mode: opts.mode,
        cwd: opts.cwd
      }
      const hooked = decision.protectedPath || !opts.askHook ? null : await opts.askHook(request)
      if (hooked?.behavior === 'deny') return deny(`A PermissionRequest hook denied this ${tool.name} call: ${hooked.message}`, tool.name)
      if (hooked) return hooked.updatedInput ? { ...approvedFor(hooked.updatedInput), updatedInput: hooked.updatedInput } : approvedFor(input)
      if ((opts.headless || !opts.ask) && decision.protectedPath)
        return deny(
          `${tool.name} was denied: ${decision.reason}. No permission mode writes a protected path without a person's approval, and this run has no one to ask. Do not try to change it another way (Bash cannot either); tell the user the change you would make, or they can allow exactly this file with a permissions.allow rule such as ${decision.suggestedRules[0]}.`,
          tool.name
        )
      if (opts.headless || !opts.ask)
        return deny(headlessMessage(tool.name, decision.reason, decision.suggestedRules, opts.mode, rules(), decision.outside === true), tool.name)
      let answer: PermissionAnswer
      try {
        answer = await opts.ask(request)
      } catch (err) {
        return deny(`${tool.name} was not run: the approval request failed (${errorMessage(err)}).`, tool.name)
      }
      const approved = (): GateDecision => approvedFor(input)
      if (answer === 'allow_always') {
        for (const rule of decision.suggestedRules) addSessionRule(rule)
        return approved()
      }
      if (answer === 'allow') return approved()
      return deny(
        `The user denied permission to use ${tool.name} for this call. Do not retry it as is; take another approach or ask the user how to proceed.`,
        tool.name
      )
    },
    forSubagent(child) {
      return makeGate(
        {
          ...opts,
          ...(child.extraAllow?.length ? { rules: mergeRules(opts.rules, { allow: [...child.extraAllow], deny: [], ask: [] }) } : {}),
          mode: effectiveMode(opts.mode, child.definitionMode),
          cwd: child.cwd,
          ask: child.ask ?? opts.ask,
          ...((child.askHook ?? opts.askHook) ? { askHook: child.askHook ?? opts.askHook } : {}),
          headless: child.headless ?? opts.headless,
          readOnlyAgent: child.readOnlyAgent ?? false,
          extraRoots: child.extraRoots ?? [],
          ...(child.writableDirs ? { writableDirs: child.writableDirs } : {})
        },
        session
      )
    }
  }
}

export function createPermissionGate(opts: PermissionGateOptions): PermissionGate {
  return makeGate(opts, { allow: [], deny: [], ask: [] })
}
