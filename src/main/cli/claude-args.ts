// Claude Code's command line, parsed the way Claude Code parses it: with commander (the parser Claude Code
// itself is built on), so `-p/--print` is a switch, the prompt is the positional argument (or stdin), variadic
// options such as `--allowedTools A B` take the words after them as there, and an unknown option is refused
// with Claude Code's message and exit status. Every option `claude --help` documents is accepted; the ones
// that cannot apply to Fanout are named by `ignoredFlagNotes` in one line each instead of failing the run.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { EFFORT_LEVELS } from '../runtime/model/effort'

/** What commander hands back: option values by camel-cased name, and the positional prompt words. */
export interface ClaudeCommandLine {
  opts: Record<string, unknown>
  words: string[]
}

/** Claude Code's permission modes, plus Fanout's own names for two of them. */
export const CLI_PERMISSION_MODES = ['acceptEdits', 'auto', 'bypassPermissions', 'manual', 'dontAsk', 'plan', 'default', 'bubble'] as const

const wholeNumber = (flag: string) => (v: string) => {
  const n = Number(v)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${flag} must be a whole number of at least 1.`)
  return n
}
const positiveAmount = (v: string) => {
  const n = Number(v)
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a positive amount.')
  return n
}
const collect = (v: string, prev: string[] = []) => [...prev, v]

/** Claude Code's options that have no effect in Fanout, and the one line said for each when it is given. */
const NOT_APPLIED: Record<string, string> = {
  bg: 'runs in the foreground (Fanout has no background sessions)',
  cloud: 'runs locally (Fanout has no cloud sessions)',
  environment: 'runs locally (Fanout has no cloud environments)',
  teleport: 'runs locally (Fanout has no teleport sessions)',
  remoteControl: 'Fanout has no Remote Control',
  remoteControlSessionNamePrefix: 'Fanout has no Remote Control',
  desktop: 'runs here (open the session in the Fanout app to watch it)',
  chrome: 'Fanout has no Claude in Chrome',
  ide: 'Fanout does not connect to an IDE',
  tmux: 'Fanout opens no tmux session',
  worktree: "the session runs in this folder (subagents get their own worktrees with isolation: 'worktree')",
  debug: 'Fanout has no debug log (problems are said on stderr; --output-format events shows every event)',
  debugFile: 'Fanout has no debug log',
  bare: 'hooks, CLAUDE.md and the rest load as usual',
  safeMode: 'customizations load as usual',
  betas: 'no extra beta headers are sent',
  file: 'no files are downloaded',
  pluginUrl: 'plugins are not fetched from URLs (use --plugin-dir with the unpacked folder)',
  disableSlashCommands: 'the prompt is sent as written',
  jsonSchema: 'the answer is not validated against a schema',
  includePartialMessages: 'stream-json has whole messages only',
  includeHookEvents: 'stream-json has no hook events',
  forwardSubagentText: "stream-json has the main agent's messages only (--output-format events has every agent's)",
  replayUserMessages: 'user messages are not echoed',
  forkSession: 'the resumed session keeps its id',
  fromPr: 'sessions are not linked to pull requests',
  noSessionPersistence: 'the session is recorded (Fanout always records, so it can be reopened in the app)',
  settingSources: 'user, project and local settings are all read',
  systemPromptSnapshot: 'the system prompt is built for each request',
  excludeDynamicSystemPromptSections: 'the system prompt keeps its per-machine sections',
  autocompact: 'the compaction threshold comes from settings.json "context"',
  promptSuggestions: 'no prompt suggestions are made',
  brief: 'Fanout has no SendUserMessage tool',
  permissionPromptTool: 'no tool answers permission prompts headless: a call that needs approval is denied',
  maxThinkingTokens: 'use --effort',
  mcpDebug: 'MCP problems are said on stderr'
}

/** The program: Claude Code's options (hidden ones it accepts too) and Fanout's own. */
export function claudeProgram(): Command {
  const program = new Command('fanout')
    .argument('[prompt...]', 'Your prompt')
    .helpOption(false)
    .allowExcessArguments(true)
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined })
  const opt = (flags: string, description = '') => new Option(flags, description)
  const options: Option[] = [
    opt('-h, --help'),
    opt('-v, --version'),
    opt('-p, --print'),
    opt('--prompt <text>', "the task (Fanout's older spelling; a positional prompt works as in Claude Code)"),
    opt('--add-dir <directories...>'),
    opt('--agent <agent>'),
    opt('--agents <json-or-file>'),
    opt('--allow-dangerously-skip-permissions'),
    opt('--allowedTools, --allowed-tools <tools...>'),
    opt('--append-system-prompt <prompt>'),
    opt('--append-system-prompt-file <file>').hideHelp(),
    opt('--autocompact <auto|tokens>'),
    opt('--ax-screen-reader'),
    opt('--bg, --background'),
    opt('--bare'),
    opt('--betas <betas...>'),
    opt('--brief'),
    opt('--chrome'),
    opt('--no-chrome'),
    opt('--cloud [description]'),
    opt('-c, --continue'),
    opt('--dangerously-skip-permissions'),
    opt('-d, --debug [filter]'),
    opt('--debug-file <path>'),
    opt('--desktop'),
    opt('--disable-slash-commands'),
    opt('--disallowedTools, --disallowed-tools <tools...>'),
    opt('--effort <level>').choices(EFFORT_LEVELS),
    opt('--environment <environment_id>'),
    opt('--exclude-dynamic-system-prompt-sections'),
    opt('--fallback-model <model>'),
    opt('--file <specs...>'),
    opt('--fork-session'),
    opt('--forward-subagent-text'),
    opt('--from-pr [value]'),
    opt('--ide'),
    opt('--include-hook-events'),
    opt('--include-partial-messages'),
    opt('--input-format <format>').choices(['text', 'stream-json']),
    opt('--json-schema <schema>'),
    opt('--max-budget-usd <amount>').argParser(positiveAmount),
    opt('--max-thinking-tokens <tokens>').hideHelp(),
    opt('--max-turns <turns>').argParser(wholeNumber('--max-turns')),
    opt('--mcp-config <configs...>'),
    opt('--mcp-debug').hideHelp(),
    opt('--model <model>'),
    opt('-n, --name <name>'),
    opt('--no-session-persistence'),
    opt('--output-format <format>').choices(['text', 'json', 'stream-json', 'events']),
    opt('--permission-mode <mode>').choices(CLI_PERMISSION_MODES),
    opt('--permission-prompt-tool <tool>').hideHelp(),
    opt('--permission-prompts <target>').choices(['host', 'none']),
    opt('--plugin-dir <path>').argParser(collect),
    opt('--plugin-url <url>').argParser(collect),
    opt('--prompt-suggestions [value]'),
    opt('--remote-control [name]'),
    opt('--remote-control-session-name-prefix <prefix>'),
    opt('--replay-user-messages'),
    opt('--restricted'),
    opt('-r, --resume [value]'),
    opt('--safe-mode'),
    opt('--session-id <uuid>'),
    opt('--setting-sources <sources>'),
    opt('--settings <file-or-json>'),
    opt('--strict-mcp-config'),
    opt('--system-prompt <prompt>'),
    opt('--system-prompt-file <file>').hideHelp(),
    opt('--system-prompt-snapshot <on|off>').choices(['on', 'off']),
    opt('--teleport [session]'),
    opt('--tmux [mode]'),
    opt('--tools <tools...>'),
    opt('--verbose'),
    opt('-w, --worktree [name]'),
    // Fanout's own.
    opt('--cwd <dir>'),
    opt('--coordinator'),
    opt('--teams'),
    opt('--pass-env <name>').argParser(collect),
    opt('--trust-project'),
    opt('--retry [agent]')
  ]
  for (const o of options) program.addOption(o)
  return program
}

/** A command line that does not parse, in Claude Code's words (`error: unknown option '--x'`); exit 1 as there. */
export class ClaudeArgsError extends Error {}

export function parseClaudeCommandLine(argv: string[]): ClaudeCommandLine {
  const program = claudeProgram()
  try {
    program.parse(argv, { from: 'user' })
  } catch (err) {
    // commander's own message is Claude Code's (same parser): "error: unknown option '--x'\n(Did you mean …?)".
    if (err instanceof CommanderError) throw new ClaudeArgsError(err.message.trimEnd())
    throw err
  }
  return { opts: program.opts(), words: program.args }
}

/** One line for each option given that Fanout does not apply, naming the option and what happens instead. */
export function ignoredFlagNotes(opts: Record<string, unknown>): string[] {
  const notes: string[] = []
  for (const [key, why] of Object.entries(NOT_APPLIED)) {
    const v = opts[key]
    // Negated switches (--no-chrome, --no-session-persistence) are false when given.
    const given = key === 'noSessionPersistence' ? opts.sessionPersistence === false : Array.isArray(v) ? v.length > 0 : v !== undefined && v !== false
    if (given) notes.push(`${flagName(key)} is not applied here: ${why}.`)
  }
  return notes
}

const flagName = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
