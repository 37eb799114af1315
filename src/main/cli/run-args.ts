// `fanout run`'s command line (also `fanout -p …` without the word run, as `claude` is called): its usage text
// and what argv asks for as RunArgs. claude-args.ts parses it the way Claude Code does; this file turns the
// options into what a run needs, reading the files they name (errors as UsageError, in Claude Code's words).
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { PermissionMode } from '../../shared/agent-definition'
import { EFFORT_LEVELS } from '../runtime/model/effort'
import { parseCompactCommand } from '../runtime/orchestration/runs/compact-agent'
import { errorMessage } from '../../shared/error-message'
import { ClaudeArgsError, ignoredFlagNotes, parseClaudeCommandLine } from './claude-args'

/** Fanout's version, as the stream's system/init reports it. */
export const FANOUT_VERSION = '0.1.0'

export const RUN_USAGE = `Usage: fanout [run] [options] [prompt]
       (the word run may be left out, so \`alias claude=fanout\` runs Claude Code's headless invocations)
  -p, --print                the prompt is the argument (or stdin: echo "P" | fanout -p); always headless
  --cwd DIR                  the folder the agents work in (default: the current one)
  --agent NAME               run the main agent as this agent definition
  --model M                  haiku, sonnet, opus or a full model id (default: ANTHROPIC_MODEL, else the
                             "model" of --settings, .claude/settings.local.json, .claude/settings.json,
                             ~/.claude/settings.json, else Fanout's defaultModel setting, else opus)
  --permission-mode MODE     default (manual) | acceptEdits | plan | dontAsk | bypassPermissions | auto
                             (default: permissions.defaultMode of the settings files, else Fanout's
                             defaultPermissionMode; headless: a tool that needs approval is denied)
  --dangerously-skip-permissions  the same as --permission-mode bypassPermissions
  --allowedTools RULES...    permission rules that allow (e.g. "Bash(git *)" Edit; comma or space separated)
  --disallowedTools RULES... permission rules that deny
  --settings FILE|JSON       more settings (model, env, permissions) on top of the settings files
  --mcp-config FILE|JSON...  MCP servers ("mcpServers"); --strict-mcp-config: only these
  --plugin-dir DIR           load a plugin (or a folder of plugins) for this run: agents, skills, hooks, servers
  --max-budget-usd N         the run's spending limit
  --system-prompt TEXT       the main agent's instructions instead of Fanout's
  --append-system-prompt TEXT  added at the end of the main agent's system prompt
  --add-dir DIR...           folders outside the project the tools may use
  -c, --continue             continue the most recent session of this folder
  -r, --resume SESSION_ID    continue a recorded session: the main agent keeps its history, and agents that
                             were cut off by a crash are resumed (never ones the user stopped)
  --retry [AGENT]            with --resume or --continue and no prompt: run a failed agent again from its
                             conversation as it stands, as the app's Retry does (the failed request is sent
                             again). AGENT is an agent id or name; without it the main agent if it failed,
                             else every failed subagent (each one's new report reaches the agent that started it)
  --session-id UUID          the new session's id
  -n, --name NAME            the session's title
  --max-turns N              most model calls of the main agent
  --effort LEVEL             ${EFFORT_LEVELS.join(' | ')} (also CLAUDE_CODE_EFFORT_LEVEL, effortLevel in
                             .claude/settings.json, or the defaultEffort setting; default: each model's own)
  --output-format FORMAT     text (the final answer), json (one result object, Claude Code's schema),
                             stream-json (Claude Code's stream messages, one a line, then the result) or
                             events (every Fanout event of every agent, one a line, then the result)
  --input-format FORMAT      text (default) or stream-json (user messages on stdin, one a line)
  --verbose                  accepted for Claude Code compatibility (stream-json does not need it here)
  --agents JSON|FILE         extra agent definitions, as on Claude Code's command line
  --coordinator              coordinator mode: the main agent directs agents through research, synthesis,
                             implementation (each worker in its own git worktree) and verification, with
                             orchestration tools only (also the 'coordinator' setting)
  --teams                    let the main agent create an agent team with a shared task list (also the
                             'agentTeams' setting; always on in coordinator mode)
  --pass-env NAME            give Bash, hooks and MCP servers this credential-looking environment variable
                             (repeatable; NAME or PREFIX_*; also the 'passEnvironment' setting). Others
                             that carry credentials (API keys, tokens, passwords) are kept from them
  --trust-project            let this run use what the folder brings that runs by itself (.mcp.json servers,
                             hooks and permissions in .claude/settings*.json, agent files' hooks and servers)
                             without approving it first; otherwise only what you approved for the folder
                             ('fanout trust allow', or the app) or Claude Code's enabledMcpjsonServers runs
Every other option of \`claude --help\` is accepted; one that does not apply to Fanout is named on stderr
(docs/claude-code-differences.md says why) and the run goes on.

Long sessions compact themselves: past a threshold of the model's context window (settings.json
"context": {"autoCompactPercent": N}; default like Claude Code's: 167k of a 200k window, 967k of 1M),
the older part of an agent's conversation is summarised and it carries on from the summary and its
latest turns.
-p "/compact [what to keep]" with --resume compacts the session's main agent now.
`

