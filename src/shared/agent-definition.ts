// The domain shape of an agent definition, shared by the runtime, the CLI and the renderer.
// The frontmatter schema (zod) lives in src/main/runtime/definitions/schema.ts; the types here are the
// loader's output and are what every other layer consumes.

export const AGENT_SOURCES = ['built-in', 'plugin', 'user', 'project', 'cli', 'managed'] as const
export type AgentSource = (typeof AGENT_SOURCES)[number]

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions', 'bubble'] as const
export type PermissionMode = (typeof PERMISSION_MODES)[number]

export const MEMORY_SCOPES = ['user', 'project', 'local'] as const
export type MemoryScope = (typeof MEMORY_SCOPES)[number]

export type Severity = 'error' | 'warning' | 'info'

/** A problem found in an agent file: where it is and a sentence a person understands. */
export interface Diagnostic {
  file: string
  line: number // 1-based
  column: number // 1-based
  severity: Severity
  code: string // stable machine id, e.g. 'yaml-repaired', 'missing-name', 'unknown-key'
  message: string
}

/** A spending limit in dollars and/or tokens (input, output and cache together). */
export interface AgentBudget {
  usd?: number
  tokens?: number
}

export interface AgentDefinition {
  /** `name` in the frontmatter. Plugin agents are namespaced `plugin:sub:name`. */
  agentType: string
  /** `description`: when the parent should use this agent. */
  whenToUse: string
  /** Tools as written, normalised to a list; `undefined` when the field is absent (all tools). `['*']` for "*". */
  tools?: string[]
  disallowedTools?: string[]
  /** `haiku | sonnet | opus | inherit` or a full model id. */
  model?: string
  color?: string
  forkContext?: boolean
  permissionMode?: PermissionMode
  background?: boolean
  memory?: MemoryScope
  isolation?: 'worktree'
  skills?: string[]
  maxTurns?: number
  effort?: string | number
  mcpServers?: unknown
  hooks?: unknown
  initialPrompt?: string
  criticalSystemReminder?: string
  /** Built-in only: skip CLAUDE.md memory (Explore, Plan). Frontmatter key `omitClaudeMd`. */
  omitClaudeMd?: boolean
  /** Fanout's own `budget:` (Claude Code ignores it): what one run of this agent and its subagents may spend. */
  budget?: AgentBudget
  /** The markdown body: the agent's system prompt. */
  systemPrompt: string
  source: AgentSource
  /** Absolute path of the file it came from (absent for `--agents` JSON). */
  file?: string
  /** Plugin name for plugin agents. */
  plugin?: string
  /** Frontmatter keys this loader does not know, kept verbatim so editors can round-trip them. */
  extra: Record<string, unknown>
  /**
   * The whole frontmatter as read (after Claude Code-style repair of invalid YAML), including values of
   * known keys that were invalid and therefore ignored: an editor can round-trip every byte of meaning.
   */
  frontmatter?: Record<string, unknown>
}

/** A definition that lost to a later source with the same name. */
export interface ShadowedDefinition {
  source: AgentSource
  file?: string
}

export interface LoadedAgent {
  definition: AgentDefinition
  /** Definitions with the same name from lower-priority sources (or farther directories) that this one replaced. */
  shadows: ShadowedDefinition[]
  diagnostics: Diagnostic[]
}

export interface ToolResolution {
  /** Names from `tools` that resolved to at least one tool. */
  validTools: string[]
  /** Names from `tools` that resolved to nothing. */
  invalidTools: string[]
  /** The final tool names the agent gets. */
  resolvedTools: string[]
  hasWildcard: boolean
  /** Why each available tool was removed, by tool name. */
  removed: Record<string, string>
  /**
   * Permission patterns from `tools`, by tool: `Bash(git:*)` gives `{ Bash: ['git:*'] }`. The tool itself is
   * granted; the permission layer narrows what it may do.
   */
  toolRules: Record<string, string[]>
  /** `Agent(worker, researcher)` in `tools`: the agent types this agent may spawn. Absent: any. */
  allowedAgentTypes?: string[]
  /** Set when the agent would get no tools at all: the parent sees this instead of a silent spawn. */
  error?: string
}
