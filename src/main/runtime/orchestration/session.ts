// A session: one conversation with a main agent and every subagent it spawns. It owns the event bus,
// the agent registry, the spawn limits and the per-session caches, and builds each agent's tools and
// system prompt. Adapters (CLI, app, browser mode) create one and subscribe to its events.
import { randomBytes, randomUUID } from 'node:crypto'
import { homedir } from 'node:os'
import type { AgentDefinition, LoadedAgent, PermissionMode } from '../../../shared/agent-definition'
import type { AgentEvent, ChatMessage } from '../../../shared/events'
import { addUsage, emptyUsage } from '../../../shared/usage'
import { buildSystemPrompt, loadAgentMemory, loadClaudeMd, loadSkills, type ClaudeMdEntry } from '../context'
import { loadAgents, resolveAgentTools, type LoadAgentsOptions } from '../definitions'
import { runAgent } from '../loop'
import type { AgentRunResult, CanUseTool } from '../loop/types'
import { DEFAULT_MODEL_ALIASES, resolveModel, type ModelAliases } from '../model/aliases'
import type { ModelClient } from '../model/types'
import { BUILTIN_TOOL_NAMES, createBuiltinTools, FileState, TodoList } from '../tools'
import type { Tool } from '../tools/define-tool'
import { probeGit } from '../worktrees'
import { AgentRegistry, type AgentHandle } from './agent-registry'
import { AGENT_TOOL_NAME, createAgentTool } from './agent-tool'
import { budgetedClient } from './budget'
import { EventBus } from './event-bus'
import { DEFAULT_LIMITS, SpawnGate, type SpawnLimits } from './limits'
import { MAIN_AGENT_PROMPT, MAIN_AGENT_TYPE } from './main-prompt'
import { spawnSubagent } from './spawn'
import type { SessionContext } from './types'

export interface AgentSessionOptions {
  cwd: string
  client: ModelClient
  sessionId?: string
  home?: string
  /** The main agent's model: an alias or a full id. Default `sonnet`. */
  model?: string
  aliases?: ModelAliases
  limits?: Partial<SpawnLimits>
  permissionMode?: PermissionMode
  /** Builds the permission hook for one agent; absent means every tool call is allowed. */
  permissions?: (handle: AgentHandle) => CanUseTool | undefined
  /** Extra sources for the definitions loader (plugins, --agents JSON, managed folder). */
  agentSources?: Omit<LoadAgentsOptions, 'cwd' | 'home'>
  /** Path of `rg`, or false to use the JS search fallback. */
  ripgrep?: string | false
}

export interface RunOptions {
  /** Run the main agent as this definition (like `--agent NAME`). */
  agentType?: string
  maxTurns?: number
}

export class AgentSession implements SessionContext {
  readonly sessionId: string
  readonly home: string
  readonly bus = new EventBus()
  readonly registry = new AgentRegistry()
  readonly gate: SpawnGate
  readonly client: ModelClient
  readonly aliases: ModelAliases
  readonly mainAgentId: string
  private loaded = new Map<string, LoadedAgent>()
  private claudeMd: ClaudeMdEntry[] = []
  private readonly gitInfo = new Map<string, ReturnType<typeof probeGit>>()
  private readonly agentState = new Map<string, { fileState: FileState; todos: TodoList }>()
  private mainMessages: ChatMessage[] = []
  private running: Promise<AgentRunResult> | null = null

  private constructor(readonly options: AgentSessionOptions) {
    this.sessionId = options.sessionId ?? randomUUID()
    this.home = options.home ?? homedir()
    this.aliases = options.aliases ?? { ...DEFAULT_MODEL_ALIASES }
    this.gate = new SpawnGate({ ...DEFAULT_LIMITS, ...options.limits }, () => this.registry.totalUsage().costUsd)
    this.client = budgetedClient(options.client, this.gate)
    this.mainAgentId = `main-${this.sessionId.slice(0, 8)}`
  }

  static async create(options: AgentSessionOptions): Promise<AgentSession> {
    const session = new AgentSession(options)
    await session.reload()
    return session
  }

  get cwd(): string {
    return this.options.cwd
  }

  /** Re-reads agent definitions and CLAUDE.md; what changed on disk applies to the next spawn. */
  async reload(): Promise<void> {
    const [agents, claudeMd] = await Promise.all([
      loadAgents({ cwd: this.cwd, home: this.home, ...this.options.agentSources }),
      loadClaudeMd({ cwd: this.cwd, home: this.home })
    ])
    this.loaded = agents.byType
    this.claudeMd = claudeMd
  }

  readonly emit = (event: AgentEvent): void => {
    const handle = this.registry.get(event.agentId)
    if (handle) {
      if (event.type === 'usage') handle.usage = addUsage(handle.usage, event.usage)
      else if (event.type === 'agent_start') handle.status = 'running'
      else if (event.type === 'agent_end') handle.status = event.status
      else if (event.type === 'status') handle.status = event.status
    }
    this.bus.emit(event)
  }

  agents(): Map<string, LoadedAgent> {
    return this.loaded
  }

  newAgentId(): string {
    return `a${randomBytes(8).toString('hex')}`
  }

  availableToolNames(): string[] {
    return [...BUILTIN_TOOL_NAMES, AGENT_TOOL_NAME]
  }

