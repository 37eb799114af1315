// A session: one conversation with a main agent and every subagent it spawns. It owns the event bus, the
// agent registry, the spawn limits and (with a data folder) the transcripts, agent state and lock; it builds
// its parts (definitions, settings and trust, permissions, sandbox, extensions) and from them the services
// its agents are given (agent-services.ts: tools, prompts, main agent, delivery, team), which the helpers
// get instead of the session. Reopening restores its agents through restore-agents.ts. Adapters (CLI, app,
// browser mode) create or reopen one, subscribe to its events and use its public methods below.
import { cleanUuid } from '../../random-hex'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { LoadedAgent, PermissionMode } from '../../../../shared/agent-definition'
import type { AgentEvent, ContentBlock, PermissionRequestEvent } from '../../../../shared/events'
import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings } from '../../compaction/context-settings'
import { EventRedactor } from '../../../../shared/redact-events'
import { madeClean } from '../../../../shared/redact'
import type { FolderTrust } from '../../../../shared/trust'
import type { Usage } from '../../../../shared/usage'
import { reminderBlock } from '../../loop'
import type { AgentRunResult } from '../../loop/types'
import { DEFAULT_MODEL_ALIASES, type ModelAliases } from '../../model/aliases'
import type { ModelClient } from '../../model/types'
import type { PermissionSettings } from '../../permissions'
import type { PermissionChoice } from '../../../../shared/permission-answer'
import { openSession, SessionNotFoundError, sessionDir } from '../../store'
import type { SessionLock } from '../../store/session-lock'
import { cleanupOrphanWorktree, findOrphanWorktrees, type CleanupOptions, type CleanupResult, type OrphanWorktree } from '../../worktrees'
import { compactById, type CompactOutcome } from '../runs/compact-agent'
import { AgentRegistry, isFinished, type AgentHandle } from '../runs/agent-registry'
import { budgetedClient } from '../runs/budget'
import { RunHistoryRecorder } from '../runs/run-history'
import type { Coordinator } from '../coordinator/coordinator'
import type { DeliveryLedger } from '../messaging/delivery-ledger'
import { EventBus } from '../messaging/event-bus'
import type { SessionExtensions } from './extensions'
import { DEFAULT_LIMITS, SpawnGate, type SpawnLimits } from '../runs/limits'
import type { MainAgentConfig } from '../runs/main-agent'
import type { ResumeReport } from '../runs/resume'
import { sendMessage, type SendOutcome } from '../messaging/send-message'
import { AgentServices } from './agent-services'
import { restoreAgents, resumeAgents } from './restore-agents'
import { failedAgents, retryAgent } from '../runs/retry-agent'
import { mentionBlocks } from './prompt-mentions'
import { SessionFiles, withSessionLock } from './session-files'
import { buildSessionParts } from './session-parts'
import { contextFacts, prepareCommand, sessionCommands, type CommandsHost, type ContextFacts, type PreparedPrompt } from './session-commands'
import type { CommandDefinition } from '../../commands'
import { DEFAULT_BACKGROUND_STALL_MS, mainConfigOf, type AgentSessionOptions, type OpenSessionOptions, type RunOptions } from './session-options'
import type { SessionPermissions } from './session-permissions'
import type { SessionSandbox } from './session-sandbox'
import type { SessionSettings } from './session-settings'

const tokensOf = (u: Usage): number => u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens

const mainAgentIdOf = (sessionId: string): string => `main-${sessionId.slice(0, 8)}`

/** A new session's id, and its main agent's, known to the redaction as made here (shared/redact.ts madeClean). */
function newSessionId(): string {
  const id = cleanUuid()
  madeClean(mainAgentIdOf(id))
  return id
}

