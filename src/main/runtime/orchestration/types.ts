// Everything the orchestration helpers may be given by their session (session/agent-services.ts offers all
// of it). No helper takes the whole: each takes the narrow host it uses, a Pick of this (RunHost,
// SubagentRunHost, MainAgentHost, SpawnHost, DormantContext, TeamHost, MessagingHost, CompactHost,
// PermissionsHost, DeliveryHost), so the helpers stay plain functions and never import the session.
import type { AgentDefinition, LoadedAgent } from '../../../shared/agent-definition'
import type { AgentEvent } from '../../../shared/events'
import type { ContextSettings } from '../compaction/context-settings'
import type { HookRunner } from '../hooks/runner'
import type { AfterToolCall, BeforeToolCall } from '../tool-call'
import type { ModelAliases } from '../model/aliases'
import type { ModelClient, ToolUseReady } from '../model/types'
import type { SkillEntry } from '../context/skill-index'
import type { NestedInstructions } from '../context/nested-instructions'
import type { PathPolicy } from '../security/path-policy'
import type { Tool } from '../tools/define-tool'
import type { WorktreeBaseRef } from '../worktrees'
import type { Deliveries } from './messaging/delivery'
import type { AgentHandle, AgentRegistry } from './runs/agent-registry'
import type { SpawnGate } from './runs/limits'
import type { EventBus } from './messaging/event-bus'
import type { OutputLogs } from './runs/output-log'
import type { ConsentAnswer } from './tools/request-merge-tool'

export type { ChildResult, RunRequest } from './runs/run-types'
export type { DeliverOptions, Delivery } from './messaging/delivery-types'

export interface SessionContext {
  sessionId: string
  home: string
  cwd: string
  mainAgentId: string
  /** The data folder when the session records transcripts and state; undefined for an in-memory session. */
  dataDir: string | undefined
  client: ModelClient
  aliases: ModelAliases
  registry: AgentRegistry
  gate: SpawnGate
  emit: (event: AgentEvent) => void
  /** Background agents with no event for this long are stopped and marked failed. */
  backgroundStallMs: number
  /** How agents manage their context windows: compaction, clearing of old tool results, windows by model. */
  contextSettings: ContextSettings
  /** Where tool outputs too large for the conversation are saved (the session's folder). */
  toolOutputDir: string
  /** What the settings files say as of the last reload (session/session-settings.ts). */
  readonly settings: SettingsPart
  /** Agent definitions and skills (session/session-definitions.ts). */
  readonly definitions: DefinitionsPart
  newAgentId(): string
  /** Every agent's tool set (tools/session-tools.ts). */
  readonly tools: ToolsPart
  /** MCP servers and hooks around the agents' tools (session/extensions.ts). */
  readonly extensions: ExtensionsPart
  /** Who answers permission questions, and the one path check (session/session-permissions.ts). */
  readonly permissions: PermissionsPart
  /** The session's events, as they go out. */
  readonly bus: Pick<EventBus, 'subscribe'>
  /** The agent's name and team when it is a member of the session's active team (TeammateIdle hooks). */
  teammateOf?(handle: AgentHandle): { teammateName: string; teamName: string } | null
  systemPrompt(def: AgentDefinition, handle: AgentHandle, worktree?: { path: string; branch: string; baseCommit?: string }): Promise<string>
  /** What gives the agent its subfolders' CLAUDE.md files and path rules as it works; null when its definition omits CLAUDE.md. */
  nestedInstructions(def: AgentDefinition | null, handle: AgentHandle): Promise<NestedInstructions | null>
  /** Context siblings share, to fill their prompt prefix up to the cache minimum where that pays (ModelRequest.cacheFill). */
  sharedContext(def: AgentDefinition | null, handle: AgentHandle): Promise<string>
  /** A tool that may change files is about to run: the shared context's folder listing is read again next time. */
  filesMayHaveChanged(): void
  /** An Agent call of `parent` streamed whole while its message goes on: its agent's prompt prefix may be warmed (spawn/warm-spawn.ts). */
  warmSpawn?(parent: AgentHandle, call: ToolUseReady, sofar: readonly ToolUseReady[]): void
  /** Whether a call of `parent` that streamed whole may start before its reply ends (spawn/early-spawn.ts); absent: none does. */
  startsEarly?(parent: AgentHandle, call: ToolUseReady, sofar: readonly ToolUseReady[]): boolean
  /** Background agents' readable output logs. */
  readonly outputLogs: Pick<OutputLogs, 'for'>
  /** Counts a run towards idle(). */
  track(run: Promise<unknown>): void
  /** How text and reports reach agents (messaging/delivery.ts). */
  readonly delivery: Deliveries
  /** An agent by id or name: running or finished in this process, or (after a restart) loaded from disk. */
  findAgent(idOrName: string): Promise<AgentHandle | undefined>
  /** Moves messages waiting in the agent's durable mailbox into its inbox. */
  claimMailbox(handle: AgentHandle): Promise<void>
  /** What the session keeps on disk (session/session-files.ts). */
  readonly files: FilesPart
  /** The main agent (runs/main-agent.ts). */
  readonly main: MainPart
  onError(err: Error): void
}

