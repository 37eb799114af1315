// The main agent: the one the person talks to. Its runs are queued one after another: a prompt from the
// person, or a wake-up when a message or a background agent's report arrives while it is idle. What
// arrives while it runs waits in its inbox for its next turn; what arrives in its very last moments starts
// the next run, so no report is left unread.
import type { AgentDefinition } from '../../../../shared/agent-definition'
import type { ChatMessage, ContentBlock } from '../../../../shared/events'
import { emptyUsage } from '../../../../shared/usage'
import { resolveAgentTools } from '../../definitions'
import { mainStopHook } from '../../hooks/wiring'
import type { AgentRunResult } from '../../loop/types'
import type { PermissionRule } from '../../permissions/rules'
import { fullModelId, resolveModel } from '../../model/aliases'
import { repairedHistory } from '../../store/rebuild-conversation'
import { newAgentHandle, type AgentHandle } from './agent-registry'
import { COORDINATOR_DEFINITION } from '../coordinator/coordinator-prompt'
import { MAIN_AGENT_TYPE, MAIN_DEFINITION } from '../prompts/main-prompt'
import { runAgentOnce, type RunHost } from './run-agent-once'
import type { SessionContext } from '../types'

export interface MainRunOptions {
  /** Run the main agent as this definition (like `--agent NAME`); kept for later runs. */
  agentType?: string
  maxTurns?: number
  /** This run alone, on this model (a slash command's `model:`). */
  model?: string
  /** This run alone, these allow rules (a slash command's `allowed-tools`, already parsed). */
  commandRules?: PermissionRule[]
}

/** What the main agent needs besides RunHost: its definition and tools, its prompt, its id and idle(). */
export type MainAgentHost = RunHost & Pick<SessionContext, 'cwd' | 'mainAgentId' | 'definitions' | 'aliases' | 'tools' | 'systemPrompt' | 'track'>

export interface MainAgentConfig {
  /** The main agent's model (alias or id); default `sonnet`. */
  model?: string
  /** Set by the person (e.g. --permission-mode): wins over the definition's own mode. */
  permissionMode?: AgentDefinition['permissionMode']
  /** From the settings files (`defaultMode`): used when neither the person nor the definition sets one. */
  defaultMode?: AgentDefinition['permissionMode']
  /** Coordinator mode: without --agent, the main agent runs as the coordinator (its prompt, orchestration tools only). */
  coordinator?: boolean
  /** The session's effort (low|medium|high|xhigh|max or a thinking budget); a definition's own `effort` wins. */
  effort?: string | number
  /** Claude Code's `--tools`: the only tools the main agent is offered besides MCP servers' (unset: all). */
  onlyTools?: readonly string[]
}

export { MAIN_DEFINITION }

export class MainAgent {
  private handle: AgentHandle | null = null
  private agentType: string | undefined
  private queue: Promise<unknown> = Promise.resolve()
  private pending = 0
  private userRun = false
  /** SessionStart hooks ran in this process; `resumed`: the session was reopened from disk (source "resume"). */
  private started = false
  private resumed = false
  lastResult: AgentRunResult | null = null

  constructor(
    private readonly s: MainAgentHost,
    private readonly config: MainAgentConfig
  ) {}

  /** It ran (SessionStart hooks fired) in this process: the session ends with SessionEnd hooks. */
  get sessionStarted(): boolean {
    return this.started
  }

  /** A run is going or queued. */
  get busy(): boolean {
    return this.pending > 0
  }

  /**
   * After a restart: the agent as its transcript left it (its conversation, the definition it ran as, and
   * whether a crash cut it off). Only before its handle exists: from then on, its events are its state.
   */
  restore(history: ChatMessage[], agentType: string | undefined, status: AgentHandle['status'] = 'completed'): void {
    if (this.handle) throw new Error('The main agent was restored after it had started.')
    this.agentType = agentType
    this.resumed = true
    this.create(history, status)
  }

  /** The main agent's handle (created idle before its first run, so messages can reach it). */
  getHandle(): AgentHandle {
    return this.handle ?? this.create([], 'completed')
  }

