// Runs a session's hooks for one agent and reads what they said. Each event gets Claude Code's JSON on stdin:
// session_id, transcript_path, cwd, prompt_id, permission_mode, then agent_id and agent_type for a subagent
// (only agent_type for a main agent started as a definition, neither for the plain main agent, as Claude Code
// sends them), effort in a tool's context, hook_event_name and the event's own fields. Fanout may add fields
// (a subagent's `status`), never rename or drop Claude Code's. Matching hooks run in parallel (the same command once). Exit code 2 is a hook's way of
// saying no (its stderr is the reason); exit 0 with a JSON object on stdout carries decisions and context; any
// other failure (another exit code, a timeout, JSON that does not parse) is reported as an error event with
// the command and its stderr, and the hook is treated as having said nothing: a broken hook is never fatal.
import { randomUuid } from '../random-hex'
import { homedir } from 'node:os'
import { isAbsolute, resolve } from 'node:path'
import { protectHookScripts } from '../security/protected-paths'
import { effortLevel } from '../model/effort'
import { emptyHookTable, matcherMatches, mergeHookTables, parseHooks, TOOL_NAME_ALIASES, type HookCommand, type HookEvent, type HookTable } from './config'
import { runHookCommand, type HookRun } from './run-command'
import { errorMessage } from '../../../shared/error-message'

export interface HookAgent {
  id: string
  agentType: string
  /** Where the agent works (its worktree when isolated): sent as `cwd`. */
  cwd: string
  permissionMode: string
  /** The model and effort it runs with: hooks in a tool's context get `effort: {level}` (models with effort only). */
  model?: string
  effort?: string | number
  definition: { agentType: string; hooks?: unknown; file?: string } | null
}

/** In-flight background work, as Stop and SubagentStop hooks receive it (`background_tasks`). */
export interface BackgroundTask {
  id: string
  type: 'subagent' | 'shell'
  status: string
  description: string
  agent_type?: string
  command?: string
}

export interface HookRunnerOptions {
  sessionId: string
  /** Commands run here, with CLAUDE_PROJECT_DIR set to it. */
  projectDir: string
  /** An error event on this agent. */
  report: (agentId: string, message: string) => void
  /** The agent's transcript file, when the session records one. */
  transcriptPath?: (agentId: string) => string | undefined
  mainAgentId?: string
  env?: Record<string, string | undefined>
  /** The session's background agents still at work, for Stop and SubagentStop. */
  backgroundTasks?: () => BackgroundTask[]
  /** Credential-looking variables the user's settings pass to hook commands anyway. */
  passEnv?: readonly string[]
}

/** What PermissionRequest hooks decided for a call that needed approval; null when none decided. */
export type PermissionHookAnswer = { behavior: 'allow'; updatedInput?: Record<string, unknown> } | { behavior: 'deny'; message: string }

export type PreToolUseOutcome = { decision?: 'allow' | 'deny' | 'ask'; reason?: string; updatedInput?: Record<string, unknown> }

interface HookOutput {
  continue?: boolean
  stopReason?: string
  systemMessage?: unknown
  suppressOutput?: boolean
  decision?: string
  reason?: string
  hookSpecificOutput?: {
    permissionDecision?: string
    permissionDecisionReason?: string
    updatedInput?: unknown
    additionalContext?: unknown
    updatedMCPToolOutput?: unknown
    decision?: { behavior?: unknown; updatedInput?: unknown; message?: unknown }
  }
}

/** What one hook said: nothing (failed, or plain output), a block (exit 2) or a JSON answer; `stdout` as printed on exit 0. */
type Said =
  | { kind: 'json'; out: HookOutput; stdout: string }
  | { kind: 'block'; reason: string; command: string }
  | { kind: 'none'; stdout?: string; failed?: string }

/** Events whose input has no `permission_mode` in Claude Code 2.1.328 (seen in the differential kit). */
const NO_MODE_EVENTS: ReadonlySet<HookEvent> = new Set(['PreCompact', 'PostCompact', 'SessionStart', 'SessionEnd'])

/** A hook answered `"continue": false`: the agent's run ends (Claude Code's hook_stopped), with the hook's stopReason. */
export interface HookHalt {
  event: HookEvent
  reason: string
}