export class AgentSession {
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
  readonly contextSettings: ContextSettings
  readonly toolOutputDir: string
  /** What reopening the session found wrong or repaired (empty for a new session). */
  openNotes: string[] = []
  /** Of those, what the person must be told wherever they look (a state file that could not be used). */
  openWarnings: string[] = []
  /** Reopened with the main agent's conversation lost (transcript deleted, empty, unreadable): why. Resuming it is refused. */
  lostHistory: string | null = null
  /** Its lock aside, what it keeps on disk: transcripts and state, output logs, tool outputs, the team's log. */
  private readonly files: SessionFiles
  private readonly permissions: SessionPermissions
  private readonly mainConfig: MainAgentConfig
  /** The Bash sandbox as this session uses it. */
  readonly sandbox: SessionSandbox
  /** What the session gives its agents (tools, prompts, permissions, main agent, team…): handed to the helpers instead of the session. */
  private readonly services: AgentServices
  /** The recorded session this one reopened: its title, its agents, what it had spent before the restart, and when it began and last did something. */
  reopened: { title: string; costUsd: number; tokens: number; usage: Usage; agentIds: string[]; createdAt: number; updatedAt: number } | null = null
  /** MCP servers and hooks around the agents' tools. */
  readonly extensions: SessionExtensions
  /** Each subagent run, as it ends, into the agent definitions' history (null: nothing is recorded). */
  private history: RunHistoryRecorder | null = null
  /** What the files say as of the last reload (trust, effort, worktree.baseRef). */
  private readonly settings: SessionSettings
  /** Set as close() begins: nothing starts in the session after that (its files and lock are being let go). */
  private closing = false

  private constructor(
    readonly options: AgentSessionOptions,
    /** This process's hold on the session (see store/session-lock.ts); null for an in-memory session. */
    private readonly lock: SessionLock | null = null
  ) {
    this.sessionId = options.sessionId ?? newSessionId()
    this.home = options.home ?? homedir()
    this.aliases = options.aliases ?? { ...DEFAULT_MODEL_ALIASES }
    this.gate = new SpawnGate({ ...DEFAULT_LIMITS, ...options.limits }, () => {
      const now = this.registry.totalUsage()
      return { costUsd: (this.reopened?.costUsd ?? 0) + now.costUsd, tokens: (this.reopened?.tokens ?? 0) + tokensOf(now) }
    })
    this.client = budgetedClient(options.client, this.gate)
    this.mainAgentId = mainAgentIdOf(this.sessionId)
    this.dataDir = options.dataDir
    this.backgroundStallMs = options.backgroundStallMs ?? DEFAULT_BACKGROUND_STALL_MS
    // Where the session keeps its files: in its data folder, else (nothing to keep after it) in a temporary one.
    this.files = new SessionFiles({ ...options, sessionId: this.sessionId, registry: this.registry, onError: this.onError, owned: lock !== null })
    this.toolOutputDir = this.files.toolOutputDir
    this.contextSettings = { ...DEFAULT_CONTEXT_SETTINGS, ...options.context, windows: { ...DEFAULT_CONTEXT_SETTINGS.windows, ...options.context?.windows } }
    this.mainConfig = mainConfigOf(options)
    // emit and track are read late: both exist once the constructor is done, before anything runs.
    const parts = buildSessionParts({
      options,
      sessionId: this.sessionId,
      home: this.home,
      mainAgentId: this.mainAgentId,
      registry: this.registry,
      toolOutputDir: this.toolOutputDir,
      mainConfig: this.mainConfig,
      emit: (e) => this.emit(e),
      track: (work) => this.services.track(work)
    })
    this.extensions = parts.extensions
    this.sandbox = parts.sandbox
    this.permissions = parts.permissions
    this.settings = parts.settings
    this.services = new AgentServices({
      options,
      sessionId: this.sessionId,
      home: this.home,
      mainAgentId: this.mainAgentId,
      client: this.client,
      aliases: this.aliases,
      registry: this.registry,
      gate: this.gate,
      bus: this.bus,
      backgroundStallMs: this.backgroundStallMs,
      contextSettings: this.contextSettings,
      toolOutputDir: this.toolOutputDir,
      emit: this.emit,
      onError: this.onError,
      ...parts,
      files: this.files,
      mainConfig: this.mainConfig
    })
    if (options.coordinator) this.services.enableCoordinator()
    // The session that owns its data folder records its subagents' runs in the definitions' history.
    if (options.dataDir && lock)
      this.history = new RunHistoryRecorder({
        dataDir: options.dataDir,
        sessionId: this.sessionId,
        mainAgentId: this.mainAgentId,
        registry: this.registry,
        onError: this.onError
      })
  }