  private create(messages: ChatMessage[], status: AgentHandle['status']): AgentHandle {
    const def = this.definition()
    this.handle = newAgentHandle({
      id: this.s.mainAgentId,
      parentId: null,
      parentToolUseId: null,
      depth: 0,
      agentType: def?.agentType ?? MAIN_AGENT_TYPE,
      definition: def ?? null,
      // A full id from the start: a reopened session's Compact builds a request from this handle before any run.
      model: this.modelFor(def, false),
      cwd: this.s.cwd,
      permissionMode: this.modeFor(def),
      status,
      messages: [...messages]
    })
    this.s.registry.add(this.handle)
    return this.handle
  }

  /** The definition it runs as: the chosen agent, else the coordinator in coordinator mode, else none (main). */
  private definition(): AgentDefinition | undefined {
    if (this.agentType) return this.s.definitions.agents().get(this.agentType)?.definition
    return this.config.coordinator ? COORDINATOR_DEFINITION : undefined
  }

  /** The full model id it runs on; `strict` throws for a model that is neither an alias nor an id (a run says so). */
  private modelFor(def: AgentDefinition | undefined, strict: boolean): string {
    try {
      return resolveModel({ override: this.config.model, definition: def?.model, parent: this.config.model ?? 'sonnet', aliases: this.s.aliases })
    } catch (err) {
      if (strict) throw err
      return fullModelId(this.config.model ?? 'sonnet', this.s.aliases)
    }
  }

  modeFor(def: AgentDefinition | undefined): NonNullable<AgentDefinition['permissionMode']> {
    return this.config.permissionMode ?? def?.permissionMode ?? this.config.defaultMode ?? 'default'
  }

  /** A prompt from the person; queued behind a wake-up run, refused while another prompt is being worked on. */
  async run(prompt: string | ContentBlock[], opts: MainRunOptions): Promise<AgentRunResult> {
    if (this.userRun) throw new Error('The main agent is still working on the previous prompt.')
    this.userRun = true
    try {
      const result = await this.enqueue(() => this.runOnce(prompt, opts, true))
      return result as AgentRunResult
    } finally {
      this.userRun = false
    }
  }

  /**
   * Runs a failed main agent again from its conversation as it stands: the request that failed is sent again
   * (its history ends with it), or, when the history ends with the agent's own reply, `note` asks it to go on.
   */
  async retry(note: string): Promise<AgentRunResult> {
    if (this.userRun || this.pending > 0) throw new Error('The main agent is working; it can be retried once it has stopped.')
    this.userRun = true
    try {
      const endsWithRequest = this.getHandle().messages.at(-1)?.role === 'user'
      const result = await this.enqueue(() => this.runOnce(endsWithRequest ? undefined : note, {}, true, true))
      return result as AgentRunResult
    } finally {
      this.userRun = false
    }
  }

  /** Runs the main agent on what waits in its inbox, unless it is busy (it will read it) or the person stopped it. */
  wake(): void {
    const h = this.handle
    if (!h || this.pending > 0 || h.stoppedByUser || !h.inbox.length) return
    this.enqueue(() => this.runOnce(undefined, {}, false)).catch((err: Error) => this.s.onError(new Error(`The main agent could not be woken: ${err.message}`)))
  }