/** What UserPromptSubmit hooks made of a prompt: context for the model, or the reason it is not sent. */
export type PromptOutcome = { context: string[] } | { blocked: string; reason: string } | { stopped: string; reason: string }

/** Events whose input carries `effort` (they fire inside an agent's turn), as in Claude Code. */
const TURN_EVENTS: ReadonlySet<HookEvent> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'SubagentStop',
  'TeammateIdle',
  'TaskCompleted'
])

const reminder = (text: string) => `<system-reminder>\n${text}\n</system-reminder>`
const stderrTail = (text: string) => {
  const t = text.trim()
  return t ? `\n${t.split('\n').slice(-10).join('\n').slice(-2000)}` : ''
}
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

export class HookRunner {
  private settings: HookTable = emptyHookTable()
  private settingsProblems: string[] = []
  private readonly definitionTables = new WeakMap<object, HookTable>()
  /** Set by each prompt the person sends; absent until the first one (Claude Code's `prompt_id`). */
  private promptId: string | undefined
  /** Context SessionStart hooks gave after a compaction, waiting for the agent's next message. */
  private readonly laterContext = new Map<string, string[]>()
  /** Agents a hook told to stop (`continue: false`), until their run takes it. */
  private readonly halts = new Map<string, HookHalt>()

  constructor(private readonly opts: HookRunnerOptions) {}

  /** The hooks of the settings files (from reload); their problems are reported on the next agent that runs. */
  configure(table: HookTable, problems: string[]): void {
    this.settings = table
    this.settingsProblems = problems
  }

  /** Says the configuration's problems (once), on this agent: a file that could not be read is news even if no hook runs. */
  reportProblems(agentId: string): void {
    for (const p of this.settingsProblems.splice(0)) this.opts.report(agentId, `Hook configuration: ${p}`)
  }

  private tableFor(agent: HookAgent): HookTable {
    this.reportProblems(agent.id)
    const def = agent.definition
    if (!def || def.hooks === undefined) return this.settings
    let own = this.definitionTables.get(def)
    if (!own) {
      const parsed = parseHooks(def.hooks, def.file ?? `agent ${def.agentType}`, true)
      for (const p of parsed.problems) this.opts.report(agent.id, `Hook configuration: ${p}`)
      own = parsed.table
      this.definitionTables.set(def, own)
      // Its hooks' scripts are protected from then on, like the settings' (security/protected-paths.ts).
      const commands = Object.values(own).flatMap((matchers) => matchers.flatMap((m) => m.hooks.map((h) => h.command)))
      protectHookScripts(def, commands, this.opts.projectDir, homedir())
    }
    return mergeHookTables(this.settings, own)
  }

  /** True when some hook of this event could match (lets callers skip work when none is configured). */
  has(event: HookEvent, agent: HookAgent): boolean {
    return this.tableFor(agent)[event].length > 0
  }

  /** A new prompt from the person: the events it leads to share a fresh `prompt_id`. */
  newPrompt(): void {
    this.promptId = randomUuid()
  }

  /** The fields every event starts with (Claude Code's order). */
  private base(event: HookEvent, agent: HookAgent): Record<string, unknown> {
    const isMain = this.opts.mainAgentId === undefined ? false : agent.id === this.opts.mainAgentId
    const transcript = this.opts.transcriptPath?.(this.opts.mainAgentId ?? agent.id)
    const level = TURN_EVENTS.has(event) && agent.model ? effortLevel(agent.model, agent.effort) : undefined
    return {
      session_id: this.opts.sessionId,
      ...(transcript ? { transcript_path: transcript } : {}),
      cwd: agent.cwd,
      ...(this.promptId ? { prompt_id: this.promptId } : {}),
      ...(NO_MODE_EVENTS.has(event) ? {} : { permission_mode: agent.permissionMode }),
      ...(isMain ? (agent.definition ? { agent_type: agent.definition.agentType } : {}) : { agent_id: agent.id, agent_type: agent.agentType }),
      ...(level ? { effort: { level } } : {}),
      hook_event_name: event
    }
  }