  buildTools(handle: AgentHandle, names: readonly string[]): Tool[] {
    let state = this.agentState.get(handle.id)
    if (!state) this.agentState.set(handle.id, (state = { fileState: new FileState(), todos: new TodoList() }))
    const builtins = createBuiltinTools({ cwd: handle.cwd, fileState: state.fileState, todos: state.todos, ...(this.options.ripgrep !== undefined ? { ripgrep: this.options.ripgrep } : {}) })
    const all = [
      ...builtins,
      createAgentTool({
        agents: () => [...this.loaded.values()].map((l) => l.definition),
        spawn: (input, ctx) => spawnSubagent(this, handle, input, ctx)
      })
    ]
    const wanted = new Set(names)
    return all.filter((t) => wanted.has(t.name))
  }

  private git(cwd: string) {
    let probe = this.gitInfo.get(cwd)
    if (!probe) this.gitInfo.set(cwd, (probe = probeGit(cwd)))
    return probe
  }

  async systemPrompt(def: AgentDefinition, handle: AgentHandle, worktree?: { path: string; branch: string; baseCommit?: string }): Promise<string> {
    const git = await this.git(handle.cwd)
    const parts = await Promise.all([
      def.memory ? loadAgentMemory({ agentType: def.agentType, scope: def.memory, cwd: this.cwd, home: this.home }) : undefined,
      def.skills?.length ? loadSkills({ names: def.skills, cwd: this.cwd, home: this.home, ...(def.file ? { definitionFile: def.file } : {}) }) : undefined
    ])
    return buildSystemPrompt({
      body: def.systemPrompt,
      environment: { cwd: handle.cwd, isGitRepo: git.isGitRepo, branch: git.branch, platform: process.platform, date: new Date(), model: handle.model, ...(worktree ? { worktree } : {}) },
      claudeMd: this.claudeMd,
      omitClaudeMd: def.omitClaudeMd === true,
      ...(parts[0] ? { agentMemory: parts[0] } : {}),
      ...(parts[1] ? { skills: parts[1].skills } : {})
    })
  }

  canUseTool(handle: AgentHandle): CanUseTool | undefined {
    return this.options.permissions?.(handle)
  }

  /** Sends a prompt to the main agent; a follow-up continues the same conversation. */
  async run(prompt: string, opts: RunOptions = {}): Promise<AgentRunResult> {
    if (this.running) throw new Error('The main agent is still working on the previous prompt.')
    const run = this.runMain(prompt, opts)
    this.running = run
    try {
      return await run
    } finally {
      this.running = null
    }
  }

  private async runMain(prompt: string, opts: RunOptions): Promise<AgentRunResult> {
    const def = opts.agentType ? this.loaded.get(opts.agentType)?.definition : undefined
    if (opts.agentType && !def) throw new Error(`There is no agent named '${opts.agentType}'. Run 'fanout agents list' to see the available agents.`)
    const model = resolveModel({ override: this.options.model, definition: def?.model, parent: this.options.model ?? 'sonnet', aliases: this.aliases })
    const previous = this.registry.get(this.mainAgentId)
    const handle: AgentHandle = {
      id: this.mainAgentId,
      parentId: null,
      parentToolUseId: null,
      depth: 0,
      agentType: def?.agentType ?? MAIN_AGENT_TYPE,
      definition: def ?? null,
      model,
      cwd: this.cwd,
      permissionMode: this.options.permissionMode ?? def?.permissionMode ?? 'default',
      status: 'running',
      abort: new AbortController(),
      stoppedByUser: false,
      inbox: previous?.inbox ?? [],
      usage: previous?.usage ?? emptyUsage(),
      startedAt: Date.now()
    }
    let toolNames = this.availableToolNames()
    if (def) {
      const resolution = resolveAgentTools(def, toolNames, { isBuiltIn: def.source === 'built-in', isBackground: false, isSubagent: false })
      if (resolution.error) throw new Error(resolution.error)
      toolNames = resolution.resolvedTools
      if (resolution.allowedAgentTypes) handle.allowedAgentTypes = resolution.allowedAgentTypes
    }
    this.registry.add(handle)
    const mainDef: AgentDefinition = def ?? { agentType: MAIN_AGENT_TYPE, whenToUse: '', systemPrompt: MAIN_AGENT_PROMPT, source: 'built-in', extra: {} }
    const result = await runAgent(
      {
        agentId: handle.id,
        parentAgentId: null,
        parentToolUseId: null,
        sessionId: this.sessionId,
        agentType: handle.agentType,
        depth: 0,
        client: this.client,
        model,
        systemPrompt: await this.systemPrompt(mainDef, handle),
        messages: this.mainMessages,
        prompt,
        tools: this.buildTools(handle, toolNames),
        cwd: this.cwd,
        maxTurns: opts.maxTurns ?? def?.maxTurns,
        signal: handle.abort.signal,
        ...(def?.criticalSystemReminder ? { criticalSystemReminder: def.criticalSystemReminder } : {}),
        canUseTool: this.canUseTool(handle),
        drainInbox: () => handle.inbox.splice(0)
      },
      this.emit
    )
    this.mainMessages = result.messages
    return result
  }

  /** Stops one agent and its descendants (default: the main agent, and so everything). */
  stop(agentId: string = this.mainAgentId, byUser = true): boolean {
    return this.registry.stop(agentId, byUser)
  }

  /** Waits for the main agent's current run, if any. */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined)
  }
}
