// A session: one conversation with a main agent and every subagent it spawns. It owns the event bus, the
// agent registry, the spawn limits, permission requests and (with a data folder) the transcripts and agent
// state, and builds each agent's tools and system prompt. Adapters (CLI, app, browser mode) create or reopen
// one and subscribe to its events.
import { randomBytes, randomUUID } from 'node:crypto'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentDefinition, LoadedAgent, PermissionMode } from '../../../shared/agent-definition'
import type { AgentEvent, ContentBlock, PermissionRequestEvent } from '../../../shared/events'
import { addUsage } from '../../../shared/usage'
import { loadClaudeMd, type ClaudeMdEntry } from '../context'
import { loadAgents, type LoadAgentsOptions } from '../definitions'
import { reminderBlock } from '../loop'
import type { AgentRunResult, CanUseTool } from '../loop/types'
import { DEFAULT_MODEL_ALIASES, type ModelAliases } from '../model/aliases'
import type { ModelClient } from '../model/types'
import { loadPermissionSettings, mergeRules, type PermissionAnswer, type PermissionRules, type PermissionSettings } from '../permissions'
import { claimMessages, loadAgentForResume, openSession, repairConversation, sessionDir } from '../store'
import { BUILTIN_TOOL_NAMES, createBuiltinTools, FileState, TodoList } from '../tools'
import type { Tool, ToolContext } from '../tools/define-tool'
import { cleanupOrphanWorktree, findOrphanWorktrees, probeGit, type CleanupOptions, type CleanupResult, type OrphanWorktree } from '../worktrees'
import { startSubagentRun } from './agent-run'
import { AgentRegistry, isFinished, type AgentHandle } from './agent-registry'
import { AGENT_TOOL_NAME, createAgentTool, type AgentToolInput } from './agent-tool'
import { budgetedClient } from './budget'
import { Coordinator } from './coordinator'
import { COORDINATOR_AGENT_TYPE, SET_PHASE_TOOL_NAME } from './coordinator-prompt'
import { agentSystemPrompt } from './agent-prompt'
import { afterSubagentRun, formatAgentMessage } from './delivery'
import { EventBus } from './event-bus'
import { SessionExtensions } from './extensions'
import { DEFAULT_LIMITS, SpawnGate, type SpawnLimits } from './limits'
import { MainAgent, type MainAgentConfig, type MainRunOptions } from './main-agent'
import { OutputLog } from './output-log'
import { PermissionBroker } from './permission-broker'
import { SessionPersistence } from './persistence'
import { cutOffNote, loadDormantAgent, resumeInterrupted, type DormantContext, type ResumeReport } from './resume'
import { createSendMessageTool, SEND_MESSAGE_TOOL_NAME, sendMessage, type SendOutcome } from './send-message'
import { spawnSubagent } from './spawn'
import { createTaskOutputTool, createTaskStopTool, TASK_OUTPUT_TOOL_NAME, TASK_STOP_TOOL_NAME } from './task-tools'
import { memberDefinitionFor, memberToolNames, TEAM_TOOL_NAMES, TeamManager, teamToolsFor } from './team'
import type { ChildResult, DeliverOptions, Delivery, RunRequest, SessionContext } from './types'

export const DEFAULT_BACKGROUND_STALL_MS = 15 * 60_000