/** A command line that does not parse, or names what cannot be read: said in one line on stderr, exit 1 as in Claude Code. */
export class UsageError extends Error {}
/** `--help` or `--version`: the text (the usage when empty) on stdout, exit 0. */
export class HelpRequested extends Error {}

export interface RunArgs {
  prompt: string
  /** The prompt as given, before trimming: only one that starts with `/` is a slash command (`  /x` is text, as in Claude Code). */
  slashCommand: boolean
  cwd: string
  agent?: string
  model?: string
  /** --fallback-model: the model that takes over when the main one is overloaded (as Claude Code's -p does). */
  fallbackModel?: string
  permissionMode?: PermissionMode
  maxTurns?: number
  effort?: string
  format: 'text' | 'json' | 'stream-json' | 'events'
  agentsJson?: string
  resume?: string
  /** --retry: the failed agent to run again (an id or name), or true for the session's failed ones. */
  retry?: string | true
  /** -c/--continue: the most recent session of this folder. */
  continueLatest?: boolean
  sessionId?: string
  title?: string
  coordinator?: boolean
  teams?: boolean
  passEnv: string[]
  trustProject?: boolean
  /** --allowedTools and --disallowedTools, one rule each (commas and spaces split as Claude Code splits them). */
  allowedTools: string[]
  disallowedTools: string[]
  /** --settings: the file's text or the JSON given, parsed. */
  settings?: { source: string; value: Record<string, unknown> }
  /** --mcp-config: the servers of every config given, by name. */
  mcpServers?: Record<string, unknown>
  strictMcpConfig?: boolean
  systemPrompt?: string
  appendSystemPrompt?: string
  addDirs: string[]
  /** --plugin-dir: plugin folders for this run (or folders of plugins), resolved against the working directory. */
  pluginDirs: string[]
  /** --max-budget-usd: the session's spending limit (Fanout's budget setting for this run). */
  maxBudgetUsd?: number
  /** --tools: the built-in tools offered (undefined: all; "default" is all). */
  onlyTools?: string[]
  /** One line each for options given that Fanout does not apply (printed on stderr). */
  notes: string[]
  /** --input-format stream-json with no prompt given: the user messages of stdin, each a turn (`prompt` is empty). */
  turns?: AsyncIterable<string>
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return ''
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** Claude Code's rule lists: "Bash(git *) Edit" or "Read,Write" — split at commas and spaces outside parentheses. */
export function splitToolRules(values: readonly string[]): string[] {
  const out: string[] = []
  for (const v of values) {
    let depth = 0
    let cur = ''
    for (const ch of v) {
      if (ch === '(') depth++
      else if (ch === ')') depth = Math.max(0, depth - 1)
      if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
        if (cur) out.push(cur)
        cur = ''
      } else cur += ch
    }
    if (cur) out.push(cur)
  }
  return out
}

/** `--settings` and `--mcp-config` take a file or the JSON itself, as in Claude Code. */
function jsonOrFile(value: string, cwd: string, what: string): { source: string; value: Record<string, unknown> } {
  const text = value.trim()
  let raw = text
  let source = `${what} (command line)`
  if (!text.startsWith('{')) {
    const file = resolve(cwd, text)
    if (!existsSync(file)) throw new UsageError(`Error: ${what === '--settings' ? 'Settings' : 'MCP config'} file not found: ${file}`)
    raw = readFileSync(file, 'utf8')
    source = file
  }
  try {
    const parsed = JSON.parse(raw) as unknown
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object')
    return { source, value: parsed as Record<string, unknown> }
  } catch (err) {
    throw new UsageError(`Error: Invalid ${what} ${source === `${what} (command line)` ? 'JSON' : source}: ${errorMessage(err)}`)
  }
}

