// How a session is set up: the options of a new session (AgentSession.create) and of a recorded one
// reopened after a restart (AgentSession.open).
import type { PermissionMode } from '../../../../shared/agent-definition'
import type { ContextSettings } from '../../compaction/context-settings'
import type { MergeStrategy } from '../../../../shared/review'
import type { LoadAgentsOptions } from '../../definitions'
import type { BeforeToolCall } from '../../tool-call'
import type { ModelAliases } from '../../model/aliases'
import type { ModelClient } from '../../model/types'
import type { PermissionRules } from '../../permissions'
import type { SandboxRuntime } from '../../security/sandbox/sandbox-runtime'
import type { AgentHandle } from '../runs/agent-registry'
import type { SpawnLimits } from '../runs/limits'
import type { MainAgentConfig, MainRunOptions } from '../runs/main-agent'

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
  permissions?: (handle: AgentHandle) => BeforeToolCall | undefined
  /** Nobody answers permission requests: a call that needs approval is denied with a reason saying how to allow it. */
  headless?: boolean
  /** Told about every denied tool call (e.g. the CLI prints them to stderr). */
  onPermissionDenied?: (message: string, toolName: string, agentId: string, call: { input: unknown; toolUseId: string }) => void
  /** Rules on top of the Claude Code settings files (e.g. from command-line flags). */
  permissionRules?: PermissionRules
  /** How RequestMerge merges when the main agent does not say: the person's remembered choice (default: merge commits). */
  mergeStrategy?: () => Promise<MergeStrategy>
  /** The managed settings file; null to skip it. Default /etc/claude-code/managed-settings.json. */
  managedSettingsFile?: string | null
  /** Claude Code's --settings (a file or JSON the person gave): its hooks run as the person's own. */
  flagSettings?: { file: string; json: Record<string, unknown> }
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
  /**
   * `--plugin-dir` folders: plugins for this session beside those the settings files enable (`enabledPlugins`),
   * each bringing its agents, skills, hooks and MCP servers (runtime/plugins/).
   */
  pluginDirs?: string[]
  /** Path of `rg`, or false to use the JS search fallback. */
  ripgrep?: string | false
  /** Glob and Grep search trees of up to this many entries in-process (tools/search-engine.ts); 0: always rg. */
  inProcessSearchUpTo?: number
  /** Coordinator mode: the main agent directs agents through four phases with orchestration tools only (implies teams). */
  coordinator?: boolean
  /** Agent teams: the main agent can create a team of in-process workers with a shared task list. */
  teams?: boolean
  /** MCP servers from Fanout's own settings, as in `.mcp.json`'s `mcpServers` (the project's files are read too). */
  mcpServers?: Record<string, unknown>
  /** Only `mcpServers`: no .mcp.json or ~/.claude.json servers (Claude Code's `--strict-mcp-config`). */
  strictMcpConfig?: boolean
  /** How long an MCP server may take to start. Default 30 s. */
  mcpStartTimeoutMs?: number
  /**
   * The program that runs the session, as a person would name it (`fanout run`, `the Fanout app`): written in
   * the session's lock, so another process asked to run it can say who does. Default `Fanout`.
   */
  owner?: string
  /**
   * Everything the folder brings that runs or grants by itself (.mcp.json servers, hooks and pre-approvals in
   * its .claude settings, its agent files' hooks and servers) is approved for this session, as with
   * `fanout run --trust-project`. Default: only what the person approved for the folder (kept in dataDir's
   * trusted-folders.json) or Claude Code's settings approve (enabledMcpjsonServers…).
   */
  trustProject?: boolean
  /** The folder whose approvals apply; default cwd ("Try it" runs in a worktree of the project). */
  trustFolder?: string
  /** Credential-looking environment variables passed to Bash, hooks and MCP servers anyway (names or `PREFIX_*`; Fanout's `passEnvironment` setting). */
  passEnvironment?: string[]
  /**
   * Claude Code settings' `env` for this session's Bash commands, hooks and MCP servers (the app reads it per
   * folder, store/claude-settings.ts; the CLI sets its own process's). Passed as written: the person chose it.
   */
  env?: Record<string, string>
  /** Replaces the process's Bash sandbox (tests: one whose bubblewrap is missing). */
  sandboxRuntime?: SandboxRuntime
  /** The session's effort (low|medium|high|xhigh|max or a thinking budget): the main agent's and, through it, its subagents' unless a definition or call says otherwise. Unset: each model's default. */
  effort?: string | number
  /** Context management (settings.json `context`): auto-compaction and its threshold, clearing of old tool results, windows by model. */
  context?: Partial<ContextSettings>
  /** Fanout's own default effort (its `defaultEffort` setting): used when neither `effort` nor a Claude Code settings file sets one. */
  defaultEffort?: string | number
  /** false turns thinking off where the model allows it (Claude Code's `alwaysThinkingEnabled: false`). Default on. */
  thinking?: boolean
  /** The main agent's instructions in place of its definition's (Claude Code's `--system-prompt`). */
  systemPrompt?: string
  /** Text added at the end of the main agent's system prompt (Claude Code's `--append-system-prompt`). */
  appendSystemPrompt?: string
  /** The mode when neither `permissionMode`, the definition nor a settings file's `defaultMode` sets one (Fanout's `defaultPermissionMode` setting). */
  fallbackPermissionMode?: PermissionMode
  /** Folders outside cwd the tools may use, on top of the settings' `additionalDirectories` (Claude Code's `--add-dir`). */
  additionalDirectories?: string[]
  /** The only tools the main agent is offered besides MCP servers' (Claude Code's `--tools`); unset: all. */
  onlyTools?: string[]
}

export type RunOptions = MainRunOptions

/** The main agent's model, permission mode and effort as the session's options set them (the rest: its defaults). */
export function mainConfigOf(options: AgentSessionOptions): MainAgentConfig {
  return {
    ...(options.model ? { model: options.model } : {}),
    ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
    ...(options.effort !== undefined ? { effort: options.effort } : {}),
    ...(options.onlyTools ? { onlyTools: options.onlyTools } : {})
  }
}

export interface OpenSessionOptions extends Omit<AgentSessionOptions, 'cwd' | 'sessionId' | 'dataDir'> {
  dataDir: string
  sessionId: string
  /** Default: the folder the session worked in. */
  cwd?: string
}