export interface AgentSessionOptions {
  cwd: string
  client: ModelClient
  sessionId?: string
  home?: string
  /** The main agent's model: an alias or a full id. Default `sonnet`. */
  model?: string
  aliases?: ModelAliases
  limits?: Partial<SpawnLimits>
  /** The main agent's mode (subagents derive theirs from it). Default: the definition's, else settings' defaultMode, else `default`. */
  permissionMode?: PermissionMode
  /** Builds the permission hook for one agent, replacing the session's own gates (and their permission_request events). */
  permissions?: (handle: AgentHandle) => CanUseTool | undefined
  /** Nobody answers permission requests: a call that needs approval is denied with a reason saying how to allow it. */
  headless?: boolean
  /** Told about every denied tool call (e.g. the CLI prints them to stderr). */
  onPermissionDenied?: (message: string, toolName: string, agentId: string) => void
  /** Rules on top of the Claude Code settings files (e.g. from command-line flags). */
  permissionRules?: PermissionRules
  /** The managed settings file; null to skip it. Default /etc/claude-code/managed-settings.json. */
  managedSettingsFile?: string | null
  /** Record transcripts and each agent's state.json under `<dataDir>/sessions/<sessionId>/`. */
  dataDir?: string
  /** The title recorded for the session (listings, reopening); default: its first prompt's first line. */
  title?: string
  /** A background agent that emits nothing for this long is stopped and marked failed. Default 15 min; 0 turns it off. */
  backgroundStallMs?: number
  /** Problems writing transcripts, state or output files (never thrown). Default: console.error. */
  onError?: (err: Error) => void
  /** Extra sources for the definitions loader (plugins, --agents JSON, managed folder). */
  agentSources?: Omit<LoadAgentsOptions, 'cwd' | 'home'>
  /** Path of `rg`, or false to use the JS search fallback. */
  ripgrep?: string | false
  /** Coordinator mode: the main agent directs agents through four phases with orchestration tools only (implies teams). */
  coordinator?: boolean
  /** Agent teams: the main agent can create a team of in-process workers with a shared task list. */
  teams?: boolean
  /** MCP servers from Fanout's own settings, as in `.mcp.json`'s `mcpServers` (the project's files are read too). */
  mcpServers?: Record<string, unknown>
  /** How long an MCP server may take to start. Default 30 s. */
  mcpStartTimeoutMs?: number
  /** The session's effort (low|medium|high|max or a thinking budget): the main agent's and, through it, its subagents' unless a definition or call says otherwise. */
  effort?: string | number
}

export type RunOptions = MainRunOptions

export interface OpenSessionOptions extends Omit<AgentSessionOptions, 'cwd' | 'sessionId' | 'dataDir'> {
  dataDir: string
  sessionId: string
  /** Default: the folder the session worked in. */
  cwd?: string
}

export class AgentSession implements SessionContext {
  readonly sessionId: string
  readonly home: string
  readonly bus = new EventBus()
  /** The `seq` of the latest event emitted (see EventBase.seq). */
  lastSeq = 0
  readonly registry = new AgentRegistry()
  readonly gate: SpawnGate
  readonly client: ModelClient
  readonly aliases: ModelAliases
  readonly mainAgentId: string
  readonly dataDir: string | undefined
  readonly backgroundStallMs: number
  /** What reopening the session found wrong or repaired (empty for a new session). */
  openNotes: string[] = []
  /** The permission settings in force (rules, defaultMode, and problems found in the files). */
  permissionSettings: PermissionSettings | null = null
  private loaded = new Map<string, LoadedAgent>()
  private claudeMd: ClaudeMdEntry[] = []
  private readonly gitInfo = new Map<string, ReturnType<typeof probeGit>>()
  private readonly toolState = new Map<string, { fileState: FileState; todos: TodoList }>()
  private readonly outputLogs = new Map<string, OutputLog>()
  private readonly runs = new Set<Promise<unknown>>()
  private readonly dormantLoads = new Map<string, Promise<AgentHandle | undefined>>()
  private readonly persistence: SessionPersistence | null
  private broker: PermissionBroker | null = null
  private readonly main: MainAgent
  private readonly mainConfig: MainAgentConfig
  /** The recorded session this one reopened: its title, its agents and what it had spent before the restart. */
  reopened: { title: string; costUsd: number; agentIds: string[] } | null = null
  /** Subagents a crash cut off, not run since: the main agent hears of them with the person's next prompt. */
  private cutOff: Array<{ agentId: string; agentType: string; description: string }> = []
  /** MCP servers and hooks around the agents' tools. */
  readonly extensions: SessionExtensions
  /** Set in coordinator mode: the current phase and the SetPhase tool. */
  coordinator: Coordinator | null = null
  /** The session's agent team (one at a time), its durable task list and tools. */
  readonly team: TeamManager