// The session's parts a helper is given whole (so its host names the part, not a forwarding method). Declared
// here by what the helpers use, as the classes that implement them import this file.

export interface SettingsPart {
  /** false: thinking off where the model allows it (Claude Code's `alwaysThinkingEnabled: false`). */
  readonly thinking: boolean | undefined
  /** Where new agent worktrees start (Claude Code's `worktree.baseRef`). */
  readonly baseRef: WorktreeBaseRef
}

export interface DefinitionsPart {
  /** Effective definitions, read at spawn time so that a file changed on disk applies to the next spawn. */
  agents(): Map<string, LoadedAgent>
  /** The project's, the user's and the plugins' skills (the Skill tool's list). */
  skills(): SkillEntry[]
  /** Command files the model may call through the Skill tool. */
  commands(): SkillEntry[]
}

export interface ToolsPart {
  /** Every tool name an agent could be given, for tool resolution. */
  names(): string[]
  /** Builds the named tools for an agent on its cwd. */
  build(handle: AgentHandle, names: readonly string[]): Tool[]
}

export interface ExtensionsPart {
  /**
   * Before a run builds its tools: connects the MCP servers it needs (the session's, once; its definition's
   * own, for this run). The returned function closes the run's own servers when the run ends.
   */
  prepareRun(handle: AgentHandle, def: AgentDefinition | null): Promise<() => Promise<void>>
  /** The session's hooks: SubagentStart/SubagentStop around subagent runs (tool hooks are steps of the tool-call pipeline). */
  readonly hooks: HookRunner
  /** Step 8 of the tool-call pipeline for one run of this agent: PostToolUse hooks. */
  afterToolCall(handle: AgentHandle): AfterToolCall
}

export interface PermissionsPart {
  /** Steps 2-6 of the tool-call pipeline for one run of this agent (tool-call/). */
  beforeToolCall(handle: AgentHandle): BeforeToolCall | undefined
  /** The one path check for this agent's tools and permission decisions. */
  pathPolicy(handle: AgentHandle): PathPolicy
  /** Asks the person about one call whatever the rules say; `nobody` when no one can answer (headless, background). */
  askConsent(handle: AgentHandle, toolName: string, input: unknown, toolUseId: string, reason: string): Promise<ConsentAnswer>
}

export interface MainPart {
  /** The main agent's handle (made idle before its first run, so reports and messages can reach it). */
  getHandle(): AgentHandle
}

export interface FilesPart {
  /** Resolves once everything the agent has recorded so far is on disk (a no-op without a data folder). */
  durable(agentId: string): Promise<void>
  /**
   * Records a background agent as launched (its state, queued, with its task) before its caller is told so:
   * one a crash catches before it starts is started after the restart. `prompt` null: it cannot be (a fork).
   */
  recordLaunch(handle: AgentHandle, prompt: string | null): Promise<void>
  /** Starts opening a new agent's transcript as it is spawned, so its first request does not wait for the open. */
  openTranscript(handle: AgentHandle): void
}