  private async run(event: HookEvent, agent: HookAgent, matchOn: string | null, fields: Record<string, unknown>): Promise<Said[]> {
    const commands = new Map<string, HookCommand>()
    const aliases = matchOn === null ? [] : (TOOL_NAME_ALIASES[matchOn] ?? [])
    for (const m of this.tableFor(agent)[event])
      if (matchOn === null || matcherMatches(m.matcher, matchOn, aliases)) for (const h of m.hooks) if (!commands.has(h.command)) commands.set(h.command, h)
    if (!commands.size) return []
    const input = { ...this.base(event, agent), ...fields }
    return Promise.all(
      [...commands.values()].map(async (hook) => {
        const run = await runHookCommand({
          command: hook.command,
          input,
          projectDir: this.opts.projectDir,
          timeoutMs: hook.timeoutSec * 1000,
          ...(this.opts.env ? { env: this.opts.env } : {}),
          ...(this.opts.passEnv ? { passEnv: this.opts.passEnv } : {})
        })
        return this.read(event, agent, hook, run)
      })
    ).then((said) => this.common(event, agent, said))
  }

  /** The fields every event's JSON may carry: `continue: false` ends the agent's run, `systemMessage` is shown to the person. */
  private common(event: HookEvent, agent: HookAgent, said: Said[]): Said[] {
    for (const s of said) {
      if (s.kind !== 'json') continue
      if (typeof s.out.systemMessage === 'string' && s.out.systemMessage.trim()) this.opts.report(agent.id, `${event} hook says: ${s.out.systemMessage.trim()}`)
      if (s.out.continue === false && !this.halts.has(agent.id))
        this.halts.set(agent.id, { event, reason: typeof s.out.stopReason === 'string' ? s.out.stopReason : '' })
    }
    return said
  }

  /** A `continue: false` a hook gave for this agent since it was last asked (the loop ends the run after the turn's tools). */
  takeHalt(agentId: string): HookHalt | null {
    const halt = this.halts.get(agentId) ?? null
    this.halts.delete(agentId)
    return halt
  }

  /**
   * SessionStart (`source`: startup, resume, clear or compact; matchers match it): context for the main agent's
   * next message, from `additionalContext` or, as Claude Code takes it, plain stdout.
   */
  async sessionStart(agent: HookAgent, source: 'startup' | 'resume' | 'clear' | 'compact'): Promise<string[]> {
    const said = await this.run('SessionStart', agent, source, { source })
    this.halts.delete(agent.id) // a session cannot be kept from starting
    return contextOf(said, 'SessionStart', `SessionStart:${source}`)
  }

  /**
   * UserPromptSubmit, for a prompt the person sent: a block (exit 2, `decision: "block"`) or `continue: false`
   * keeps it from the model; else context for the model from `additionalContext` or plain stdout.
   */
  async userPromptSubmit(agent: HookAgent, prompt: string): Promise<PromptOutcome> {
    const said = await this.run('UserPromptSubmit', agent, null, { prompt })
    const halt = this.takeHalt(agent.id)
    if (halt) return { stopped: `Operation stopped by hook: ${halt.reason}`, reason: halt.reason }
    const reasons: string[] = []
    const blocks = said.flatMap((s) => {
      if (s.kind === 'block') return (reasons.push(s.reason), [`[${s.command}]: ${s.reason}`])
      if (s.kind !== 'json' || s.out.decision !== 'block') return []
      const reason = typeof s.out.reason === 'string' && s.out.reason.trim() ? s.out.reason.trim() : 'a UserPromptSubmit hook blocked it'
      return (reasons.push(reason), [reason])
    })
    if (blocks.length)
      return { blocked: `UserPromptSubmit operation blocked by hook:\n${blocks.join('\n')}\n\nOriginal prompt: ${prompt}`, reason: reasons.join('\n') }
    return { context: contextOf(said, 'UserPromptSubmit', 'UserPromptSubmit') }
  }