  /** Set in coordinator mode: the current phase and the SetPhase tool. */
  get coordinator(): Coordinator | null {
    return this.services.coordinator
  }

  /** What the transcripts said was still owed when the session was reopened (empty for a new one). */
  get ledger(): DeliveryLedger {
    return this.services.ledger
  }

  subscribe(listener: (event: AgentEvent) => void): () => void {
    return this.bus.subscribe(listener)
  }

  /** A new session. With a data folder it is this process's from the start: it takes the session's lock. */
  static async create(options: AgentSessionOptions): Promise<AgentSession> {
    const sessionId = options.sessionId ?? newSessionId()
    // Before any work: a data folder that cannot hold the session is one clear error, not a run that loses its record.
    const build = async (lock: SessionLock | null) => {
      const session = new AgentSession({ ...options, sessionId }, lock)
      await session.reload()
      return session
    }
    return options.dataDir ? withSessionLock(options.dataDir, sessionId, options.owner, build) : build(null)
  }

  /**
   * Reopens a recorded session after a restart: the main agent's conversation is restored, so `run()`
   * continues it; earlier subagents can be resumed, messaged and inspected by id or name. Agents that were
   * cut off are not restarted until `resumeInterrupted()` is called.
   */
  static async open(options: OpenSessionOptions): Promise<AgentSession> {
    // One process runs a session: the lock first (SessionLockedError names the owner), then the files, which
    // from here on nobody else writes. An unknown id leaves no folder behind.
    if (!existsSync(sessionDir(options.dataDir, options.sessionId)))
      throw new SessionNotFoundError(`No session ${options.sessionId} in ${join(options.dataDir, 'sessions')}`)
    return withSessionLock(options.dataDir, options.sessionId, options.owner, (lock) => AgentSession.reopen(options, lock))
  }

  private static async reopen(options: OpenSessionOptions, lock: SessionLock): Promise<AgentSession> {
    // The lock is ours: whoever wrote the session before is gone, and every run it left open was cut off.
    const opened = await openSession(options.dataDir, options.sessionId, { writerGone: true })
    const cwd = options.cwd ?? opened.index.cwd
    if (!cwd) throw new Error(`Session ${options.sessionId} does not say which folder it worked in; pass cwd to reopen it.`)
    const session = new AgentSession({ ...options, cwd }, lock)
    session.openNotes.push(...opened.notes)
    session.reopened = {
      title: opened.index.title,
      costUsd: opened.index.costUsd,
      tokens: tokensOf(opened.index.usage),
      usage: opened.index.usage,
      agentIds: Object.keys(opened.index.agents),
      createdAt: opened.index.createdAt,
      updatedAt: opened.index.updatedAt
    }
    await session.reload()
    const restored = await restoreAgents(session.services, session.settings, opened, { dataDir: options.dataDir, cwd })
    session.openNotes.push(...restored.notes)
    session.openWarnings.push(...restored.warnings)
    session.lostHistory = restored.lostHistory ?? null
    return session
  }

  get cwd(): string {
    return this.options.cwd
  }

  get mainPermissionMode(): PermissionMode {
    return this.services.mainPermissionMode
  }

  /** The main agent's last finished run (after idle(), the answer to the last prompt or report). */
  get lastResult(): AgentRunResult | null {
    return this.services.main.lastResult
  }

  /** The permission settings in force (rules, defaultMode, and problems found in the files). */
  get permissionSettings(): PermissionSettings | null {
    return this.permissions.settings
  }

  /** What the folder brings that runs or grants by itself, and whether each is approved (as of the last reload). */
  get folderTrust(): FolderTrust | null {
    return this.settings.folderTrust
  }