  /** Runs `work` when no run of the main agent is going, holding later runs until it ends (a compaction). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.enqueue(work)
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    this.pending++
    const run = this.queue.then(fn).finally(() => {
      this.pending--
      this.wake()
    })
    this.queue = run.catch(() => undefined)
    this.s.track(run)
    return run
  }

  private async runOnce(prompt: string | ContentBlock[] | undefined, opts: MainRunOptions, byPerson: boolean, retry = false): Promise<AgentRunResult | null> {
    if (opts.agentType !== undefined) this.agentType = opts.agentType
    const def = this.definition()
    if (this.agentType && !def) throw new Error(`There is no agent named '${this.agentType}'. Run 'fanout agents list' to see the available agents.`)
    const model = opts.model ? resolveModel({ override: opts.model, parent: this.modelFor(def, true), aliases: this.s.aliases }) : this.modelFor(def, true)
    const handle = this.getHandle()
    if (!byPerson && handle.stoppedByUser) return null
    Object.assign(handle, {
      agentType: def?.agentType ?? MAIN_AGENT_TYPE,
      definition: def ?? null,
      model,
      permissionMode: this.modeFor(def),
      abort: new AbortController(),
      stoppedByUser: false,
      startedAt: Date.now(),
      effort: def?.effort ?? this.config.effort,
      commandRules: opts.commandRules
    } satisfies Partial<AgentHandle>)
    // SessionStart once per process, then UserPromptSubmit for a prompt the person typed (not a retry's note):
    // their context opens the run; a prompt a hook blocks never reaches the model.
    const hooks = this.s.extensions.hooks
    const typed = byPerson && !retry && prompt !== undefined
    const context: string[] = []
    // Before the prompt's id exists: Claude Code's SessionStart input has no prompt_id.
    if (!this.started) {
      this.started = true
      context.push(...(await hooks.sessionStart(handle, this.resumed ? 'resume' : 'startup')))
    }
    if (typed) hooks.newPrompt()
    if (typed) {
      const outcome = await hooks.userPromptSubmit(handle, promptText(prompt))
      if ('blocked' in outcome) return this.refused(handle, outcome.blocked, { kind: 'blocked_by_hook', reason: outcome.reason })
      if ('stopped' in outcome) return this.refused(handle, outcome.stopped, { kind: 'stopped_by_hook', reason: outcome.reason })
      context.push(...outcome.context)
    }
    const result = await runAgentOnce(this.s, handle, {
      def: def ?? null,
      ...(prompt !== undefined ? { prompt } : {}),
      history: repairedHistory(handle.messages),
      maxTurns: opts.maxTurns ?? def?.maxTurns,
      // A retry has nothing new to say: it sends the failed request again.
      skipWhenNothingToSay: !retry,
      toolNames: () => {
        let toolNames = this.s.tools.names()
        let allowedAgentTypes: string[] | undefined
        if (def) {
          const resolution = resolveAgentTools(def, toolNames, { isBuiltIn: def.source === 'built-in', isBackground: false, isSubagent: false })
          if (resolution.error) throw new Error(resolution.error)
          toolNames = resolution.resolvedTools
          allowedAgentTypes = resolution.allowedAgentTypes
        }
        const only = this.config.onlyTools
        if (only) toolNames = toolNames.filter((t) => only.includes(t) || t.startsWith('mcp__'))
        handle.toolNames = toolNames
        handle.allowedAgentTypes = allowedAgentTypes
        return toolNames
      },
      systemPrompt: () => this.s.systemPrompt(def ?? MAIN_DEFINITION, handle),
      // Reached only when there is something to say: a new prompt from the person gets its own prompt_id in hooks.
      extras: async () => {
        return {
          drainInbox: () => [...context.splice(0), ...hooks.takeContext(handle.id), ...handle.inbox.splice(0)],
          beforeFinish: mainStopHook(this.s.extensions.hooks, handle, (message) => this.sayError(handle, message))
        }
      }
    })
    if (!result) return null
    handle.lastResult = result
    this.lastResult = result
    return result
  }

  /** A prompt a UserPromptSubmit hook kept from the model: the run's answer is the hook's reason (as Claude Code's -p prints it), said to the person too. */
  private refused(handle: AgentHandle, text: string, why: NonNullable<AgentRunResult['promptRefused']>): AgentRunResult {
    this.sayError(handle, text)
    const result: AgentRunResult = {
      status: 'completed',
      result: text,
      numTurns: 0,
      toolUses: 0,
      usage: emptyUsage(),
      durationMs: 0,
      messages: [...handle.messages],
      model: handle.model,
      stopReason: null,
      promptRefused: why
    }
    handle.lastResult = result
    this.lastResult = result
    return result
  }

  /** An error the main agent's conversation shows the person (one that is not retried). */
  private sayError(handle: AgentHandle, message: string): void {
    this.s.emit({
      agentId: handle.id,
      parentAgentId: null,
      parentToolUseId: null,
      sessionId: this.s.sessionId,
      ts: Date.now(),
      type: 'error',
      message,
      retrying: false
    })
  }
}

function promptText(prompt: string | ContentBlock[]): string {
  return typeof prompt === 'string' ? prompt : prompt.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')
}