  /** After a compaction of the main agent's conversation: SessionStart with source "compact", its context kept for the agent's next message. */
  async afterCompaction(agent: HookAgent): Promise<void> {
    if (agent.id !== this.opts.mainAgentId) return
    const context = await this.sessionStart(agent, 'compact')
    if (context.length) this.laterContext.set(agent.id, [...(this.laterContext.get(agent.id) ?? []), ...context])
  }

  /** The context waiting for this agent's next message (afterCompaction), once. */
  takeContext(agentId: string): string[] {
    const context = this.laterContext.get(agentId) ?? []
    this.laterContext.delete(agentId)
    return context
  }

  /** SessionEnd, as the session closes (`reason`: clear, logout, prompt_input_exit, other); what it prints is not read. */
  async sessionEnd(agent: HookAgent, reason: string): Promise<void> {
    await this.run('SessionEnd', agent, reason, { reason })
  }

  private read(event: HookEvent, agent: HookAgent, hook: HookCommand, run: HookRun): Said {
    const name = `${event} hook \`${hook.command}\` (${hook.source})`
    const fail = (why: string): Said => {
      this.opts.report(agent.id, `${name} ${why}; it was ignored.${stderrTail(run.stderr)}`)
      return { kind: 'none', failed: `${why}${stderrTail(run.stderr)}` }
    }
    if (run.spawnError) return fail(`could not be started: ${run.spawnError}`)
    if (run.timedOut) return fail(`did not finish within its ${hook.timeoutSec} s timeout and was stopped`)
    if (run.exitCode === 2)
      return { kind: 'block', reason: run.stderr.trim() || `${event} hook \`${hook.command}\` exited with code 2.`, command: hook.command }
    if (run.exitCode !== 0) return fail(`failed with exit code ${run.exitCode}`)
    const out = run.stdout.trim()
    if (!out.startsWith('{')) return { kind: 'none', stdout: run.stdout }
    try {
      const json: unknown = JSON.parse(out)
      if (!isObject(json)) return fail('printed JSON that is not an object')
      return { kind: 'json', out: json as HookOutput, stdout: run.stdout }
    } catch (err) {
      return fail(`printed output that starts like JSON but does not parse (${errorMessage(err)})`)
    }
  }

  /** SubagentStart: context the hooks add, each wrapped as a system reminder for the agent's first message. */
  async subagentStart(agent: HookAgent): Promise<string[]> {
    const said = await this.run('SubagentStart', agent, agent.agentType, {})
    const out: string[] = []
    for (const s of said) {
      if (s.kind === 'block') this.opts.report(agent.id, `A SubagentStart hook exited with code 2 (SubagentStart hooks cannot stop an agent): ${s.reason}`)
      const ctx = s.kind === 'json' ? s.out.hookSpecificOutput?.additionalContext : undefined
      if (typeof ctx === 'string' && ctx.trim()) out.push(reminder(`SubagentStart hook additional context: ${ctx.trim()}`))
    }
    return out
  }

  /** SubagentStop: the reason to keep going when a hook blocks the agent from finishing, else null. */
  async subagentStop(agent: HookAgent, info: { stopHookActive: boolean; lastMessage: string; status: string }): Promise<string | null> {
    const transcript = this.opts.transcriptPath?.(agent.id)
    const said = await this.run('SubagentStop', agent, agent.agentType, {
      stop_hook_active: info.stopHookActive,
      ...(transcript ? { agent_transcript_path: transcript } : {}),
      last_assistant_message: info.lastMessage,
      background_tasks: this.opts.backgroundTasks?.() ?? [],
      session_crons: [],
      status: info.status
    })
    return continueReasons(said, 'A SubagentStop hook asked you to continue before finishing.')
  }

  /** Stop: the main agent would finish its answer; the reason to keep going when a hook blocks, else null. */
  async stop(agent: HookAgent, info: { stopHookActive: boolean; lastMessage: string }): Promise<string | null> {
    const said = await this.run('Stop', agent, null, {
      stop_hook_active: info.stopHookActive,
      last_assistant_message: info.lastMessage,
      background_tasks: this.opts.backgroundTasks?.() ?? [],
      session_crons: []
    })
    return continueReasons(said, 'A Stop hook asked you to continue before finishing.')
  }

