// What a session gives its agents: definitions and prompts, tools, permission checks, the Bash sandbox, MCP
// servers and hooks, output logs, durable state and mailboxes, the main agent, deliveries, dormant agents and
// the team. The session builds one of these from its parts and hands it (never itself) to the run, spawn,
// delivery, resume and team helpers, each of which types it by the narrow host it needs (RunHost,
// SpawnHost, DormantContext, TeamHost, …). Those hosts name the parts they use (definitions, extensions,
// permissions, settings, files…), which are given as they are rather than through forwarding methods. The
// session keeps its lifecycle and public surface.
import { randomHex } from '../../random-hex'
import type { AgentDefinition, PermissionMode } from '../../../../shared/agent-definition'
import type { AgentEvent } from '../../../../shared/events'
import { madeClean } from '../../../../shared/redact'
import type { ContextSettings } from '../../compaction/context-settings'
import type { ModelAliases } from '../../model/aliases'
import type { ModelClient, ToolUseReady } from '../../model/types'
import { warmSpawn } from '../spawn/warm-spawn'
import { startsEarly } from '../spawn/early-spawn'
import { readHistoryAhead } from '../spawn/fanout-estimate'
import { AGENT_TOOL_NAME } from '../spawn/agent-tool-name'
import type { NestedInstructions } from '../../context/nested-instructions'
import { AgentWorkReview } from '../../review'
import { Coordinator } from '../coordinator/coordinator'
import { Deliveries } from '../messaging/delivery'
import { DeliveryLedger } from '../messaging/delivery-ledger'
import type { EventBus } from '../messaging/event-bus'
import { claimMailbox } from '../messaging/send-message'
import { startInboxRun } from '../runs/agent-run'
import type { AgentHandle, AgentRegistry } from '../runs/agent-registry'
import type { SpawnGate } from '../runs/limits'
import { MainAgent, type MainAgentConfig } from '../runs/main-agent'
import type { OutputLogs } from '../runs/output-log'
import { DormantAgents } from '../runs/resume'
import { memberDefinitionFor, TeamManager } from '../team'
import { REQUEST_MERGE_TOOL_NAME, type RequestMergeHost } from '../tools/request-merge-tool'
import { SessionTools } from '../tools/session-tools'
import type { SessionContext } from '../types'
import type { SessionExtensions } from './extensions'
import type { SessionDefinitions } from './session-definitions'
import type { SessionFiles } from './session-files'
import type { AgentSessionOptions } from './session-options'
import type { SessionPermissions } from './session-permissions'
import type { SessionSandbox } from './session-sandbox'
import type { SessionSettings } from './session-settings'

/** What the session fixed when it began, and the parts it built, that its agents are served from. */
export interface ServiceParts {
  options: AgentSessionOptions
  sessionId: string
  home: string
  mainAgentId: string
  client: ModelClient
  aliases: ModelAliases
  registry: AgentRegistry
  gate: SpawnGate
  bus: EventBus
  backgroundStallMs: number
  contextSettings: ContextSettings
  toolOutputDir: string
  emit(event: AgentEvent): void
  onError(err: Error): void
  definitions: SessionDefinitions
  extensions: SessionExtensions
  permissions: SessionPermissions
  sandbox: SessionSandbox
  settings: SessionSettings
  files: SessionFiles
  mainConfig: MainAgentConfig
}

export class AgentServices implements SessionContext {
  readonly sessionId: string
  readonly home: string
  readonly cwd: string
  readonly mainAgentId: string
  readonly dataDir: string | undefined
  readonly client: ModelClient
  readonly aliases: ModelAliases
  readonly registry: AgentRegistry
  readonly gate: SpawnGate
  readonly backgroundStallMs: number
  readonly contextSettings: ContextSettings
  readonly toolOutputDir: string
  readonly emit: (event: AgentEvent) => void
  readonly onError: (err: Error) => void
  readonly definitions: SessionDefinitions
  readonly extensions: SessionExtensions
  readonly permissions: SessionPermissions
  readonly sandbox: SessionSandbox
  readonly settings: SessionSettings
  readonly outputLogs: OutputLogs
  readonly bus: EventBus
  readonly files: SessionFiles
  readonly tools: SessionTools
  readonly main: MainAgent
  /** How text and reports reach this session's agents. */
  readonly delivery: Deliveries
  readonly dormant: DormantAgents
  /** The session's agent team (one at a time), its durable task list and tools. */
  readonly team: TeamManager
  /** Set in coordinator mode: the current phase and the SetPhase tool. */
  coordinator: Coordinator | null = null
  /** What the transcripts said was still owed when the session was reopened (empty for a new one). */
  ledger: DeliveryLedger = DeliveryLedger.empty()
  /** The runs idle() waits for. */
  readonly runs = new Set<Promise<unknown>>()

