// The agent definition editor's domain types, shared by the host (which reads, validates and writes agent
// files) and the renderer (which shows the library and the form). Types only; the zod schemas of the calls
// are in agent-editor-contract.ts.
import type { AgentSource, Diagnostic, ShadowedDefinition, ToolResolution } from './agent-definition'

/** The frontmatter fields the form edits, in the order the form shows them and new keys are written. */
export const EDITOR_FIELD_KEYS = [
  'name',
  'description',
  'tools',
  'disallowedTools',
  'model',
  'color',
  'permissionMode',
  'maxTurns',
  'background',
  'isolation',
  'memory',
  'forkContext',
  'effort',
  'skills',
  'initialPrompt',
  'mcpServers',
  'hooks'
] as const
export type EditorFieldKey = (typeof EDITOR_FIELD_KEYS)[number]

/** Fields written as lists of names (`Read, Grep` or a YAML list). */
export const LIST_FIELDS = ['tools', 'disallowedTools', 'skills'] as const satisfies readonly EditorFieldKey[]
/** Fields edited as YAML text (a structure, not a single value). */
export const YAML_FIELDS = ['mcpServers', 'hooks'] as const satisfies readonly EditorFieldKey[]

/**
 * A field's value as the form shows it: text, a number, a flag, or a list of names. mcpServers and hooks
 * are YAML text. A description shows its `\n` escapes as the line breaks Claude Code reads them as.
 */
export type FieldValue = string | number | boolean | string[]
export type EditorFields = Partial<Record<EditorFieldKey, FieldValue>>

/** One form edit: a new value, or null to remove the key from the file. */
export interface FieldChange {
  key: EditorFieldKey
  value: FieldValue | null
}

/** What an agent file was when it was read: a save compares this with the disk to detect outside changes. */
export interface FileVersion {
  mtimeMs: number
  size: number
  /** sha256 of the bytes, hex. */
  hash: string
}

/** Where the lines of a frontmatter key are (1-based, inclusive), for showing diagnostics at a field. */
export interface KeySpan {
  line: number
  endLine: number
}

export interface EffectiveResult {
  /** The tools a subagent of this definition gets, and why each other tool was removed. */
  tools: ToolResolution
  /** The exact line this agent adds to the Agent tool's list of agent types. */
  listingLine: string
  /** Every tool the runtime offers (built-in tools, then connected MCP tools). */
  available: string[]
}

/** An agent file (or draft) read through the runtime's own loader. */
export interface AgentAnalysis {
  file: string
  source: AgentSource
  /** The loader accepts it: the runtime would spawn it. */
  loaded: boolean
  agentType?: string
  /** Every diagnostic the loader gives, at file:line:col. */
  diagnostics: Diagnostic[]
  /** The form's values, read from the frontmatter (after Claude Code's repair when that was needed). */
  fields: EditorFields
  /** Lines of every top-level frontmatter key (known or not). */
  keySpans: Record<string, KeySpan>
  /** Frontmatter keys that are not agent fields: kept in the file untouched, with no effect. */
  unknownKeys: string[]
  /** Agent fields the form does not offer (omitClaudeMd, criticalSystemReminder_EXPERIMENTAL): raw file only. */
  rawOnlyKeys: string[]
  /** The form may edit this text (its frontmatter is valid YAML); otherwise `formBlocked` says why. */
  formEditable: boolean
  formBlocked?: string
  /** The markdown body (the system prompt) exactly as written, and the line it starts on. */
  body: string
  bodyLine: number
  /** A one-click fix exists for this text: what it would change, in sentences. */
  repair?: { changes: string[] }
  /** Present when the definition loads. */
  effective?: EffectiveResult
}

export type AgentScope = 'user' | 'project'

/** One agent file (or `--agents` entry) of the library, loaded or not. */
export interface LibraryEntry {
  /** The file path; `--agents:<name>` for command-line agents. */
  id: string
  source: AgentSource
  file?: string
  /** The agent's name when it has one (plugin agents are `plugin:name`). */
  agentType?: string
  description?: string
  color?: string
  model?: string
  /** Tools as the Agent tool's listing shows them (`All tools`, `Read, Grep`, ...). */
  toolsLabel?: string
  /** The loader accepts the file. */
  loaded: boolean
  /** This definition is the one the runtime uses for its name (not shadowed). */
  active: boolean
  /** Definitions of the same name it replaces (lower priority or farther away). */
  shadows: ShadowedDefinition[]
  /** The definition that replaces this one, when shadowed. */
  shadowedBy?: ShadowedDefinition
  diagnostics: Diagnostic[]
  /** user and project files can be edited; built-in, plugin, CLI and managed ones are read-only. */
  scope?: AgentScope
}

export interface AgentTemplate {
  id: string
  label: string
  description: string
}

export interface AgentLibrary {
  cwd: string
  entries: LibraryEntry[]
  /** Problems with folders rather than files (unreadable folder, too many files). */
  folderDiagnostics: Diagnostic[]
  /** The Agent tool's list of agent types, exactly as the model reads it. */
  listing: string
  /** Where new agents of each scope are written. */
  dirs: Record<AgentScope, string>
  templates: AgentTemplate[]
  /** Every tool the runtime offers a session, then connected MCP servers' tools: the tools picker's choices. */
  availableTools: string[]
}

export interface OpenedAgentFile {
  file: string
  text: string
  version: FileVersion
  source: AgentSource
  /** Set when the file may be edited. */
  scope?: AgentScope
  analysis: AgentAnalysis
}

/** A save that found the file changed on disk since it was read: nothing was written. */
export interface SaveConflict {
  /** The file as it is now; null when it was deleted. */
  text: string | null
  version: FileVersion | null
}

export type SaveResult = { saved: true; version: FileVersion; analysis: AgentAnalysis } | { saved: false; conflict: SaveConflict }

export interface TryAgentResult {
  sessionId: string
  agentId: string
  /** The worktree the agent works in when the folder is a git repository. */
  worktree?: { path: string; branch: string }
  /** Why the run is not in its own worktree although the folder is a git repository. */
  note?: string
}

/** The listing order of sources in the library: what wins first. */
export const LIBRARY_SOURCE_ORDER: readonly AgentSource[] = ['managed', 'cli', 'project', 'user', 'plugin', 'built-in']