  /** TeammateIdle: a team member is about to go idle; the feedback that keeps it working when a hook blocks, else null. */
  async teammateIdle(agent: HookAgent, teammateName: string, teamName: string): Promise<string | null> {
    const said = await this.run('TeammateIdle', agent, null, { teammate_name: teammateName, team_name: teamName })
    if (said.some((s) => s.kind === 'json' && s.out.continue === false)) return null
    return continueReasons(said, 'A TeammateIdle hook asked you to keep working.')
  }

  /** TaskCompleted: a task is about to be marked completed; why it may not be (a hook blocked it), else null. */
  async taskCompleted(
    agent: HookAgent,
    task: { id: string; subject: string; description?: string },
    teamName: string,
    teammateName?: string
  ): Promise<string | null> {
    const said = await this.run('TaskCompleted', agent, null, {
      task_id: task.id,
      task_subject: task.subject,
      ...(task.description ? { task_description: task.description } : {}),
      ...(teammateName ? { teammate_name: teammateName } : {}),
      team_name: teamName
    })
    return continueReasons(said, 'A TaskCompleted hook did not let this task be marked completed.')
  }

  /** Notification: fire and forget (what the hooks print is not read); `type` is what matchers match. */
  async notification(agent: HookAgent, type: string, message: string, title?: string): Promise<void> {
    await this.run('Notification', agent, type, { message, ...(title ? { title } : {}), notification_type: type })
  }

  /**
   * WorktreeCreate: hooks that make the worktree themselves (another VCS, a custom layout) print its path on
   * stdout. Null when none is configured (Fanout makes a git worktree); else the path (relative paths are
   * resolved against the project folder), or why it could not be made.
   */
  async worktreeCreate(agent: HookAgent, name: string): Promise<{ path: string } | { error: string } | null> {
    if (!this.has('WorktreeCreate', agent)) return null
    const said = await this.run('WorktreeCreate', agent, null, { name })
    const failed = said.flatMap((s) => (s.kind === 'block' ? [`exited with code 2: ${s.reason}`] : s.kind === 'none' && s.failed ? [s.failed] : []))
    if (failed.length) return { error: `WorktreeCreate hook failed: ${failed.join('; ')}` }
    for (const s of said) {
      const fromJson = s.kind === 'json' ? (s.out.hookSpecificOutput as { worktreePath?: unknown } | undefined)?.worktreePath : undefined
      const printed = typeof fromJson === 'string' ? fromJson : s.kind !== 'block' ? (s.stdout ?? '').trim().split('\n').pop()?.trim() : undefined
      if (printed) return { path: isAbsolute(printed) ? printed : resolve(this.opts.projectDir, printed) }
    }
    return {
      error:
        'WorktreeCreate hook failed: it succeeded but printed no worktree path (a WorktreeCreate command prints the absolute path of the folder it made on stdout)'
    }
  }

  /** WorktreeRemove, for a worktree a WorktreeCreate hook made: null when none is configured, else whether it failed. */
  async worktreeRemove(agent: HookAgent, path: string): Promise<{ removed: true } | { error: string } | null> {
    if (!this.has('WorktreeRemove', agent)) return null
    const said = await this.run('WorktreeRemove', agent, null, { worktree_path: path })
    const failed = said.flatMap((s) => (s.kind === 'block' ? [`exited with code 2: ${s.reason}`] : s.kind === 'none' && s.failed ? [s.failed] : []))
    return failed.length ? { error: `WorktreeRemove hook failed: ${failed.join('; ')}` } : { removed: true }
  }

  /**
   * PreCompact, before a conversation is summarised (`trigger` is what matchers match): what the hooks printed
   * on success is added to the summary's instructions, as Claude Code does for its own conversation (a
   * subagent's hooks may only block); exit 2 or `decision: "block"` blocks the compaction, with the reasons.
   */
  async preCompact(
    agent: HookAgent,
    trigger: 'manual' | 'auto',
    customInstructions: string | undefined
  ): Promise<{ instructions?: string; blockedBy?: string }> {
    const said = await this.run('PreCompact', agent, trigger, { trigger, custom_instructions: customInstructions ?? null })
    const isMain = agent.id === this.opts.mainAgentId
    const printed = isMain ? said.flatMap((s) => (s.kind === 'none' && !s.failed && s.stdout?.trim() ? [s.stdout.trim()] : [])) : []
    const blockedBy = continueReasons(said, 'a PreCompact hook blocked it')
    return { ...(printed.length ? { instructions: printed.join('\n\n') } : {}), ...(blockedBy ? { blockedBy } : {}) }
  }

