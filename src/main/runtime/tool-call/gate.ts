// Steps 3-6 of a tool call for one agent (tool-call/pipeline.ts): 3 rules and 4 mode (permissions/decide.ts),
// 5 ask — a PermissionRequest hook in the person's place, else the person (person-queue.ts), else, headless, a
// denial that says how to allow it next time —, 6 sandbox (which one an approved Bash call runs in). "Allow
// always" answers become session rules shared with every agent of the session.
import type { PermissionMode } from '../../../shared/agent-definition'
import type { CommandPart } from '../../../shared/events'
import type { PermissionAnswer } from '../../../shared/permission-answer'
import { errorMessage } from '../../../shared/error-message'
import { approvedSandbox, decidePermission, type SandboxState } from '../permissions/decide'
import { effectiveMode } from '../permissions/mode'
import { mergeRules, parseRule, type PermissionRule, type PermissionRules, type RuleBehavior } from '../permissions/rules'
import { PathPolicy } from '../security/path-policy'
import { refreshHooksPath } from '../security/protected-paths'
import { personDenied, type AllowVerdict, type AskVerdict, type CallVerdict, type FinalVerdict } from './verdict'

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
  /** A PreToolUse hook asked, not the rules: no rule can answer it, and "Always allow" elsewhere never settles it. */
  byHook?: boolean
}

export type AskFn = (req: PermissionRequest) => Promise<PermissionAnswer>

/** An answer given in the person's place (PermissionRequest hooks), or null to ask as usual. */
export type AskHookAnswer = { behavior: 'allow'; updatedInput?: Record<string, unknown> } | { behavior: 'deny'; message: string }
export type AskHook = (req: PermissionRequest) => Promise<AskHookAnswer | null>

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
  /** Told about every denial of the rules, the mode or the ask step (e.g. the CLI prints them to stderr). */
  onDenied?: (message: string, toolName: string, call: { input: unknown; toolUseId: string }) => void
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
  /** Steps 3-6 for a call no PreToolUse hook answered. */
  canUseTool(tool: { name: string; readOnly?: boolean }, input: unknown, toolUseId: string): Promise<FinalVerdict>
  /** Step 5 for a call a PreToolUse hook asked about, whatever the rules say; denied where nobody can answer. */
  askAbout(tool: { name: string }, input: unknown, toolUseId: string, asked: AskVerdict): Promise<FinalVerdict>
  /** A deny rule covering this call, even in bypass mode (a PreToolUse hook's "allow" skips the ask, never a deny rule). */
  ruleDenial(tool: { name: string; readOnly?: boolean }, input: unknown): string | null
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
    onDenied?: PermissionGateOptions['onDenied']
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
  const nobody = () => opts.headless || !opts.ask
  const request = (tool: { name: string }, input: unknown, toolUseId: string, asked: AskVerdict): PermissionRequest => ({
    toolName: tool.name,
    input,
    toolUseId,
    reason: asked.reason,
    suggestedRules: asked.suggestedRules,
    ...(asked.commandParts ? { commandParts: asked.commandParts } : {}),
    mode: opts.mode,
    cwd: opts.cwd,
    ...(asked.byHook ? { byHook: true } : {})
  })

  /** Step 5 for a call the rules or the mode put to the person; `approved` is step 6 (the sandbox). */
  const askStep = async (
    tool: { name: string },
    input: unknown,
    toolUseId: string,
    asked: AskVerdict,
    approved: (call: unknown) => AllowVerdict
  ): Promise<CallVerdict> => {
    const req = request(tool, input, toolUseId, asked)
    const hooked = asked.protectedPath || !opts.askHook ? null : await opts.askHook(req)
    if (hooked?.behavior === 'deny') return { behavior: 'deny', message: `A PermissionRequest hook denied this ${tool.name} call: ${hooked.message}` }
    if (hooked) return hooked.updatedInput ? { ...approved(hooked.updatedInput), updatedInput: hooked.updatedInput } : approved(input)
    if (nobody() && asked.byHook)
      return {
        behavior: 'deny',
        message: `${tool.name} was not run: a PreToolUse hook asked for approval (${asked.reason}), and nobody can answer in this run.`
      }
    if (nobody() && asked.protectedPath)
      return {
        behavior: 'deny',
        message: `${tool.name} was denied: ${asked.reason}. No permission mode writes a protected path without a person's approval, and this run has no one to ask. Do not try to change it another way (Bash cannot either); tell the user the change you would make, or they can allow exactly this file with a permissions.allow rule such as ${asked.suggestedRules[0]}.`
      }
    if (nobody())
      return { behavior: 'deny', message: headlessMessage(tool.name, asked.reason, asked.suggestedRules, opts.mode, rules(), asked.outside === true) }
    let answer: PermissionAnswer
    try {
      answer = await opts.ask!(req)
    } catch (err) {
      return { behavior: 'deny', message: `${tool.name} was not run: the approval request failed (${errorMessage(err)}).` }
    }
    if (answer.decision === 'deny') return { behavior: 'deny', message: personDenied(tool.name, answer.feedback) }
    if (answer.decision === 'allow_always') for (const rule of asked.suggestedRules) addSessionRule(rule)
    const feedback = answer.feedback?.trim()
    return { ...approved(input), ...(feedback ? { feedback } : {}) }
  }

  const final = (verdict: CallVerdict, tool: { name: string }, call: { input: unknown; toolUseId: string }): FinalVerdict => {
    if (verdict.behavior === 'deny') {
      opts.onDenied?.(verdict.message, tool.name, call)
      return verdict
    }
    if (verdict.behavior === 'allow') return verdict
    throw new Error(`The permission gate ended on ${verdict.behavior}`)
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
      // Steps 3 and 4: deny rules, the agent's memory, the mode, ask rules, allow rules, the defaults.
      const decided = decidePermission({
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
      const call = { input, toolUseId }
      if (decided.behavior === 'allow') return { behavior: 'allow', ...(decided.sandbox ? { sandbox: decided.sandbox } : {}) }
      if (decided.behavior !== 'ask') return final(decided, tool, call)
      // Step 6 once approved: the sandbox an approved Bash call runs in.
      const approved = (approvedInput: unknown): AllowVerdict =>
        tool.name === 'Bash'
          ? { behavior: 'allow', sandbox: approvedSandbox(approvedInput, opts.mode, opts.readOnlyAgent === true, sandbox) }
          : { behavior: 'allow' }
      return final(await askStep(tool, input, toolUseId, decided, approved), tool, call)
    },
    async askAbout(tool, input, toolUseId, asked) {
      // As Claude Code: a call a hook asked about runs as the tool's own default once approved.
      const verdict = await askStep(tool, input, toolUseId, { ...asked, suggestedRules: [], byHook: true }, () => ({ behavior: 'allow' }))
      if (verdict.behavior === 'allow') return verdict
      if (verdict.behavior === 'deny') return verdict
      throw new Error(`The permission gate ended on ${verdict.behavior}`)
    },
    ruleDenial(tool, input) {
      const d = decidePermission({
        mode: 'bypassPermissions',
        tool,
        input,
        rules: rules(),
        cwd: opts.cwd,
        additionalDirectories: opts.additionalDirectories,
        home: opts.home
      })
      return d.behavior === 'deny' ? d.message : null
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
          ...((child.onDenied ?? opts.onDenied) ? { onDenied: child.onDenied ?? opts.onDenied } : {}),
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
