// A session: one conversation with a main agent and every subagent it spawns. It owns the event bus, the
// agent registry, the spawn limits and (with a data folder) the transcripts and agent state, and wires up
// what serves its agents: definitions and prompts (session-definitions.ts), settings and trust
// (session-settings.ts), tools (tools/session-tools.ts), permission requests (session-permissions.ts) and
// delivery (messaging/delivery.ts). Adapters (CLI, app, browser mode) create or reopen one and subscribe to
// its events.
import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentDefinition, LoadedAgent, PermissionMode } from '../../../../shared/agent-definition'
import type { AgentEvent, ContentBlock, PermissionRequestEvent } from '../../../../shared/events'
import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings } from '../../compaction/context-settings'
import { EventRedactor } from '../../../../shared/redact-events'
import type { FolderTrust } from '../../../../shared/trust'
import type { Usage } from '../../../../shared/usage'
import { reminderBlock } from '../../loop'
import type { AgentRunResult, CanUseTool } from '../../loop/types'
import { DEFAULT_MODEL_ALIASES, type ModelAliases } from '../../model/aliases'
import type { ModelClient } from '../../model/types'
import type { PermissionAnswer, PermissionSettings } from '../../permissions'
import {
  checkDataDirWritable,
  credentialsPath,
  listAgentStates,
  loadAgentForResume,
  openSession,
  repairConversation,
  resolveDataDir,
  SessionNotFoundError,
  sessionDir
} from '../../store'
import { acquireSessionLock, type SessionLock } from '../../store/session-lock'
import { isReadOnlyAgent } from '../../permissions'
import type { PathPolicy } from '../../security/path-policy'
import type { BashSandboxOptions } from '../../tools/bash-sandbox'
import type { Tool } from '../../tools/define-tool'
import { AgentWorkReview } from '../../review'
import { cleanupOrphanWorktree, findOrphanWorktrees, type CleanupOptions, type CleanupResult, type OrphanWorktree, type WorktreeBaseRef } from '../../worktrees'
import { startInboxRun } from '../runs/agent-run'
import { compactById, type CompactOutcome } from '../runs/compact-agent'
import { AgentRegistry, isFinished, type AgentHandle } from '../runs/agent-registry'
import { budgetedClient } from '../runs/budget'
import { Coordinator } from '../coordinator/coordinator'
import { COORDINATOR_AGENT_TYPE } from '../coordinator/coordinator-prompt'
import { Deliveries } from '../messaging/delivery'
import { DeliveryLedger, pendingDeliveries } from '../messaging/delivery-ledger'
import { EventBus } from '../messaging/event-bus'
import { SessionExtensions } from './extensions'
import { DEFAULT_LIMITS, SpawnGate, type SpawnLimits } from '../runs/limits'
import { MainAgent, type MainAgentConfig } from '../runs/main-agent'
import { OutputLogs, type OutputLog } from '../runs/output-log'
import { SessionPersistence } from '../runs/persistence'
import type { SkillEntry } from '../../context/skill-index'
import { DormantAgents, resumeInterrupted, taskOf, type DormantContext, type ResumeReport } from '../runs/resume'
import { claimMailbox, sendMessage, type SendOutcome } from '../messaging/send-message'
import { SessionDefinitions } from './session-definitions'
import { DEFAULT_BACKGROUND_STALL_MS, type AgentSessionOptions, type OpenSessionOptions, type RunOptions } from './session-options'
import { SessionPermissions } from './session-permissions'
import { SessionSandbox } from './session-sandbox'
import { SessionSettings } from './session-settings'
import { SessionTools } from '../tools/session-tools'
import { REQUEST_MERGE_TOOL_NAME, type RequestMergeHost } from '../tools/request-merge-tool'
import { memberDefinitionFor, TeamManager } from '../team'
import type { SessionContext } from '../types'