  /** PostCompact, after a compaction of the main agent's conversation (Claude Code runs none for a subagent's): told the summary; what it prints is not read. */
  async postCompact(agent: HookAgent, trigger: 'manual' | 'auto', summary: string): Promise<void> {
    if (agent.id !== this.opts.mainAgentId) return
    await this.run('PostCompact', agent, trigger, { trigger, compact_summary: summary })
  }

  /** PreToolUse: deny wins over ask over allow; the last updatedInput given is used. */
  async preToolUse(agent: HookAgent, toolName: string, input: unknown, toolUseId: string): Promise<PreToolUseOutcome> {
    const said = await this.run('PreToolUse', agent, toolName, { tool_name: toolName, tool_input: input, tool_use_id: toolUseId })
    const outcome: PreToolUseOutcome = {}
    const rank = { allow: 1, ask: 2, deny: 3 } as const
    const decide = (d: 'allow' | 'ask' | 'deny', reason?: string) => {
      if (!outcome.decision || rank[d] > rank[outcome.decision]) {
        outcome.decision = d
        if (reason) outcome.reason = reason
        else delete outcome.reason
      }
    }
    for (const s of said) {
      if (s.kind === 'block') decide('deny', s.reason)
      if (s.kind !== 'json') continue
      const h = s.out.hookSpecificOutput
      const d = h?.permissionDecision ?? (s.out.decision === 'approve' ? 'allow' : s.out.decision === 'block' ? 'deny' : undefined)
      const reason = typeof h?.permissionDecisionReason === 'string' ? h.permissionDecisionReason : typeof s.out.reason === 'string' ? s.out.reason : undefined
      if (d === 'allow' || d === 'ask' || d === 'deny') decide(d, reason)
      else if (d !== undefined)
        this.opts.report(agent.id, `A PreToolUse hook answered permissionDecision ${JSON.stringify(d)}; expected "allow", "deny" or "ask". It was ignored.`)
      if (isObject(h?.updatedInput)) outcome.updatedInput = h.updatedInput
    }
    return outcome
  }

  /**
   * PermissionRequest: a call needs approval (Claude Code fires it after PreToolUse, where it would ask, in -p
   * too). `hookSpecificOutput.decision.behavior` "allow" (with an optional updatedInput) or "deny" (with its
   * message) answers in the person's place, and exit 2 denies with stderr; deny wins. Null: no hook decided,
   * the call is asked (or, headless, denied) as usual.
   */
  async permissionRequest(agent: HookAgent, toolName: string, input: unknown, suggestedRules: readonly string[]): Promise<PermissionHookAnswer | null> {
    const said = await this.run('PermissionRequest', agent, toolName, {
      tool_name: toolName,
      tool_input: input,
      permission_suggestions: suggestedRules.length
        ? [{ type: 'addRules', rules: suggestedRules.map(ruleValue), behavior: 'allow', destination: 'session' }]
        : []
    })
    let answer: PermissionHookAnswer | null = null
    for (const s of said) {
      if (s.kind === 'block') return { behavior: 'deny', message: s.reason }
      const d = s.kind === 'json' ? s.out.hookSpecificOutput?.decision : undefined
      if (!isObject(d)) continue
      if (d.behavior === 'deny')
        return { behavior: 'deny', message: typeof d.message === 'string' && d.message.trim() ? d.message.trim() : 'A PermissionRequest hook denied it.' }
      if (d.behavior === 'allow') answer = { behavior: 'allow', ...(isObject(d.updatedInput) ? { updatedInput: d.updatedInput } : {}) }
      else this.opts.report(agent.id, `A PermissionRequest hook answered behavior ${JSON.stringify(d.behavior)}; expected "allow" or "deny". It was ignored.`)
    }
    return answer
  }