  private constructor(readonly options: AgentSessionOptions) {
    this.sessionId = options.sessionId ?? randomUUID()
    this.home = options.home ?? homedir()
    this.aliases = options.aliases ?? { ...DEFAULT_MODEL_ALIASES }
    this.gate = new SpawnGate({ ...DEFAULT_LIMITS, ...options.limits }, () => (this.reopened?.costUsd ?? 0) + this.registry.totalUsage().costUsd)
    this.client = budgetedClient(options.client, this.gate)
    this.mainAgentId = `main-${this.sessionId.slice(0, 8)}`
    this.dataDir = options.dataDir
    this.backgroundStallMs = options.backgroundStallMs ?? DEFAULT_BACKGROUND_STALL_MS
    this.persistence = options.dataDir ? new SessionPersistence({ dataDir: options.dataDir, sessionId: this.sessionId, cwd: options.cwd, title: options.title, registry: this.registry, onError: this.onError }) : null
    this.mainConfig = { ...(options.model ? { model: options.model } : {}), ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}), ...(options.effort !== undefined ? { effort: options.effort } : {}) }
    this.extensions = new SessionExtensions({
      sessionId: this.sessionId,
      cwd: options.cwd,
      home: this.home,
      mainAgentId: this.mainAgentId,
      dataDir: options.dataDir,
      registry: this.registry,
      emit: (e) => this.emit(e),
      ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
      ...(options.mcpStartTimeoutMs ? { mcpStartTimeoutMs: options.mcpStartTimeoutMs } : {}),
      ...(options.managedSettingsFile !== undefined ? { managedSettingsFile: options.managedSettingsFile } : {})
    })
    this.main = new MainAgent(this, this.mainConfig)
    const teamDir = options.dataDir ? join(sessionDir(options.dataDir, this.sessionId), 'team') : join(tmpdir(), `fanout-${this.sessionId}`, 'team')
    this.team = new TeamManager(this, join(teamDir, 'log.jsonl'))
    if (options.coordinator) this.enableCoordinator()
  }

  /** Coordinator mode from now on (also when a reopened session's main agent ran as the coordinator). */
  private enableCoordinator(): void {
    this.coordinator ??= new Coordinator(this)
    this.mainConfig.coordinator = true
  }

  get teamsEnabled(): boolean {
    return this.options.teams === true || this.coordinator !== null
  }

  subscribe(listener: (event: AgentEvent) => void): () => void {
    return this.bus.subscribe(listener)
  }

  static async create(options: AgentSessionOptions): Promise<AgentSession> {
    const session = new AgentSession(options)
    await session.reload()
    return session
  }

  /**
   * Reopens a recorded session after a restart: the main agent's conversation is restored, so `run()`
   * continues it; earlier subagents can be resumed, messaged and inspected by id or name. Agents that were
   * cut off are not restarted until `resumeInterrupted()` is called.
   */
  static async open(options: OpenSessionOptions): Promise<AgentSession> {
    const opened = await openSession(options.dataDir, options.sessionId)
    const cwd = options.cwd ?? opened.index.cwd
    if (!cwd) throw new Error(`Session ${options.sessionId} does not say which folder it worked in; pass cwd to reopen it.`)
    const session = new AgentSession({ ...options, cwd })
    session.openNotes.push(...opened.notes)
    session.reopened = { title: opened.index.title, costUsd: opened.index.costUsd, agentIds: Object.keys(opened.index.agents) }
    await session.reload()
    const main = await loadAgentForResume(options.dataDir, options.sessionId, session.mainAgentId).catch(() => null)
    if (main) {
      session.openNotes.push(...main.notes.filter((n) => !n.includes('has no saved state')))
      let agentType = main.state && main.state.definition.name !== 'main' ? main.state.definition.name : undefined
      if (agentType === COORDINATOR_AGENT_TYPE) {
        session.enableCoordinator()
        agentType = undefined
      }
      session.main.restore(repairConversation(main.messages).messages, agentType)
      session.coordinator?.restore(main.messages)
    }
    // A crash cut the main agent off: it is idle now, and says so until it runs again.
    if (opened.interrupted.some((e) => e.agentId === session.mainAgentId)) session.mainHandle().status = 'interrupted'
    session.cutOff = Object.values(opened.index.agents).filter((a) => a.status === 'interrupted' && a.agentId !== session.mainAgentId)
    await session.team.load()
    return session
  }

  get cwd(): string {
    return this.options.cwd
  }

  get mainPermissionMode(): PermissionMode {
    return this.main.modeFor(undefined)
  }

  /** The main agent's last finished run (after idle(), the answer to the last prompt or report). */
  get lastResult(): AgentRunResult | null {
    return this.main.lastResult
  }

  /** Re-reads agent definitions, CLAUDE.md and permission settings; what changed on disk applies to the next spawn. */
  async reload(): Promise<void> {
    const [agents, claudeMd] = await Promise.all([
      loadAgents({ cwd: this.cwd, home: this.home, ...this.options.agentSources }),
      loadClaudeMd({ cwd: this.cwd, home: this.home })
    ])
    this.loaded = agents.byType
    this.claudeMd = claudeMd
    this.extensions.reload()
    if (this.options.permissions) return
    const settings = loadPermissionSettings({ cwd: this.cwd, home: this.home, ...(this.options.managedSettingsFile !== undefined ? { managedFile: this.options.managedSettingsFile } : {}) })
    this.permissionSettings = settings
    this.mainConfig.defaultMode = settings.defaultMode
    const rules = this.options.permissionRules ? mergeRules(settings.rules, this.options.permissionRules) : settings.rules
    if (this.broker) this.broker.setRules(rules, settings.additionalDirectories)
    else
      this.broker = new PermissionBroker({
        sessionId: this.sessionId,
        cwd: this.cwd,
        home: this.home,
        rules,
        additionalDirectories: settings.additionalDirectories,
        headless: this.options.headless === true,
        registry: this.registry,
        emit: this.emit,
        ...(this.options.onPermissionDenied ? { onDenied: this.options.onPermissionDenied } : {})
      })
  }

  readonly onError = (err: Error): void => {
    if (this.options.onError) this.options.onError(err)
    else console.error(`fanout: ${err.message}`)
  }

  readonly emit = (event: AgentEvent): void => {
    // Time-based, so a session resumed by a later process goes on counting upwards without reading the last one.
    event.seq = this.lastSeq = Math.max(Date.now() * 1000, this.lastSeq + 1)
    const handle = this.registry.get(event.agentId)
    if (handle) {
      handle.lastEventAt = Date.now()
      if (event.type === 'usage') handle.usage = addUsage(handle.usage, event.usage)
      else if (event.type === 'agent_start') handle.status = 'running'
      else if (event.type === 'agent_end') handle.status = event.status
      else if (event.type === 'status') handle.status = event.status
      else if (event.type === 'turn_start') handle.turnCount++
      else if (event.type === 'message') handle.messages.push(event.message)
    }
    this.persistence?.record(event)
    this.outputLogs.get(event.agentId)?.add(event)
    this.bus.emit(event)
  }

  agents(): Map<string, LoadedAgent> {
    return this.loaded
  }

  newAgentId(): string {
    return `a${randomBytes(8).toString('hex')}`
  }

  availableToolNames(): string[] {
    return [
      ...BUILTIN_TOOL_NAMES,
      AGENT_TOOL_NAME,
      SEND_MESSAGE_TOOL_NAME,
      TASK_OUTPUT_TOOL_NAME,
      TASK_STOP_TOOL_NAME,
      ...(this.coordinator ? [SET_PHASE_TOOL_NAME] : []),
      ...(this.teamsEnabled ? TEAM_TOOL_NAMES : []),
      ...this.extensions.toolNames()
    ]
  }

  get hooks() {
    return this.extensions.hooks
  }

  prepareRun(handle: AgentHandle, def: AgentDefinition | null): Promise<() => Promise<void>> {
    return this.extensions.prepareRun(handle, def)
  }

  buildTools(handle: AgentHandle, names: readonly string[]): Tool[] {
    let state = this.toolState.get(handle.id)
    if (!state) this.toolState.set(handle.id, (state = { fileState: new FileState(), todos: new TodoList() }))
    const wanted = new Set([...names, ...memberToolNames(this.team, handle)])
    const isMain = handle.id === this.mainAgentId
    const tools = createBuiltinTools({ cwd: handle.cwd, fileState: state.fileState, todos: state.todos, ...(this.options.ripgrep !== undefined ? { ripgrep: this.options.ripgrep } : {}) })
    if (wanted.has(AGENT_TOOL_NAME)) {
      const spawn = (input: AgentToolInput, ctx: ToolContext) => spawnSubagent(this, handle, input, ctx)
      tools.push(createAgentTool({ agents: () => [...this.loaded.values()].map((l) => l.definition), spawn: this.coordinator && isMain ? this.coordinator.wrapSpawn(spawn) : spawn }))
    }
    if (this.coordinator && isMain && wanted.has(SET_PHASE_TOOL_NAME)) tools.push(this.coordinator.setPhaseTool(handle))
    if (this.teamsEnabled || !isMain) tools.push(...teamToolsFor(this.team, handle, { isMain, wanted }))
    if (wanted.has(SEND_MESSAGE_TOOL_NAME)) tools.push(createSendMessageTool(this, handle))
    const taskHost = { registry: this.registry, outputTail: (h: AgentHandle) => this.outputLogs.get(h.id)?.tail() }
    if (wanted.has(TASK_OUTPUT_TOOL_NAME)) tools.push(createTaskOutputTool(taskHost))
    if (wanted.has(TASK_STOP_TOOL_NAME)) tools.push(createTaskStopTool(taskHost))
    return this.extensions.tools(handle, tools.filter((t) => wanted.has(t.name)), wanted)
  }

  private git(cwd: string) {
    let probe = this.gitInfo.get(cwd)
    if (!probe) this.gitInfo.set(cwd, (probe = probeGit(cwd)))
    return probe
  }

  systemPrompt(def: AgentDefinition, handle: AgentHandle, worktree?: { path: string; branch: string; baseCommit?: string }): Promise<string> {
    // A team member's prompt is the team's instructions, then its definition's body (also after a restart).
    const own = memberDefinitionFor(this.team, handle, def)
    return agentSystemPrompt({ cwd: this.cwd, home: this.home, claudeMd: this.claudeMd, git: (cwd) => this.git(cwd) }, own, handle, worktree)
  }

  canUseTool(handle: AgentHandle): CanUseTool | undefined {
    if (this.options.permissions) return this.extensions.canUseTool(handle, this.options.permissions(handle), null)
    return this.extensions.canUseTool(handle, this.broker?.canUseTool(handle), this.broker)
  }

  outputLog(handle: AgentHandle): OutputLog {
    let log = this.outputLogs.get(handle.id)
    if (!log) {
      const dir = this.dataDir ? join(sessionDir(this.dataDir, this.sessionId), 'outputs') : join(tmpdir(), `fanout-${this.sessionId}`)
      this.outputLogs.set(handle.id, (log = new OutputLog(join(dir, `${handle.id}.output.txt`), this.onError)))
    }
    return log
  }

  track(run: Promise<unknown>): void {
    this.runs.add(run)
    const done = () => this.runs.delete(run)
    run.then(done, done)
  }

  mainHandle(): AgentHandle {
    return this.main.getHandle()
  }

  deliver(target: AgentHandle, text: string, opts: DeliverOptions): Delivery {
    this.emit({ agentId: target.id, parentAgentId: target.parentId, parentToolUseId: target.parentToolUseId, sessionId: this.sessionId, ts: Date.now(), type: 'message_received', from: opts.from, text, ...(opts.summary ? { summary: opts.summary } : {}) })
    target.inbox.push(text)
    if (target.id === this.mainAgentId) {
      const busy = this.main.busy
      if (opts.wake !== false) this.main.wake()
      return busy ? 'inbox' : this.main.busy ? 'woke' : 'held'
    }
    if (target.run) return 'inbox'
    if (opts.wake === false) return 'held'
    this.resumeFromInbox(target, opts.reportTo ?? null)
    return 'resumed'
  }

  resumeFromInbox(handle: AgentHandle, reportTo: string | null): void {
    const maxTurns = handle.definition?.maxTurns
    startSubagentRun(this, handle, { history: repairConversation(handle.messages).messages, reportTo, ...(maxTurns !== undefined ? { maxTurns } : {}) })
  }

  runEnded(handle: AgentHandle, result: ChildResult, request: RunRequest): void {
    afterSubagentRun(this, handle, result, request, () => this.mainHandle())
  }

  async findAgent(idOrName: string): Promise<AgentHandle | undefined> {
    const live = this.registry.find(idOrName)
    if (live || !this.dataDir) return live
    let load = this.dormantLoads.get(idOrName)
    if (!load) {
      load = loadDormantAgent(this.dormantContext(), idOrName)
      this.dormantLoads.set(idOrName, load)
      load.finally(() => this.dormantLoads.delete(idOrName)).catch(() => undefined)
    }
    return load
  }

  /** This session as the resume helpers see it; only called when it has a data folder. */
  private dormantContext(): DormantContext {
    return this as AgentSession & { dataDir: string }
  }

  async claimMailbox(handle: AgentHandle): Promise<void> {
    if (!this.dataDir) return
    const boxes = [handle.id, ...(handle.name && handle.name !== handle.id && /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/.test(handle.name) ? [handle.name] : [])]
    for (const box of boxes) {
      try {
        for (const m of await claimMessages(this.dataDir, this.sessionId, box, { onProblem: (p) => this.onError(new Error(p)) }))
          this.deliver(handle, formatAgentMessage(m.from, m.text, m.summary), { from: m.from, ...(m.summary ? { summary: m.summary } : {}), wake: false })
      } catch (err) {
        this.onError(new Error(`Could not read the mailbox of agent ${handle.id}: ${err instanceof Error ? err.message : String(err)}`))
      }
    }
  }

  /** Sends a prompt to the main agent; a follow-up continues the same conversation. */
  run(prompt: string, opts: RunOptions = {}): Promise<AgentRunResult> {
    // Its conversation may say those agents work in the background: it must not wait for their reports.
    // Not those resumed or messaged since (they left the interrupted state).
    const cutOff = this.cutOff.filter((a) => (this.registry.get(a.agentId)?.status ?? 'interrupted') === 'interrupted')
    this.cutOff = []
    if (!cutOff.length) return this.main.run(prompt, opts)
    // After the prompt, so that the prompt stays the run's first line (its label); hidden in the UI like any reminder.
    const blocks: ContentBlock[] = [{ type: 'text', text: prompt }, reminderBlock(cutOffNote(cutOff))]
    return this.main.run(blocks, opts)
  }

  /** Stops one agent and its descendants (default: the main agent, and so everything). */
  stop(agentId: string = this.mainAgentId, byUser = true): boolean {
    return this.registry.stop(agentId, byUser)
  }

  /**
   * A message to an agent by id or name (`main` for the main agent), from the person (`user`) or an agent id.
   * Running: read at its next turn. Finished or stopped: resumed with it. Unknown to this session (not
   * started yet): kept in its durable mailbox (needs a dataDir). Throws when it cannot be delivered at all.
   */
  sendMessage(to: string, message: string, from = 'user', summary?: string): Promise<SendOutcome> {
    return sendMessage(this, to, message, from, summary)
  }

  /** Answers a `permission_request` event. Throws when no such request is waiting. */
  respondPermission(requestId: string, decision: PermissionAnswer): void {
    if (!this.broker) throw new Error(`No permission request ${requestId} is waiting: this session's permissions are decided by its own hook.`)
    this.broker.respond(requestId, decision)
  }

  /** Permission requests waiting for an answer (e.g. to show them again after the UI reconnects). */
  pendingPermissions(): PermissionRequestEvent[] {
    return this.broker?.pending() ?? []
  }

  /** Restarts the agents a crash or quit cut off (never ones the person stopped); needs a dataDir. */
  async resumeInterrupted(): Promise<ResumeReport> {
    if (!this.dataDir) return { resumed: [], problems: [] }
    return resumeInterrupted(this.dormantContext(), (note) => {
      this.deliver(this.mainHandle(), note, { from: 'fanout' })
    })
  }

  /** Fanout worktrees of this folder's repository whose agent is not running here: left behind by a crash, or kept work. */
  findOrphans(): Promise<OrphanWorktree[]> {
    return findOrphanWorktrees({ repoCwd: this.cwd, isLive: (id) => this.isLive(id) })
  }

  /** Removes an orphaned worktree (see cleanupOrphanWorktree: refuses uncommitted work unless forced). */
  cleanupOrphan(orphan: OrphanWorktree, options: CleanupOptions = {}): Promise<CleanupResult> {
    if (this.isLive(orphan.agentId)) return Promise.resolve({ removed: false, branchDeleted: false, reason: `agent ${orphan.agentId} is running in this session` })
    return cleanupOrphanWorktree(orphan, options)
  }

  private isLive(agentId: string): boolean {
    const h = this.registry.get(agentId)
    return !!h && (h.run !== null || !isFinished(h.status))
  }

  /** Resolves once nothing runs: the main agent, every subagent (background ones too), and the runs their reports wake. */
  async idle(): Promise<void> {
    while (this.runs.size) await Promise.allSettled([...this.runs])
  }

  /** Everything recorded so far is on disk: transcripts, session.json, state files and output logs. */
  async flush(): Promise<void> {
    await this.team.flush()
    await Promise.all([this.persistence?.flush(), ...[...this.outputLogs.values()].map((l) => l.flush())])
  }

  /** Flushes and releases the session's files. Call after stop() and idle() when the session is done. */
  async close(): Promise<void> {
    await this.extensions.close()
    await this.team.flush()
    await Promise.all([...[...this.outputLogs.values()].map((l) => l.flush())])
    await this.persistence?.close()
  }
}