  constructor(private readonly p: ServiceParts) {
    const { options } = p
    this.sessionId = p.sessionId
    this.home = p.home
    this.cwd = options.cwd
    this.mainAgentId = p.mainAgentId
    this.dataDir = options.dataDir
    this.client = p.client
    this.aliases = p.aliases
    this.registry = p.registry
    this.gate = p.gate
    this.backgroundStallMs = p.backgroundStallMs
    this.contextSettings = p.contextSettings
    this.toolOutputDir = p.toolOutputDir
    this.emit = p.emit
    this.onError = p.onError
    this.definitions = p.definitions
    this.extensions = p.extensions
    this.permissions = p.permissions
    this.sandbox = p.sandbox
    this.settings = p.settings
    this.outputLogs = p.files.outputLogs
    this.bus = p.bus
    this.files = p.files
    this.tools = new SessionTools(this, {
      ...(options.ripgrep !== undefined ? { ripgrep: options.ripgrep } : {}),
      ...(options.inProcessSearchUpTo !== undefined ? { inProcessSearchUpTo: options.inProcessSearchUpTo } : {}),
      outputTail: (h) => this.outputLogs.get(h.id)?.tail()
    })
    this.main = new MainAgent(this, p.mainConfig)
    this.delivery = new Deliveries({
      sessionId: this.sessionId,
      mainAgentId: this.mainAgentId,
      registry: this.registry,
      emit: this.emit,
      main: this.main,
      startRun: (h, reportTo) => startInboxRun(this, h, reportTo)
    })
    // Only asked for agents on disk, so only with a data folder.
    this.dormant = new DormantAgents(this as AgentServices & { dataDir: string })
    this.team = new TeamManager(this, this.files.teamLog)
  }

  /** Coordinator mode from now on (also when a reopened session's main agent ran as the coordinator). */
  enableCoordinator(): void {
    this.coordinator ??= new Coordinator(this)
    this.p.mainConfig.coordinator = true
  }

  /** Asked for, in coordinator mode, or a reopened session that made a team: its lead keeps the tools to lead it. */
  get teamsEnabled(): boolean {
    return this.p.options.teams === true || this.coordinator !== null || this.team.everCreated
  }

  get mainPermissionMode(): PermissionMode {
    return this.main.modeFor(undefined)
  }

  newAgentId(): string {
    return madeClean(`a${randomHex(8)}`)
  }

  teammateOf(handle: AgentHandle): { teammateName: string; teamName: string } | null {
    const team = this.team.active()
    const member = team?.members.find((m) => m.agentId === handle.id)
    return team && member ? { teammateName: member.name, teamName: team.name } : null
  }

  async systemPrompt(def: AgentDefinition, handle: AgentHandle, worktree?: { path: string; branch: string; baseCommit?: string }): Promise<string> {
    // Claude Code's --system-prompt and --append-system-prompt are the main agent's only, as there.
    const { systemPrompt, appendSystemPrompt } = this.p.options
    const isMain = handle.id === this.mainAgentId
    const own = isMain && systemPrompt !== undefined ? { ...def, systemPrompt } : def
    // A team member's prompt is the team's instructions, then its definition's body (also after a restart).
    const text = await this.definitions.systemPrompt(memberDefinitionFor(this.team, handle, own), handle, worktree, (message) =>
      this.extensions.report(handle.id, message)
    )
    return isMain && appendSystemPrompt ? `${text}\n\n${appendSystemPrompt}` : text
  }

  nestedInstructions(def: AgentDefinition | null, handle: AgentHandle): Promise<NestedInstructions | null> {
    return this.definitions.nestedInstructions(def, handle)
  }

  sharedContext(def: AgentDefinition | null, handle: AgentHandle): Promise<string> {
    return this.definitions.sharedContext(def, handle.cwd, handle.brief)
  }

  filesMayHaveChanged(): void {
    this.definitions.filesMayHaveChanged()
  }

  // Every streamed call of a reply reaches one of these two: an Agent call begins the read of the history the
  // reply's estimate needs at its end (fanout-estimate.ts).
  warmSpawn(parent: AgentHandle, call: ToolUseReady, sofar: readonly ToolUseReady[]): void {
    if (call.name === AGENT_TOOL_NAME) readHistoryAhead(this.dataDir)
    warmSpawn(this, parent, call, sofar)
  }

  startsEarly(parent: AgentHandle, call: ToolUseReady, sofar: readonly ToolUseReady[]): boolean {
    if (call.name === AGENT_TOOL_NAME) readHistoryAhead(this.dataDir)
    return startsEarly(this, parent, call, sofar)
  }

  /** What the main agent's RequestMerge needs: this folder's agents' work, and the person's say through the permission queue. */
  requestMergeHost(handle: AgentHandle): RequestMergeHost {
    const review = new AgentWorkReview({
      isLive: (id) => this.registry.isLive(id),
      ...(this.dataDir ? { dataDir: this.dataDir } : {}),
      app: 'a Fanout session (RequestMerge)'
    })
    return {
      cwd: this.cwd,
      review,
      mode: () => handle.permissionMode,
      agentId: async (name) => (await this.findAgent(name))?.id,
      consent: (ctx, input, reason) => this.permissions.askConsent(handle, REQUEST_MERGE_TOOL_NAME, input, ctx.toolUseId, reason),
      strategy: async () => (await this.p.options.mergeStrategy?.()) ?? 'merge'
    }
  }

  track(run: Promise<unknown>): void {
    this.runs.add(run)
    const done = () => this.runs.delete(run)
    run.then(done, done)
  }

  async findAgent(idOrName: string): Promise<AgentHandle | undefined> {
    const live = this.registry.find(idOrName)
    if (live || !this.dataDir) return live
    return this.dormant.find(idOrName)
  }

  claimMailbox(handle: AgentHandle): Promise<void> {
    return claimMailbox(this, handle)
  }
}