  /** PostToolUseFailure: a call failed (`error` is what the model was told); feedback and context for the model. */
  async postToolUseFailure(
    agent: HookAgent,
    toolName: string,
    input: unknown,
    toolUseId: string,
    failure: { error: string; isInterrupt: boolean; durationMs: number }
  ): Promise<string[]> {
    const said = await this.run('PostToolUseFailure', agent, toolName, {
      tool_name: toolName,
      tool_input: input,
      tool_use_id: toolUseId,
      error: failure.error,
      is_interrupt: failure.isInterrupt,
      duration_ms: failure.durationMs
    })
    return feedback(said, 'PostToolUseFailure')
  }

  /** PostToolUse: feedback and context for the model, and (MCP tools) a replacement for the tool's output. */
  async postToolUse(
    agent: HookAgent,
    toolName: string,
    input: unknown,
    response: unknown,
    toolUseId: string,
    durationMs?: number
  ): Promise<{ notes: string[]; replaceOutput?: string }> {
    const said = await this.run('PostToolUse', agent, toolName, {
      tool_name: toolName,
      tool_input: input,
      tool_response: response,
      tool_use_id: toolUseId,
      ...(durationMs !== undefined ? { duration_ms: durationMs } : {})
    })
    const notes = feedback(said, 'PostToolUse')
    let replaceOutput: string | undefined
    for (const s of said) {
      if (s.kind !== 'json') continue
      const replaced = s.out.hookSpecificOutput?.updatedMCPToolOutput
      if (replaced !== undefined && toolName.startsWith('mcp__')) replaceOutput = typeof replaced === 'string' ? replaced : JSON.stringify(replaced)
    }
    return { notes, ...(replaceOutput !== undefined ? { replaceOutput } : {}) }
  }
}

/** `Bash(npm test:*)` as Claude Code's permission suggestion names it: `{toolName, ruleContent}`. */
function ruleValue(rule: string): { toolName: string; ruleContent?: string } {
  const m = rule.match(/^([^(]+)\((.*)\)$/s)
  return m ? { toolName: m[1], ruleContent: m[2] } : { toolName: rule }
}

/** Context for the model: `additionalContext` (JSON) or plain stdout (exit 0), as Claude Code words each. */
function contextOf(said: Said[], event: string, label: string): string[] {
  const out: string[] = []
  for (const s of said) {
    const ctx = s.kind === 'json' ? s.out.hookSpecificOutput?.additionalContext : undefined
    if (typeof ctx === 'string' && ctx.trim()) out.push(reminder(`${event} hook additional context: ${ctx.trim()}`))
    if (s.kind === 'none' && !s.failed && s.stdout?.trim()) out.push(reminder(`${label} hook success: ${s.stdout.trim()}`))
  }
  return out
}

/** Reasons hooks gave to go on (exit 2, or `decision: "block"`), joined; null when none blocked. */
function continueReasons(said: Said[], fallback: string): string | null {
  const reasons: string[] = []
  for (const s of said) {
    if (s.kind === 'block') reasons.push(s.reason)
    else if (s.kind === 'json' && (s.out.decision === 'block' || s.out.decision === 'deny'))
      reasons.push(typeof s.out.reason === 'string' && s.out.reason.trim() ? s.out.reason.trim() : fallback)
  }
  return reasons.length ? reasons.join('\n') : null
}

/** A PostToolUse-like hook's feedback (exit 2, `decision: "block"`) and added context, as reminders for the model. */
function feedback(said: Said[], event: string): string[] {
  const notes: string[] = []
  for (const s of said) {
    if (s.kind === 'block') notes.push(reminder(`${event} hook feedback: ${s.reason}`))
    if (s.kind !== 'json') continue
    if (s.out.decision === 'block')
      notes.push(reminder(`${event} hook feedback: ${typeof s.out.reason === 'string' ? s.out.reason : `a ${event} hook objected to this result`}`))
    const ctx = s.out.hookSpecificOutput?.additionalContext
    if (typeof ctx === 'string' && ctx.trim()) notes.push(reminder(`${event} hook additional context: ${ctx.trim()}`))
  }
  return notes
}
