// `fanout run`'s command line: its usage text and the parse of argv into RunArgs (errors as UsageError).
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { PERMISSION_MODES, type PermissionMode } from '../../shared/agent-definition'
import { EFFORT_LEVELS, readEffort } from '../runtime/model/effort'
import { parseCompactCommand } from '../runtime/orchestration/runs/compact-agent'
import { errorMessage } from '../../shared/error-message'

/** Fanout's version, as the stream's system/init reports it. */
export const FANOUT_VERSION = '0.1.0'

export const RUN_USAGE = `Usage: fanout run -p PROMPT [options]
  -p, --prompt TEXT          the task (or pass it on stdin)
  --cwd DIR                  the folder the agents work in (default: the current one)
  --agent NAME               run the main agent as this agent definition
  --model M                  haiku, sonnet, opus or a full model id (default: sonnet)
  --permission-mode MODE     ${PERMISSION_MODES.join(' | ')} (headless: a tool that needs approval is denied)
  --max-turns N              most model calls of the main agent
  --effort LEVEL             ${EFFORT_LEVELS.join(' | ')} (also CLAUDE_CODE_EFFORT_LEVEL, effortLevel in
                             .claude/settings.json, or the defaultEffort setting; default: each model's own)
  --output-format FORMAT     text (the final answer), json (one result object, Claude Code's schema),
                             stream-json (Claude Code's stream messages, one a line, then the result) or
                             events (every Fanout event of every agent, one a line, then the result)
  --verbose                  accepted for Claude Code compatibility (stream-json does not need it here)
  --agents JSON              extra agent definitions, as on Claude Code's command line
  --coordinator              coordinator mode: the main agent directs agents through research, synthesis,
                             implementation (each worker in its own git worktree) and verification, with
                             orchestration tools only (also the 'coordinator' setting)
  --teams                    let the main agent create an agent team with a shared task list (also the
                             'agentTeams' setting; always on in coordinator mode)
  --pass-env NAME            give Bash, hooks and MCP servers this credential-looking environment variable
                             (repeatable; NAME or PREFIX_*; also the 'passEnvironment' setting). Others
                             that carry credentials (API keys, tokens, passwords) are kept from them
  --resume SESSION_ID        continue a recorded session: the main agent keeps its history, and agents that
                             were cut off by a crash are resumed (never ones the user stopped)
  --trust-project            let this run use what the folder brings that runs by itself (.mcp.json servers,
                             hooks and permissions in .claude/settings*.json, agent files' hooks and servers)
                             without approving it first; otherwise only what you approved for the folder
                             ('fanout trust allow', or the app) or Claude Code's enabledMcpjsonServers runs

Long sessions compact themselves: past a threshold of the model's context window (settings.json
"context": {"autoCompactPercent": N}; default like Claude Code's: 167k of a 200k window, 967k of 1M),
the older part of an agent's conversation is summarised and it carries on from the summary and its
latest turns.
-p "/compact [what to keep]" with --resume compacts the session's main agent now.
`

/** A command line that does not parse: said with the usage, exit 2. */
export class UsageError extends Error {}
/** `fanout run --help`: the usage on stdout, exit 0. */
export class HelpRequested extends Error {}

export interface RunArgs {
  prompt: string
  cwd: string
  agent?: string
  model?: string
  permissionMode?: PermissionMode
  maxTurns?: number
  effort?: string
  format: 'text' | 'json' | 'stream-json' | 'events'
  agentsJson?: string
  resume?: string
  coordinator?: boolean
  teams?: boolean
  passEnv: string[]
  trustProject?: boolean
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return ''
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function parseRunArgs(argv: string[], stdin: () => Promise<string> = readStdin): Promise<RunArgs> {
  let values: Record<string, string | boolean | string[] | undefined>
  try {
    values = parseArgs({
      args: argv,
      options: {
        prompt: { type: 'string', short: 'p' },
        print: { type: 'boolean' },
        cwd: { type: 'string' },
        agent: { type: 'string' },
        model: { type: 'string' },
        'permission-mode': { type: 'string' },
        'max-turns': { type: 'string' },
        'output-format': { type: 'string' },
        effort: { type: 'string' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        agents: { type: 'string' },
        resume: { type: 'string' },
        coordinator: { type: 'boolean' },
        teams: { type: 'boolean' },
        'pass-env': { type: 'string', multiple: true },
        'trust-project': { type: 'boolean' }
      },
      allowPositionals: false,
      strict: true
    }).values
  } catch (err) {
    throw new UsageError(errorMessage(err))
  }
  if (values.help === true) throw new HelpRequested()
  const format = (values['output-format'] ?? 'text') as string
  if (!['text', 'json', 'stream-json', 'events'].includes(format))
    throw new UsageError(`--output-format must be text, json, stream-json or events, not '${format}'.`)
  const effort = values.effort as string | undefined
  if (effort !== undefined && typeof readEffort(effort) !== 'string')
    throw new UsageError(`--effort must be one of ${EFFORT_LEVELS.join(', ')}, not '${effort}'.`)
  const prompt = typeof values.prompt === 'string' ? values.prompt : (await stdin()).trim()
  if (!prompt) throw new UsageError('No prompt: pass -p "what to do" or pipe it on stdin.')
  if (parseCompactCommand(prompt) && typeof values.resume !== 'string') throw new UsageError('/compact works on a recorded session: pass --resume SESSION_ID.')
  const mode = values['permission-mode'] as string | undefined
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode))
    throw new UsageError(`--permission-mode must be one of ${PERMISSION_MODES.join(', ')}, not '${mode}'.`)
  let maxTurns: number | undefined
  if (values['max-turns'] !== undefined) {
    maxTurns = Number(values['max-turns'])
    if (!Number.isInteger(maxTurns) || maxTurns < 1) throw new UsageError(`--max-turns must be a whole number of at least 1, not '${values['max-turns']}'.`)
  }
  return {
    prompt,
    cwd: resolve(typeof values.cwd === 'string' ? values.cwd : process.cwd()),
    ...(typeof values.agent === 'string' ? { agent: values.agent } : {}),
    ...(typeof values.model === 'string' ? { model: values.model } : {}),
    ...(mode ? { permissionMode: mode as PermissionMode } : {}),
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    ...(effort !== undefined ? { effort: effort.trim().toLowerCase() } : {}),
    format: format as RunArgs['format'],
    ...(typeof values.agents === 'string' ? { agentsJson: values.agents } : {}),
    ...(typeof values.resume === 'string' ? { resume: values.resume } : {}),
    ...(values.coordinator === true ? { coordinator: true } : {}),
    ...(values.teams === true ? { teams: true } : {}),
    passEnv: parsePassEnv(values['pass-env']),
    ...(values['trust-project'] === true ? { trustProject: true } : {})
  }
}

function parsePassEnv(v: string | boolean | string[] | undefined): string[] {
  const names = Array.isArray(v) ? v : typeof v === 'string' ? [v] : []
  for (const n of names)
    if (!/^[A-Za-z_][A-Za-z0-9_]*\*?$/.test(n)) throw new UsageError(`--pass-env takes a variable name (or a prefix ending in *), not '${n}'.`)
  return names
}
