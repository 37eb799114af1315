// The permission gate an agent loop calls before every tool call: decides, asks a person when it must (or,
// headless, denies with a reason that says how to allow it next time), and remembers "allow always" answers as
// session rules shared with every agent of the session.
import type { PermissionMode } from '../../../shared/agent-definition'
import { PathPolicy } from '../security/path-policy'
import type { SandboxLevel } from '../tools/define-tool'
import { approvedSandbox, decidePermission, type SandboxState } from './decide'
import { effectiveMode } from './mode'
import { mergeRules, parseRule, type PermissionRules, type RuleBehavior } from './rules'

export type PermissionAnswer = 'allow' | 'allow_always' | 'deny'

export interface PermissionRequest {
  toolName: string
  input: unknown
  toolUseId: string
  /** Why approval is needed, for a person. */
  reason: string
  /** What "allow always" would add, e.g. `Bash(npm run test:*)`. */
  suggestedRules: string[]
  mode: PermissionMode
  cwd: string
}

export type AskFn = (req: PermissionRequest) => Promise<PermissionAnswer>

export type GateDecision = { behavior: 'allow'; sandbox?: SandboxLevel } | { behavior: 'deny'; message: string }

export interface PermissionGateOptions {
  mode: PermissionMode
  rules: PermissionRules
  cwd: string
  /** Asks a person (the app, or the parent's watcher for `bubble`). Absent: behaves as headless. */
  ask?: AskFn
  headless?: boolean
  additionalDirectories?: string[]
  /** Directories whose files may be read without asking (never edited). */
  readableDirectories?: string[]
  home?: string
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
  forSubagent(opts: { definitionMode?: PermissionMode; cwd: string; ask?: AskFn; headless?: boolean; readOnlyAgent?: boolean; extraRoots?: string[] }): PermissionGate
}

function headlessMessage(toolName: string, reason: string, suggested: string[]): string {
  const flag = toolName === 'Edit' || toolName === 'Write' || toolName === 'NotebookEdit' ? 'acceptEdits' : 'bypassPermissions'
  const example = suggested[0] ?? toolName
  return `${toolName} needs approval and this run is headless, so it was denied (${reason}). Allow it with --permission-mode ${flag} (or bypassPermissions), or a permissions.allow rule like ${example} in .claude/settings.json.`
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
      const policy = new PathPolicy({ cwd: opts.cwd, roots, rules, home: opts.home })
      const decision = decidePermission({ mode: opts.mode, tool, input, rules: rules(), cwd: opts.cwd, additionalDirectories: roots, readableDirectories: opts.readableDirectories, home: opts.home, policy, sandbox, readOnlyAgent: opts.readOnlyAgent })
      if (decision.behavior === 'allow') return { behavior: 'allow', ...(decision.sandbox ? { sandbox: decision.sandbox } : {}) }
      if (decision.behavior === 'deny') return deny(decision.message, tool.name)
      if (opts.headless || !opts.ask) return deny(headlessMessage(tool.name, decision.reason, decision.suggestedRules), tool.name)
      let answer: PermissionAnswer
      try {
        answer = await opts.ask({ toolName: tool.name, input, toolUseId, reason: decision.reason, suggestedRules: decision.suggestedRules, mode: opts.mode, cwd: opts.cwd })
      } catch (err) {
        return deny(`${tool.name} was not run: the approval request failed (${err instanceof Error ? err.message : String(err)}).`, tool.name)
      }
      const approved = (): GateDecision =>
        tool.name === 'Bash' ? { behavior: 'allow', sandbox: approvedSandbox(input, opts.mode, opts.readOnlyAgent === true, sandbox) } : { behavior: 'allow' }
      if (answer === 'allow_always') {
        for (const rule of decision.suggestedRules) addSessionRule(rule)
        return approved()
      }
      if (answer === 'allow') return approved()
      return deny(`The user denied permission to use ${tool.name} for this call. Do not retry it as is; take another approach or ask the user how to proceed.`, tool.name)
    },
    forSubagent(child) {
      return makeGate(
        {
          ...opts,
          mode: effectiveMode(opts.mode, child.definitionMode),
          cwd: child.cwd,
          ask: child.ask ?? opts.ask,
          headless: child.headless ?? opts.headless,
          readOnlyAgent: child.readOnlyAgent ?? false,
          extraRoots: child.extraRoots ?? []
        },
        session
      )
    }
  }
}

export function createPermissionGate(opts: PermissionGateOptions): PermissionGate {
  return makeGate(opts, { allow: [], deny: [], ask: [] })
}
