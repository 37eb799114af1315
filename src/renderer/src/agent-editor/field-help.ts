// What each frontmatter field is, in one line, as the form shows it under the field's label.
import type { EditorFieldKey } from '../../../shared/agent-editor'

export const FIELD_LABEL: Record<EditorFieldKey, string> = {
  name: 'Name',
  description: 'Description',
  tools: 'Tools',
  disallowedTools: 'Disallowed tools',
  model: 'Model',
  color: 'Color',
  permissionMode: 'Permission mode',
  maxTurns: 'Max turns',
  background: 'Background',
  isolation: 'Isolation',
  memory: 'Memory',
  forkContext: 'Fork context',
  effort: 'Effort',
  skills: 'Skills',
  initialPrompt: 'Initial prompt',
  mcpServers: 'MCP servers',
  hooks: 'Hooks'
}

export const FIELD_HELP: Record<EditorFieldKey, string> = {
  name: 'The agent type the main agent asks for (subagent_type); also the file name.',
  description: 'When the main agent should use this agent: it reads this to decide. <example> blocks and line breaks are fine.',
  tools: 'The only tools it may use; all tools when unrestricted. Patterns like Bash(git:*) narrow a tool.',
  disallowedTools: 'Tools it never gets, even when its tools allow all. A pattern removes the whole tool.',
  model: 'An alias (haiku, sonnet, opus, fable, best, opusplan), inherit (the caller’s model), or a full model id. Empty: the default.',
  color: 'The color of its panels and tags. Claude Code knows these eight; other values are ignored there.',
  permissionMode: 'How its tool calls are approved; a parent in bypassPermissions, acceptEdits or plan wins.',
  maxTurns: 'The most model calls it may make before it must stop and report.',
  background: 'The caller goes on at once and is told when it finishes; it cannot ask for permissions meanwhile.',
  isolation: 'Work in its own git worktree on a new branch, never in your checkout.',
  memory: 'A memory folder it reads and writes across runs: yours (user), the project’s, or this machine’s (local).',
  forkContext: 'Start with the caller’s conversation so far instead of only the task prompt.',
  effort: 'How hard the model thinks before answering: a level or a token budget.',
  skills: 'Skills loaded into its context when it starts.',
  initialPrompt: 'A first message sent before the task, e.g. standing instructions.',
  mcpServers: 'MCP servers it may use: names of configured servers, or server configurations (YAML).',
  hooks: 'Commands run on its events (PreToolUse, PostToolUse, Stop, ...), as in Claude Code settings (YAML).'
}

/** The eight colors Claude Code accepts (AGENT_COLORS in the runtime's schema). */
export const STANDARD_COLORS = ['red', 'orange', 'yellow', 'green', 'cyan', 'blue', 'purple', 'pink'] as const
export const MODEL_ALIASES = ['haiku', 'sonnet', 'opus', 'fable', 'inherit'] as const
export const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const
export const MEMORY_SCOPES = ['user', 'project', 'local'] as const

export const PERMISSION_HELP: Record<string, string> = {
  default: 'ask before edits and commands',
  acceptEdits: 'file edits allowed, commands ask',
  plan: 'read-only planning',
  dontAsk: 'deny what would ask',
  bypassPermissions: 'everything allowed',
  bubble: 'ask the parent’s person'
}

/** Which field a loader diagnostic belongs to, by its code, when its line does not say. */
export const CODE_FIELD: Record<string, EditorFieldKey> = {
  'missing-name': 'name',
  'empty-name': 'name',
  'invalid-name': 'name',
  'name-has-colon': 'name',
  'missing-description': 'description',
  'empty-description': 'description',
  'invalid-description': 'description'
}