  /**
   * Re-reads agent definitions, CLAUDE.md, MCP servers, hooks and permission settings; what changed on disk
   * applies to the next spawn. What the folder brings and the person has not approved is kept out (trust/).
   */
  reload(): Promise<void> {
    return this.settings.reload()
  }

  /** Problems with the effort settings of the Claude Code settings files (read by the last reload). */
  get settingsNotes(): string[] {
    return this.settings.notes
  }

  /** false: thinking off where the model allows it (the session's option, else `alwaysThinkingEnabled` in the settings files). */
  get thinking(): boolean | undefined {
    return this.settings.thinking
  }

  /** The effort the main agent runs with when its definition sets none (undefined: each model's default). */
  get effort(): string | number | undefined {
    return this.mainConfig.effort
  }

  readonly onError = (err: Error): void => {
    if (this.options.onError) this.options.onError(err)
    else console.error(`fanout: ${err.message}`)
  }

  /** Credentials never reach transcripts, the UI or the CLI: every event is redacted here, on its way out. */
  private readonly redactor = new EventRedactor()

  readonly emit = (event: AgentEvent): void => {
    this.redactor.each(event, this.emitRedacted)
  }

  private readonly emitRedacted = (event: AgentEvent): void => {
    // Time-based, so a session resumed by a later process goes on counting upwards without reading the last one.
    event.seq = this.lastSeq = Math.max(Date.now() * 1000, this.lastSeq + 1)
    this.registry.note(event)
    this.files.record(event)
    this.history?.note(event)
    this.bus.emit(event)
    this.extensions.onEvent(event)
    if (event.type === 'tool_start' && event.name === 'Bash') this.sandbox.warmForBash()
  }

  /** Effective agent definitions (the CLI's list of agent types). */
  agents(): Map<string, LoadedAgent> {
    return this.services.definitions.agents()
  }

  /** Skills the model can invoke (the CLI's init line). */
  skillNames(): string[] {
    return this.services.definitions
      .skills()
      .filter((skill) => skill.modelInvocable)
      .map((s) => s.name)
  }

  /** An agent by id or name: running or finished here, or (after a restart) loaded from disk. */
  findAgent(idOrName: string): Promise<AgentHandle | undefined> {
    return this.services.findAgent(idOrName)
  }

  /** The main agent's handle. */
  mainHandle(): AgentHandle {
    return this.services.main.getHandle()
  }

  /**
   * Sends a prompt (text, or the blocks a slash command became) to the main agent; a follow-up continues the same
   * conversation. Files and agents a typed prompt mentions (`@path`, `@agent-type`) go with it as Claude Code sends
   * them (prompt-mentions.ts); a command's own `@file`s were read when it was prepared (session-commands.ts).
   */
  async run(prompt: string | ContentBlock[], opts: RunOptions = {}): Promise<AgentRunResult> {
    this.refuseClosed()
    const agents = this.services.definitions.agents()
    const mentioned =
      typeof prompt === 'string'
        ? await mentionBlocks(prompt, this.services.permissions.pathPolicyIn(this.cwd), this.mainAgentId, (type) => agents.has(type))
        : []
    // Its conversation may say those agents work in the background: it must not wait for their reports.
    this.refuseClosed() // closed while the prompt's mentions were read
    const note = this.services.dormant.takeCutOffNote()
    if (!note && mentioned.length === 0) return this.services.main.run(prompt, opts)
    // After the prompt, so that the prompt stays the run's first line (its label); hidden in the UI like any reminder.
    const blocks: ContentBlock[] = [
      ...(typeof prompt === 'string' ? [{ type: 'text' as const, text: prompt }] : prompt),
      ...mentioned,
      ...(note ? [reminderBlock(note)] : [])
    ]
    return this.services.main.run(blocks, opts)
  }

  /** Every slash command a person can type here: command files, plugin folders', skills (commands/). */
  commands(): Promise<CommandDefinition[]> {
    return sessionCommands(this.commandsHost())
  }