const tokensOf = (u: Usage): number => u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens

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
  readonly contextSettings: ContextSettings
  readonly toolOutputDir: string
  /** What reopening the session found wrong or repaired (empty for a new session). */
  openNotes: string[] = []
  /** Of those, what the person must be told wherever they look (a state file that could not be used). */
  openWarnings: string[] = []
  private readonly definitions: SessionDefinitions
  private readonly outputLogs: OutputLogs
  private readonly runs = new Set<Promise<unknown>>()
  private readonly dormant: DormantAgents
  private readonly persistence: SessionPersistence | null
  private readonly permissions: SessionPermissions
  /** The Bash sandbox as this session uses it. */
  readonly sandbox: SessionSandbox
  private readonly tools: SessionTools
  private readonly main: MainAgent
  private readonly mainConfig: MainAgentConfig
  /** The recorded session this one reopened: its title, its agents, what it had spent before the restart, and when it began and last did something. */
  reopened: { title: string; costUsd: number; tokens: number; agentIds: string[]; createdAt: number; updatedAt: number } | null = null
  /** MCP servers and hooks around the agents' tools. */
  readonly extensions: SessionExtensions
  /** What the transcripts said was still owed when the session was reopened (empty for a new one). */
  ledger: DeliveryLedger = DeliveryLedger.empty()
  /** Set in coordinator mode: the current phase and the SetPhase tool. */
  coordinator: Coordinator | null = null
  /** The session's agent team (one at a time), its durable task list and tools. */
  readonly team: TeamManager
  /** How text and reports reach this session's agents. */
  readonly delivery: Deliveries
  /** What the files say as of the last reload (trust, effort, worktree.baseRef). */
  private readonly settings: SessionSettings

  private constructor(
    readonly options: AgentSessionOptions,
    /** This process's hold on the session (see store/session-lock.ts); null for an in-memory session. */
    private readonly lock: SessionLock | null = null
  ) {
    this.sessionId = options.sessionId ?? randomUUID()
    this.home = options.home ?? homedir()
    this.aliases = options.aliases ?? { ...DEFAULT_MODEL_ALIASES }
    this.gate = new SpawnGate({ ...DEFAULT_LIMITS, ...options.limits }, () => {
      const now = this.registry.totalUsage()
      return { costUsd: (this.reopened?.costUsd ?? 0) + now.costUsd, tokens: (this.reopened?.tokens ?? 0) + tokensOf(now) }
    })
    this.client = budgetedClient(options.client, this.gate)
    this.mainAgentId = `main-${this.sessionId.slice(0, 8)}`
    this.dataDir = options.dataDir
    this.backgroundStallMs = options.backgroundStallMs ?? DEFAULT_BACKGROUND_STALL_MS
    // Where the session keeps its files: in its data folder, else (nothing to keep after it) in a temporary one.
    const files = options.dataDir ? sessionDir(options.dataDir, this.sessionId) : join(tmpdir(), `fanout-${this.sessionId}`)
    this.toolOutputDir = join(files, 'tool-outputs')
    this.contextSettings = { ...DEFAULT_CONTEXT_SETTINGS, ...options.context, windows: { ...DEFAULT_CONTEXT_SETTINGS.windows, ...options.context?.windows } }
    this.outputLogs = new OutputLogs(options.dataDir ? join(files, 'outputs') : files, this.onError)
    this.persistence = options.dataDir
      ? new SessionPersistence({
          dataDir: options.dataDir,
          sessionId: this.sessionId,
          cwd: options.cwd,
          title: options.title,
          registry: this.registry,
          onError: this.onError,
          owned: lock !== null
        })
      : null
    this.mainConfig = {
      ...(options.model ? { model: options.model } : {}),
      ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
      ...(options.effort !== undefined ? { effort: options.effort } : {})
    }
    this.extensions = new SessionExtensions({
      sessionId: this.sessionId,
      cwd: options.cwd,
      home: this.home,
      mainAgentId: this.mainAgentId,
      dataDir: options.dataDir,
      registry: this.registry,
      emit: (e) => this.emit(e),
      track: (work) => this.track(work),
      ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
      ...(options.mcpStartTimeoutMs ? { mcpStartTimeoutMs: options.mcpStartTimeoutMs } : {}),
      ...(options.managedSettingsFile !== undefined ? { managedSettingsFile: options.managedSettingsFile } : {}),
      ...(options.passEnvironment ? { passEnv: options.passEnvironment } : {})
    })
    this.definitions = new SessionDefinitions({ cwd: options.cwd, home: this.home, ...(options.agentSources ? { agentSources: options.agentSources } : {}) })
    this.sandbox = new SessionSandbox(
      {
        sessionId: this.sessionId,
        mainAgentId: this.mainAgentId,
        emit: (e) => this.emit(e),
        ...(options.sandboxRuntime ? { runtime: options.sandboxRuntime } : {})
      },
      () => this.permissions.settings?.sandbox.disabledBy,
      () => options.headless === true
    )
    this.permissions = new SessionPermissions(this, options)
    this.settings = new SessionSettings({
      options,
      home: this.home,
      definitions: this.definitions,
      extensions: this.extensions,
      permissions: this.permissions,
      mainConfig: this.mainConfig
    })
    this.tools = new SessionTools(this, {
      ...(options.ripgrep !== undefined ? { ripgrep: options.ripgrep } : {}),
      ...(options.inProcessSearchUpTo !== undefined ? { inProcessSearchUpTo: options.inProcessSearchUpTo } : {}),
      outputTail: (h) => this.outputLogs.get(h.id)?.tail()
    })
    this.main = new MainAgent(this, this.mainConfig)
    this.delivery = new Deliveries({
      sessionId: this.sessionId,
      mainAgentId: this.mainAgentId,
      registry: this.registry,
      emit: this.emit,
      main: this.main,
      startRun: (h, reportTo) => startInboxRun(this, h, reportTo)
    })
    this.dormant = new DormantAgents(this.dormantContext())
    this.team = new TeamManager(this, join(files, 'team', 'log.jsonl'))
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

  /** A new session. With a data folder it is this process's from the start: it takes the session's lock. */
  static async create(options: AgentSessionOptions): Promise<AgentSession> {
    const sessionId = options.sessionId ?? randomUUID()
    // Before any work: a data folder that cannot hold the session is one clear error, not a run that loses its record.
    if (options.dataDir) await checkDataDirWritable(options.dataDir)
    const lock = options.dataDir ? await acquireSessionLock(options.dataDir, sessionId, { app: options.owner ?? 'Fanout' }) : null
    try {
      const session = new AgentSession({ ...options, sessionId }, lock)
      await session.reload()
      return session
    } catch (err) {
      await lock?.release()
      throw err
    }
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
    await checkDataDirWritable(options.dataDir)
    const lock = await acquireSessionLock(options.dataDir, options.sessionId, { app: options.owner ?? 'Fanout' })
    try {
      return await AgentSession.reopen(options, lock)
    } catch (err) {
      await lock.release()
      throw err
    }
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
      agentIds: Object.keys(opened.index.agents),
      createdAt: opened.index.createdAt,
      updatedAt: opened.index.updatedAt
    }
    await session.reload()
    // What the transcripts say is still owed: deliveries not consumed, reports not received, calls cut off.
    const ledger = DeliveryLedger.fromTranscripts(opened.agents)
    ledger.addLaunched((await listAgentStates(options.dataDir, options.sessionId)).states)
    session.ledger = ledger
    const main = await loadAgentForResume(options.dataDir, options.sessionId, session.mainAgentId, {
      sessionCwd: cwd,
      interruptedResult: (events) => ledger.interruptedResult(events)
    }).catch(() => null)
    // A crash cut the main agent off: it is idle now, and says so until it runs again.
    const cutOff = opened.interrupted.some((e) => e.agentId === session.mainAgentId)
    if (main) {
      session.openNotes.push(...main.notes.filter((n) => !n.includes('has no saved state')))
      // A broken state file costs nothing (the history comes from the transcript), but the person is told.
      session.openWarnings.push(...main.notes.filter((n) => n.includes('could not be used')))
      let agentType = main.state && main.state.definition.name !== 'main' ? main.state.definition.name : undefined
      if (agentType === COORDINATOR_AGENT_TYPE) {
        session.enableCoordinator()
        agentType = undefined
      }
      session.main.restore(repairConversation(main.messages).messages, agentType, cutOff ? 'interrupted' : 'completed')
      // The effort chosen when the session began (not its definition's own, which applies anyway).
      if (main.state?.effort !== undefined && !main.state.definition.file) {
        session.settings.restoredEffort = main.state.effort
        session.settings.applyEffort()
      }
      session.coordinator?.restore(main.messages)
      // Deliveries it received and no written turn consumed reach it at its next turn, once, in order.
      const { inbox, received } = pendingDeliveries(main.events)
      const handle = session.mainHandle()
      handle.inbox.push(...inbox)
      for (const id of received) handle.received.add(id)
      // Cut off before its first turn was written: the person's prompt is what it starts again from.
      if (!main.messages.length) Object.assign(handle, taskOf(main.state, main.events))
    } else if (cutOff) session.main.restore([], undefined, 'interrupted')
    session.dormant.cutOff = Object.values(opened.index.agents).filter((a) => a.status === 'interrupted' && a.agentId !== session.mainAgentId)
    await session.team.load()
    await session.delivery.deliverOwed(ledger.owedReports, opened.index, (id) => session.findAgent(id))
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

  worktreeBaseRef(): WorktreeBaseRef {
    return this.settings.baseRef
  }

  /** What the main agent's RequestMerge needs: this folder's agents' work, and the person's say through the permission queue. */
  requestMergeHost(handle: AgentHandle): RequestMergeHost {
    const review = new AgentWorkReview({ isLive: (id) => this.registry.isLive(id) })
    return {
      cwd: this.cwd,
      review,
      mode: () => handle.permissionMode,
      agentId: async (name) => (await this.findAgent(name))?.id,
      consent: (ctx, input, reason) => this.permissions.askConsent(handle, REQUEST_MERGE_TOOL_NAME, input, ctx.toolUseId, reason),
      strategy: async () => (await this.options.mergeStrategy?.()) ?? 'merge'
    }
  }

  readonly onError = (err: Error): void => {
    if (this.options.onError) this.options.onError(err)
    else console.error(`fanout: ${err.message}`)
  }

  /** Credentials never reach transcripts, the UI or the CLI: every event is redacted here, on its way out. */
  private readonly redactor = new EventRedactor()

  readonly emit = (event: AgentEvent): void => {
    for (const e of this.redactor.take(event)) this.emitRedacted(e)
  }

  private emitRedacted(event: AgentEvent): void {
    // Time-based, so a session resumed by a later process goes on counting upwards without reading the last one.
    event.seq = this.lastSeq = Math.max(Date.now() * 1000, this.lastSeq + 1)
    this.registry.note(event)
    this.persistence?.record(event)
    this.outputLogs.get(event.agentId)?.add(event)
    this.bus.emit(event)
    this.extensions.onEvent(event)
  }

  agents(): Map<string, LoadedAgent> {
    return this.definitions.agents()
  }

  /** The project's, the user's and the plugins' skills (the Skill tool's list). */
  skills(): SkillEntry[] {
    return this.definitions.skills()
  }

  skillNames(): string[] {
    return this.skills()
      .filter((s) => s.modelInvocable)
      .map((s) => s.name)
  }

  newAgentId(): string {
    return `a${randomBytes(8).toString('hex')}`
  }

  availableToolNames(): string[] {
    return this.tools.names()
  }

  get hooks() {
    return this.extensions.hooks
  }

  teammateOf(handle: AgentHandle): { teammateName: string; teamName: string } | null {
    const team = this.team.active()
    const member = team?.members.find((m) => m.agentId === handle.id)
    return team && member ? { teammateName: member.name, teamName: team.name } : null
  }

  prepareRun(handle: AgentHandle, def: AgentDefinition | null): Promise<() => Promise<void>> {
    return this.extensions.prepareRun(handle, def)
  }

  buildTools(handle: AgentHandle, names: readonly string[]): Tool[] {
    return this.tools.build(handle, names)
  }

  systemPrompt(def: AgentDefinition, handle: AgentHandle, worktree?: { path: string; branch: string; baseCommit?: string }): Promise<string> {
    // A team member's prompt is the team's instructions, then its definition's body (also after a restart).
    return this.definitions.systemPrompt(memberDefinitionFor(this.team, handle, def), handle, worktree, (message) => this.extensions.report(handle.id, message))
  }

  canUseTool(handle: AgentHandle): CanUseTool | undefined {
    return this.permissions.canUseTool(handle)
  }

  /** How this agent's Bash commands are sandboxed: read-only in plan mode and for read-only agents. */
  bashSandbox(handle: AgentHandle): BashSandboxOptions {
    return {
      runtime: this.sandbox.runtime(),
      floor: handle.permissionMode === 'plan' || isReadOnlyAgent(handle.definition) ? 'read-only' : 'workspace',
      allowedDomains: () => this.permissions.settings?.sandbox.allowedDomains ?? [],
      secretFiles: [credentialsPath(this.options.dataDir ?? resolveDataDir())],
      ...(this.options.passEnvironment ? { passEnv: this.options.passEnvironment } : {})
    }
  }

  /** The one path check for this agent's tools and permission decisions. */
  pathPolicy(handle: AgentHandle): PathPolicy {
    return this.permissions.pathPolicy(handle)
  }

  outputLog(handle: AgentHandle): OutputLog {
    return this.outputLogs.for(handle.id)
  }

  track(run: Promise<unknown>): void {
    this.runs.add(run)
    const done = () => this.runs.delete(run)
    run.then(done, done)
  }

  mainHandle(): AgentHandle {
    return this.main.getHandle()
  }

  async findAgent(idOrName: string): Promise<AgentHandle | undefined> {
    const live = this.registry.find(idOrName)
    if (live || !this.dataDir) return live
    return this.dormant.find(idOrName)
  }

  /** This session as the resume helpers see it; only called when it has a data folder. */
  private dormantContext(): DormantContext {
    return this as AgentSession & { dataDir: string }
  }

  claimMailbox(handle: AgentHandle): Promise<void> {
    return claimMailbox(this, handle)
  }

  durable(agentId: string): Promise<void> {
    return this.persistence ? this.persistence.flushAgent(agentId) : Promise.resolve()
  }

  recordLaunch(handle: AgentHandle, prompt: string | null): Promise<void> {
    return this.persistence ? this.persistence.writeState(handle, 'queued', prompt ?? undefined) : Promise.resolve()
  }

  /** Sends a prompt to the main agent; a follow-up continues the same conversation. */
  run(prompt: string, opts: RunOptions = {}): Promise<AgentRunResult> {
    // Its conversation may say those agents work in the background: it must not wait for their reports.
    const note = this.dormant.takeCutOffNote()
    if (!note) return this.main.run(prompt, opts)
    // After the prompt, so that the prompt stays the run's first line (its label); hidden in the UI like any reminder.
    const blocks: ContentBlock[] = [{ type: 'text', text: prompt }, reminderBlock(note)]
    return this.main.run(blocks, opts)
  }

  /**
   * Compacts an agent's conversation (by id or name; default the main agent), keeping what `instructions` asks
   * for: now when it is idle, else before its next model request ('scheduled'). Throws with the reason when an
   * idle agent's compaction fails (its conversation is then unchanged).
   */
  compact(agentId: string = this.mainAgentId, instructions?: string): Promise<CompactOutcome> {
    return compactById(this, this.main, agentId, instructions)
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

  /**
   * Answers a `permission_request` event. Throws when no such request is waiting. Resolves once the answer
   * is on disk: an answer acknowledged to the person is never lost to a crash.
   */
  respondPermission(requestId: string, decision: PermissionAnswer): Promise<void> {
    const watcher = this.permissions.pending().find((p) => p.requestId === requestId)?.agentId
    this.permissions.respond(requestId, decision)
    return watcher ? this.durable(watcher) : Promise.resolve()
  }

  /** Permission requests waiting for an answer (e.g. to show them again after the UI reconnects). */
  pendingPermissions(): PermissionRequestEvent[] {
    return this.permissions.pending()
  }

  /**
   * Restarts the agents a crash or quit cut off (never ones the person stopped), and those with deliveries
   * waiting that they were about to read; needs a dataDir.
   */
  async resumeInterrupted(): Promise<ResumeReport> {
    if (!this.dataDir) return { resumed: [], problems: [] }
    const report = await resumeInterrupted(this.dormantContext(), (note) => {
      const main = this.mainHandle()
      if (main.task !== undefined && !main.messages.length) this.delivery.deliver(main, main.task, { from: 'user', wake: false, deliveryId: `task-${main.id}` })
      main.task = undefined
      this.delivery.deliver(main, note, { from: 'fanout' })
    })
    // Deliveries waiting for the main agent (a report, a message) wake it, as they would have before the crash.
    if (!report.resumed.includes(this.mainAgentId) && this.mainHandle().inbox.length) {
      this.main.wake()
      report.resumed.unshift(this.mainAgentId)
    }
    return report
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
    const { maxTurns, budgetUsd, budgetTokens } = limits
    Object.assign(this.gate.limits, {
      ...(maxTurns !== undefined ? { maxTurns } : {}),
      ...(budgetUsd !== undefined ? { budgetUsd } : {}),
      ...(budgetTokens !== undefined ? { budgetTokens } : {})
    })
  }

  /** Agents not finished: queued, running or waiting, or with a run in progress. None once idle() resolved, unless something is stuck. */
  unfinished(): AgentHandle[] {
    return this.registry.all().filter((h) => h.run !== null || !isFinished(h.status))
  }

  /** Resolves once nothing runs: the main agent, every subagent (background ones too), and the runs their reports wake. */
  async idle(): Promise<void> {
    while (this.runs.size) await Promise.allSettled([...this.runs])
  }

  /** Everything recorded so far is on disk: transcripts, session.json, state files and output logs. */
  async flush(): Promise<void> {
    await this.team.flush()
    await Promise.all([this.persistence?.flush(), this.outputLogs.flush()])
  }

  /** Flushes and releases the session's files and its lock. Call after stop() and idle() when the session is done. */
  async close(): Promise<void> {
    try {
      await this.extensions.close()
      await this.team.flush()
      await this.outputLogs.flush()
      await this.persistence?.close()
    } finally {
      await this.lock?.release()
    }
  }
}