const readText = (file: string, cwd: string, flag: string) => {
  try {
    return readFileSync(resolve(cwd, file), 'utf8')
  } catch (err) {
    throw new UsageError(`Error: ${flag}: ${errorMessage(err)}`)
  }
}

/** One line of --input-format stream-json: the text of a user message, or null for any other line. */
function userMessageText(line: string): string | null {
  if (!line.trim()) return null
  let msg: any
  try {
    msg = JSON.parse(line)
  } catch {
    throw new UsageError(`Error: --input-format stream-json: a line of stdin is not JSON: ${line.slice(0, 120)}`)
  }
  if (msg?.type !== 'user') return null
  const content = msg.message?.content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return null
  const texts = content.flatMap((b: any) => (b?.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
  return texts.length ? texts.join('\n\n') : null
}

/**
 * --input-format stream-json: each user message's text as its line arrives, so each starts a turn of the
 * conversation while stdin stays open (Claude Code's multi-turn -p).
 */
export async function* streamJsonTurns(input: AsyncIterable<string | Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  let pending = ''
  for await (const chunk of input) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const text = userMessageText(pending.slice(0, nl))
      pending = pending.slice(nl + 1)
      if (text !== null) yield text
    }
  }
  const last = userMessageText(pending + decoder.decode())
  if (last !== null) yield last
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function parseRunArgs(
  argv: string[],
  stdin: () => Promise<string> = readStdin,
  stdinStream: () => AsyncIterable<string | Uint8Array> = () => process.stdin
): Promise<RunArgs> {
  let parsed: ReturnType<typeof parseClaudeCommandLine>
  try {
    parsed = parseClaudeCommandLine(argv)
  } catch (err) {
    if (err instanceof ClaudeArgsError) throw new UsageError(err.message)
    throw err
  }
  const o = parsed.opts as Record<string, any>
  if (o.help === true) throw new HelpRequested()
  if (o.version === true) throw new HelpRequested(`${FANOUT_VERSION} (Fanout)\n`)
  const cwd = resolve(typeof o.cwd === 'string' ? o.cwd : process.cwd())
  const notes = ignoredFlagNotes(o)
  const format = (o.outputFormat ?? 'text') as RunArgs['format']
  if (o.inputFormat === 'stream-json' && format !== 'stream-json') throw new UsageError('Error: --input-format=stream-json requires output-format=stream-json.')
  // Claude Code's guard, kept: as root, bypassing every check is for a sandbox that says it is one.
  // (--permission-mode bypassPermissions is not held to it: Fanout always took that as root, and scripts rely on it.)
  if (o.dangerouslySkipPermissions === true && process.getuid?.() === 0 && !process.env.IS_SANDBOX)
    throw new UsageError('--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons')
  let prompt = typeof o.prompt === 'string' ? o.prompt : parsed.words.join(' ')
  const retry = o.retry === true || typeof o.retry === 'string' ? (o.retry as string | true) : undefined
  if (retry !== undefined) {
    if (prompt.trim()) throw new UsageError('Error: --retry sends the failed request again: give no prompt with it.')
    if (typeof o.resume !== 'string' && o.resume !== true && o.continue !== true)
      throw new UsageError('Error: --retry runs a failed agent of a recorded session again: pass --resume SESSION_ID or --continue.')
  }
  // stream-json input is read turn by turn as the run goes (run-command.ts), not before it starts.
  const turns = !prompt.trim() && retry === undefined && o.inputFormat === 'stream-json' ? streamJsonTurns(stdinStream()) : undefined
  if (!prompt.trim() && !turns && retry === undefined) prompt = await stdin()
  const slashCommand = prompt.startsWith('/')
  prompt = prompt.trim()
  if (!prompt && !turns && retry === undefined)
    throw new UsageError('Error: Input must be provided either through stdin or as a prompt argument when using --print')
  const resumeId = typeof o.resume === 'string' ? o.resume : undefined
  if (o.resume === true) notes.push('-r/--resume without a session id continues the most recent session of this folder (there is no picker headless).')
  const continueLatest = o.continue === true || o.resume === true
  if (parseCompactCommand(prompt) && !resumeId && !continueLatest)
    throw new UsageError('Error: /compact works on a recorded session: pass --resume SESSION_ID or --continue.')
  if (typeof o.sessionId === 'string' && !UUID.test(o.sessionId)) throw new UsageError('Error: Invalid session ID. Must be a valid UUID.')
  let mode = o.permissionMode as string | undefined
  if (mode === 'manual') mode = 'default'
  if (mode === 'auto') {
    notes.push("--permission-mode auto is not applied here: Fanout has no auto-mode classifier; the 'default' mode is used.")
    mode = 'default'
  }
  if (mode === undefined && o.dangerouslySkipPermissions === true) mode = 'bypassPermissions'
  const disallowed = splitToolRules(o.disallowedTools ?? [])
  const tools = o.tools === undefined ? undefined : splitToolRules(o.tools as string[])
  const onlyTools = tools === undefined || tools.includes('default') ? undefined : tools
  if (o.restricted === true) {
    // What --restricted takes away that Fanout can take away the same way: the tools that run code or fetch,
    // unless --tools names them.
    for (const t of ['Bash', 'WebFetch']) if (!tools?.includes(t)) disallowed.push(t)
    notes.push('--restricted: Bash and WebFetch are denied unless --tools names them; settings files are still read.')
  }
  let mcpServers: Record<string, unknown> | undefined
  for (const config of (o.mcpConfig ?? []) as string[]) {
    const read = jsonOrFile(config, cwd, '--mcp-config')
    const servers = read.value.mcpServers
    if (!servers || typeof servers !== 'object') throw new UsageError(`Error: Invalid MCP configuration: ${read.source} has no "mcpServers" object`)
    mcpServers = { ...mcpServers, ...(servers as Record<string, unknown>) }
  }
  const agents = typeof o.agents === 'string' ? o.agents : undefined
  return {
    prompt,
    slashCommand,
    cwd,
    ...(typeof o.agent === 'string' ? { agent: o.agent } : {}),
    ...(typeof o.model === 'string' ? { model: o.model } : {}),
    ...(typeof o.fallbackModel === 'string' && o.fallbackModel.trim() ? { fallbackModel: o.fallbackModel.trim() } : {}),
    ...(mode ? { permissionMode: mode as PermissionMode } : {}),
    ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns as number } : {}),
    ...(typeof o.effort === 'string' ? { effort: o.effort.trim().toLowerCase() } : {}),
    format,
    ...(agents !== undefined ? { agentsJson: agents.trim().startsWith('{') ? agents : readText(agents, cwd, '--agents') } : {}),
    ...(resumeId ? { resume: resumeId } : {}),
    ...(retry !== undefined ? { retry } : {}),
    ...(continueLatest && !resumeId ? { continueLatest: true } : {}),
    ...(typeof o.sessionId === 'string' ? { sessionId: o.sessionId.toLowerCase() } : {}),
    ...(typeof o.name === 'string' ? { title: o.name } : {}),
    ...(o.coordinator === true ? { coordinator: true } : {}),
    ...(o.teams === true ? { teams: true } : {}),
    passEnv: parsePassEnv(o.passEnv),
    ...(o.trustProject === true ? { trustProject: true } : {}),
    allowedTools: splitToolRules(o.allowedTools ?? []),
    disallowedTools: disallowed,
    ...(typeof o.settings === 'string' ? { settings: jsonOrFile(o.settings, cwd, '--settings') } : {}),
    ...(mcpServers ? { mcpServers } : {}),
    ...(o.strictMcpConfig === true ? { strictMcpConfig: true } : {}),
    ...(typeof o.systemPrompt === 'string' ? { systemPrompt: o.systemPrompt } : {}),
    ...(typeof o.systemPromptFile === 'string' ? { systemPrompt: readText(o.systemPromptFile, cwd, '--system-prompt-file') } : {}),
    ...(typeof o.appendSystemPrompt === 'string' ? { appendSystemPrompt: o.appendSystemPrompt } : {}),
    ...(typeof o.appendSystemPromptFile === 'string' ? { appendSystemPrompt: readText(o.appendSystemPromptFile, cwd, '--append-system-prompt-file') } : {}),
    ...(onlyTools ? { onlyTools } : {}),
    ...(typeof o.maxBudgetUsd === 'number' ? { maxBudgetUsd: o.maxBudgetUsd } : {}),
    addDirs: ((o.addDir ?? []) as string[]).map((d) => resolve(cwd, d)),
    pluginDirs: ((o.pluginDir ?? []) as string[]).map((d) => resolve(cwd, d)),
    notes,
    ...(turns ? { turns } : {})
  }
}

function parsePassEnv(v: unknown): string[] {
  const names = Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? [v] : []
  for (const n of names)
    if (!/^[A-Za-z_][A-Za-z0-9_]*\*?$/.test(n)) throw new UsageError(`Error: --pass-env takes a variable name (or a prefix ending in *), not '${n}'.`)
  return names
}
