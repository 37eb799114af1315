// Runs a session's hooks for one agent and reads what they said. Each event gets Claude Code's JSON on stdin
// (session_id, transcript_path, cwd, permission_mode, hook_event_name, plus agent_id and agent_type, plus the
// event's own fields). Matching hooks run in parallel (the same command once). Exit code 2 is a hook's way of
// saying no (its stderr is the reason); exit 0 with a JSON object on stdout carries decisions and context; any
// other failure (another exit code, a timeout, JSON that does not parse) is reported as an error event with
// the command and its stderr, and the hook is treated as having said nothing: a broken hook is never fatal.
import { emptyHookTable, matcherMatches, mergeHookTables, parseHooks, type HookCommand, type HookEvent, type HookTable } from './config'
import { runHookCommand, type HookRun } from './run-command'

export interface HookAgent {
  id: string
  agentType: string
  /** Where the agent works (its worktree when isolated): sent as `cwd`. */
  cwd: string
  permissionMode: string
  definition: { agentType: string; hooks?: unknown; file?: string } | null
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
  /** Credential-looking variables the user's settings pass to hook commands anyway. */
  passEnv?: readonly string[]
}

export type PreToolUseOutcome = { decision?: 'allow' | 'deny' | 'ask'; reason?: string; updatedInput?: Record<string, unknown> }

interface HookOutput {
  decision?: string
  reason?: string
  hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string; updatedInput?: unknown; additionalContext?: unknown; updatedMCPToolOutput?: unknown }
}

/** What one hook said: nothing (failed, or plain output), a block (exit 2) or a JSON answer. */
type Said = { kind: 'json'; out: HookOutput } | { kind: 'block'; reason: string } | { kind: 'none' }

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

  constructor(private readonly opts: HookRunnerOptions) {}

  /** The hooks of the settings files (from reload); their problems are reported on the next agent that runs. */
  configure(table: HookTable, problems: string[]): void {
    this.settings = table
    this.settingsProblems = problems
  }

  private tableFor(agent: HookAgent): HookTable {
    if (this.settingsProblems.length) {
      for (const p of this.settingsProblems.splice(0)) this.opts.report(agent.id, `Hook configuration: ${p}`)
    }
    const def = agent.definition
    if (!def || def.hooks === undefined) return this.settings
    let own = this.definitionTables.get(def)
    if (!own) {
      const parsed = parseHooks(def.hooks, def.file ?? `agent ${def.agentType}`, true)
      for (const p of parsed.problems) this.opts.report(agent.id, `Hook configuration: ${p}`)
      own = parsed.table
      this.definitionTables.set(def, own)
    }
    return mergeHookTables(this.settings, own)
  }

  /** True when some hook of this event could match (lets callers skip work when none is configured). */
  has(event: HookEvent, agent: HookAgent): boolean {
    return this.tableFor(agent)[event].length > 0
  }

  private async run(event: HookEvent, agent: HookAgent, matchOn: string, fields: Record<string, unknown>): Promise<Said[]> {
    const commands = new Map<string, HookCommand>()
    for (const m of this.tableFor(agent)[event]) if (matcherMatches(m.matcher, matchOn)) for (const h of m.hooks) if (!commands.has(h.command)) commands.set(h.command, h)
    if (!commands.size) return []
    const transcript = this.opts.transcriptPath?.(this.opts.mainAgentId ?? agent.id)
    const input = {
      session_id: this.opts.sessionId,
      ...(transcript ? { transcript_path: transcript } : {}),
      cwd: agent.cwd,
      permission_mode: agent.permissionMode,
      hook_event_name: event,
      agent_id: agent.id,
      agent_type: agent.agentType,
      ...fields
    }
    return Promise.all(
      [...commands.values()].map(async (hook) => {
        const run = await runHookCommand({ command: hook.command, input, projectDir: this.opts.projectDir, timeoutMs: hook.timeoutSec * 1000, ...(this.opts.env ? { env: this.opts.env } : {}), ...(this.opts.passEnv ? { passEnv: this.opts.passEnv } : {}) })
        return this.read(event, agent, hook, run)
      })
    )
  }

  private read(event: HookEvent, agent: HookAgent, hook: HookCommand, run: HookRun): Said {
    const name = `${event} hook \`${hook.command}\` (${hook.source})`
    const fail = (why: string): Said => {
      this.opts.report(agent.id, `${name} ${why}; it was ignored.${stderrTail(run.stderr)}`)
      return { kind: 'none' }
    }
    if (run.spawnError) return fail(`could not be started: ${run.spawnError}`)
    if (run.timedOut) return fail(`did not finish within its ${hook.timeoutSec} s timeout and was stopped`)
    if (run.exitCode === 2) return { kind: 'block', reason: run.stderr.trim() || `${event} hook \`${hook.command}\` exited with code 2.` }
    if (run.exitCode !== 0) return fail(`failed with exit code ${run.exitCode}`)
    const out = run.stdout.trim()
    if (!out.startsWith('{')) return { kind: 'none' }
    try {
      const json: unknown = JSON.parse(out)
      if (!isObject(json)) return fail('printed JSON that is not an object')
      return { kind: 'json', out: json as HookOutput }
    } catch (err) {
      return fail(`printed output that starts like JSON but does not parse (${(err as Error).message})`)
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
      status: info.status
    })
    const reasons: string[] = []
    for (const s of said) {
      if (s.kind === 'block') reasons.push(s.reason)
      else if (s.kind === 'json' && (s.out.decision === 'block' || s.out.decision === 'deny')) reasons.push(typeof s.out.reason === 'string' && s.out.reason.trim() ? s.out.reason.trim() : 'A SubagentStop hook asked you to continue before finishing.')
    }
    return reasons.length ? reasons.join('\n') : null
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
      else if (d !== undefined) this.opts.report(agent.id, `A PreToolUse hook answered permissionDecision ${JSON.stringify(d)}; expected "allow", "deny" or "ask". It was ignored.`)
      if (isObject(h?.updatedInput)) outcome.updatedInput = h.updatedInput
    }
    return outcome
  }

  /** PostToolUse: feedback and context for the model, and (MCP tools) a replacement for the tool's output. */
  async postToolUse(agent: HookAgent, toolName: string, input: unknown, response: unknown, toolUseId: string): Promise<{ notes: string[]; replaceOutput?: string }> {
    const said = await this.run('PostToolUse', agent, toolName, { tool_name: toolName, tool_input: input, tool_response: response, tool_use_id: toolUseId })
    const notes: string[] = []
    let replaceOutput: string | undefined
    for (const s of said) {
      if (s.kind === 'block') notes.push(reminder(`PostToolUse hook feedback: ${s.reason}`))
      if (s.kind !== 'json') continue
      if (s.out.decision === 'block') notes.push(reminder(`PostToolUse hook feedback: ${typeof s.out.reason === 'string' ? s.out.reason : 'a PostToolUse hook objected to this result'}`))
      const ctx = s.out.hookSpecificOutput?.additionalContext
      if (typeof ctx === 'string' && ctx.trim()) notes.push(reminder(`PostToolUse hook additional context: ${ctx.trim()}`))
      const replaced = s.out.hookSpecificOutput?.updatedMCPToolOutput
      if (replaced !== undefined && toolName.startsWith('mcp__')) replaceOutput = typeof replaced === 'string' ? replaced : JSON.stringify(replaced)
    }
    return { notes, ...(replaceOutput !== undefined ? { replaceOutput } : {}) }
  }
}
