// The built-in commands a headless run (`-p "/cost"`) answers without a model call, in Claude Code 2.1's words:
// `/cost` (and `/usage`) the session's spend, `/context` what fills the context window, `/model` the model,
// `/clear` nothing, `/mcp` how many MCP servers connected, `/agents` where agent files go. The interactive ones (`/help`, `/status`…) say they are not available here, as Claude Code
// does. Anything else, and a command file or skill of the same name, is not a built-in (resolve.ts).

export interface BuiltinFacts {
  /** The full model id the main agent runs on, and its display name. */
  model: string
  costUsd: number
  apiMs: number
  wallMs: number
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number }
  /** Estimated tokens of the main agent's next request: system prompt, tool definitions, conversation; the window. */
  context: { systemPrompt: number; tools: number; messages: number; window: number; autocompactBuffer: number }
  /** The configured MCP servers' states once each connected or failed (`/mcp`). */
  mcpStatuses: string[]
}

export interface BuiltinAnswer {
  text: string
  /** Claude Code's `local_command` of the result line; absent for "isn't available". */
  localCommand?: string
}

/** Commands Claude Code's -p answers with "/x isn't available in this environment." */
const INTERACTIVE_ONLY = new Set([
  'help',
  'status',
  'release-notes',
  'memory',
  'permissions',
  'resume',
  'login',
  'logout',
  'theme',
  'vim',
  'terminal-setup',
  'ide',
  'hooks',
  'bug',
  'feedback',
  'export',
  'add-dir',
  'statusline',
  'privacy-settings',
  'upgrade',
  'exit',
  'quit',
  'rewind',
  'tasks',
  'todos',
  'bashes',
  'plugin',
  'plugins',
  'install-github-app',
  'pr-comments'
])

const ANSWERED = new Set(['cost', 'usage', 'context', 'model', 'clear', 'mcp', 'agents'])

/** Every built-in name this module answers (for listings). */
export const BUILTIN_COMMANDS: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'cost', description: 'Show the total cost and duration of the current session' },
  { name: 'usage', description: 'Show the total cost and duration of the current session' },
  { name: 'context', description: 'Show what fills the context window' },
  { name: 'model', description: 'Show the current model' },
  { name: 'clear', description: 'Clear the conversation history' },
  { name: 'mcp', description: 'Show how many MCP servers are connected' },
  { name: 'agents', description: 'Show where agent definitions live' },
  { name: 'compact', description: 'Compact the conversation, keeping what you ask for' }
]

export const isBuiltin = (name: string): boolean => ANSWERED.has(name) || INTERACTIVE_ONLY.has(name)

const k = (n: number): string => (n >= 1_000_000 ? `${Math.round(n / 100_000) / 10}m`.replace('.0m', 'm') : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n))
const pct = (n: number, of: number): string => `${((n / of) * 100).toFixed(1)}%`
const secs = (ms: number): string => `${Math.round(ms / 1000)}s`

export function costText(f: BuiltinFacts): string {
  return [
    `Estimated cost:        $${f.costUsd.toFixed(4)}`,
    `Total duration (API):  ${secs(f.apiMs)}`,
    `Total duration (wall): ${secs(f.wallMs)}`,
    'Total code changes:    0 lines added, 0 lines removed',
    `Usage:                 ${f.usage.input} input, ${f.usage.output} output, ${f.usage.cacheRead} cache read, ${f.usage.cacheWrite} cache write`
  ].join('\n')
}

export function contextText(f: BuiltinFacts): string {
  const c = f.context
  const used = c.systemPrompt + c.tools + c.messages
  const free = Math.max(0, c.window - used - c.autocompactBuffer)
  const rows: Array<[string, number]> = [
    ['System prompt', c.systemPrompt],
    ['System tools', c.tools],
    ...(c.messages ? [['Messages', c.messages] as [string, number]] : []),
    ['Free space', free],
    ['Autocompact buffer', c.autocompactBuffer]
  ]
  return [
    '## Context Usage',
    '',
    `**Model:** ${f.model}  `,
    `**Tokens:** ${k(used)} / ${k(c.window)} (${Math.round((used / c.window) * 100)}%)`,
    '',
    '### Estimated usage by category',
    '',
    '| Category | Tokens | Percentage |',
    '|----------|--------|------------|',
    ...rows.map(([name, n]) => `| ${name} | ${k(n)} | ${pct(n, c.window)} |`),
    ''
  ].join('\n')
}

/** Claude Code 2.1.330's one-line `/mcp` in -p; with none configured, where Fanout reads servers from. */
export function mcpText(statuses: readonly string[]): string {
  if (!statuses.length) return 'No MCP servers are configured. Add one in .mcp.json or the mcpServers of your settings.'
  const n = (s: string) => statuses.filter((x) => x === s).length
  const connected = n('connected')
  const disabled = n('disabled')
  return `${statuses.length} MCP server${statuses.length === 1 ? '' : 's'}: ${connected} connected, ${statuses.length - connected - disabled} not connected, ${disabled} disabled. Use \`/mcp\` in the terminal for details.`
}

/** Claude Code 2.1.330's `/agents` in -p: agents are files (Fanout reads the same ones). */
export const AGENTS_TEXT = [
  'The /agents wizard has been removed.',
  '',
  'Ask Claude to create or update subagents for you (e.g. "create a code-reviewer subagent that ..."),',
  'or edit the files directly:',
  '  • .claude/agents/       (this project)',
  '  • ~/.claude/agents/     (all projects)',
  '',
  'Docs: https://code.claude.com/docs/en/sub-agents'
].join('\n')

/** The answer to a built-in, or null when `name` is none (then it goes to the model as text, as in Claude Code). */
export function answerBuiltin(name: string, facts: () => BuiltinFacts): BuiltinAnswer | null {
  if (INTERACTIVE_ONLY.has(name)) return { text: `/${name} isn't available in this environment.` }
  if (!ANSWERED.has(name)) return null
  if (name === 'cost' || name === 'usage') return { text: costText(facts()), localCommand: 'cost' }
  if (name === 'context') return { text: contextText(facts()), localCommand: 'context' }
  if (name === 'clear') return { text: '', localCommand: 'clear' }
  if (name === 'mcp') return { text: mcpText(facts().mcpStatuses), localCommand: 'mcp' }
  if (name === 'agents') return { text: AGENTS_TEXT, localCommand: 'agents' }
  return {
    text: `Current model: \`${facts().model}\`\nUsage: /model <name>. Available: sonnet, opus, haiku, or a full model ID.`,
    localCommand: 'model'
  }
}