  /** A command with its arguments made ready to run (its `!` blocks run, `@files` read, as the main agent would). */
  prepareCommand(command: CommandDefinition, args: string): Promise<PreparedPrompt> {
    return prepareCommand(this.commandsHost(), command, args)
  }

  /** What `/context` reports: the main agent's model and its next request's parts, estimated. */
  contextFacts(): Promise<ContextFacts> {
    const services = this.services
    return contextFacts({
      tools: services.tools,
      main: services.main,
      contextSettings: this.contextSettings,
      systemPrompt: (def, handle) => services.systemPrompt(def, handle)
    })
  }

  private commandsHost(): CommandsHost {
    return {
      tools: this.services.tools,
      main: this.services.main,
      permissions: this.services.permissions,
      extensions: this.extensions,
      cwd: this.cwd,
      home: this.home,
      folderTrusted: () => this.options.trustProject === true || this.folderTrust?.state === 'trusted',
      ...(this.options.pluginDirs ? { pluginDirs: this.options.pluginDirs } : {})
    }
  }

  /**
   * Compacts an agent's conversation (by id or name; default the main agent), keeping what `instructions` asks
   * for: now when it is idle, else before its next model request ('scheduled'). Throws with the reason when an
   * idle agent's compaction fails (its conversation is then unchanged).
   */
  compact(agentId: string = this.mainAgentId, instructions?: string): Promise<CompactOutcome> {
    if (this.closing) return Promise.reject(closedError(this.sessionId))
    return compactById(this.services, this.services.main, agentId, instructions)
  }

  /**
   * Runs a failed agent (by id or name; `main` for the main agent) again from its conversation as it stands:
   * the failed request is sent again. Resolves once it started; `run` settles when it ends.
   */
  retry(agentId: string): ReturnType<typeof retryAgent> {
    if (this.closing) return Promise.reject(closedError(this.sessionId))
    return retryAgent(this.services, agentId)
  }

  /** What a retry naming no agent runs again: the main agent if it failed, else every failed subagent (see failedAgents). */
  failedAgents(): Promise<string[]> {
    return failedAgents(this.services)
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
    if (this.closing) return Promise.reject(closedError(this.sessionId))
    return sendMessage(this.services, to, message, from, summary)
  }

  /**
   * Answers a `permission_request` event: the person's choice, and words for the agent (its tool result says
   * them). Throws when no such request is waiting. Resolves once the answer
   * is on disk: an answer acknowledged to the person is never lost to a crash.
   */
  respondPermission(requestId: string, decision: PermissionChoice, feedback?: string): Promise<void> {
    const watcher = this.permissions.pending().find((p) => p.requestId === requestId)?.agentId
    this.permissions.respond(requestId, decision, feedback)
    return watcher ? this.files.durable(watcher) : Promise.resolve()
  }

  /** Permission requests waiting for an answer (e.g. to show them again after the UI reconnects). */
  pendingPermissions(): PermissionRequestEvent[] {
    return this.permissions.pending()
  }

  /**
   * Restarts the agents a crash or quit cut off (never ones the person stopped), and those with deliveries
   * waiting that they were about to read; needs a dataDir.
   */
  resumeInterrupted(): Promise<ResumeReport> {
    if (this.closing) return Promise.reject(closedError(this.sessionId))
    return this.dataDir ? resumeAgents(this.services as AgentServices & { dataDir: string }) : Promise.resolve({ resumed: [], problems: [], notResumed: [] })
  }

  /** Fanout worktrees of this folder's repository whose agent is not running here: left behind by a crash, or kept work. */
  findOrphans(): Promise<OrphanWorktree[]> {
    return findOrphanWorktrees({ repoCwd: this.cwd, isLive: (id) => this.registry.isLive(id) })
  }

  /** Removes an orphaned worktree (see cleanupOrphanWorktree: refuses uncommitted work unless forced). */
  cleanupOrphan(orphan: OrphanWorktree, options: CleanupOptions = {}): Promise<CleanupResult> {
    if (this.registry.isLive(orphan.agentId))
      return Promise.resolve({ removed: false, branchDeleted: false, reason: `agent ${orphan.agentId} is running in this session` })
    return cleanupOrphanWorktree(orphan, options)
  }

  /** New limits from Settings: the turn ceiling and budgets apply from the next run or model call (concurrency and depth stay as the session began). */
  applyLimits(limits: Partial<SpawnLimits>): void {
    const { maxConcurrent: _c, maxDepth: _d, maxAgentsPerSession: _n, ...later } = limits
    for (const [k, v] of Object.entries(later)) if (v !== undefined) Object.assign(this.gate.limits, { [k]: v })
  }

  /**
   * Team tasks claimed (in progress) by a member that is not running: once the session is idle nothing will
   * finish them. One sentence each; empty without a team.
   */
  stalledTeamTasks(): string[] {
    const team = this.services.team.active()
    if (!team) return []
    return team.tasks
      .filter((t) => t.status === 'in_progress')
      .flatMap((t) => {
        const member = team.members.find((m) => m.name === t.owner)
        const handle = member ? this.registry.get(member.agentId) : undefined
        if (handle && (handle.run !== null || !isFinished(handle.status))) return []
        return [`Team task ${t.id} ("${t.subject}") is still claimed by ${t.owner ?? 'nobody'}, who is not running: it will not be finished.`]
      })
  }

  /** Agents not finished: queued, running or waiting, or with a run in progress. None once idle() resolved, unless something is stuck. */
  unfinished(): AgentHandle[] {
    return this.registry.all().filter((h) => h.run !== null || !isFinished(h.status))
  }

  /** Resolves once nothing runs: the main agent, every subagent (background ones too), and the runs their reports wake. */
  async idle(): Promise<void> {
    const { runs } = this.services
    while (runs.size) await Promise.allSettled([...runs])
  }

  /**
   * Everything recorded so far is on disk: transcripts, session.json, state files and output logs.
   * `endState: false` leaves the state file the session's last run ended with to close() (runs/persistence.ts).
   */
  async flush(opts: { endState?: boolean } = {}): Promise<void> {
    await this.history?.flush()
    await this.services.team.flush()
    await this.files.flush(opts)
  }

  /**
   * Flushes and releases the session's files and its lock. Call after stop() and idle() when the session is done.
   * A session whose main agent ran here ends with its SessionEnd hooks (`reason` as Claude Code's: clear,
   * logout, prompt_input_exit or other), before its MCP servers close. Last, once the lock is let go, the
   * states runs ended with are fsynced and the session's view is checkpointed for the next open (best effort),
   * unless `checkpoint: false` leaves that to checkpoint(): `fanout run` prints its answer first.
   */
  async close(reason = 'other', opts: { checkpoint?: boolean } = {}): Promise<void> {
    this.closing = true
    try {
      const main = this.services.main
      if (main.sessionStarted) await this.extensions.hooks.sessionEnd(main.getHandle(), reason)
      await this.extensions.close()
      await this.history?.flush()
      await this.services.team.flush()
      await this.files.close()
    } finally {
      await this.lock?.release()
    }
    if (opts.checkpoint !== false) await this.checkpoint()
  }

  /** A run asked for once close() began is refused: it would write to a closed recorder and outlive its host. */
  private refuseClosed(): void {
    if (this.closing) throw closedError(this.sessionId)
  }

  /**
   * After close(…, { checkpoint: false }): the fsync of the states runs ended with (runs/persistence.ts), and the
   * session's view, for the next open to read instead of replaying it.
   */
  checkpoint(): Promise<void> {
    return this.files.checkpoint()
  }
}

/** What a call that would start work in a closed session is answered with. */
export class SessionClosedError extends Error {
  readonly code = 'session_closed'
}

const closedError = (sessionId: string): SessionClosedError => new SessionClosedError(`Session ${sessionId} is closed: nothing more runs in it.`)
