// `fanout agents list|check|stats`: what agents a working directory has, what is wrong with agent files,
// and (agents-stats.ts) what their runs have cost.
import { homedir } from 'node:os'
import { isAbsolute, relative, resolve } from 'node:path'
import type { Diagnostic, LoadedAgent } from '../../shared/agent-definition'
import {
  checkAgentPaths,
  checkEffectiveSources,
  checkFailed,
  defaultManagedAgentsDir,
  formatAgentListing,
  formatDiagnostic,
  loadAgents,
  type CheckResult,
  type LoadAgentsOptions
} from '../runtime/definitions'
import { loadPlugins } from '../runtime/plugins'

export const AGENTS_USAGE = `Usage:
  fanout agents list [--cwd DIR] [--json]   every effective agent: the Agent tool's listing lines, or JSON
  fanout agents check [PATH...] [--cwd DIR] diagnostics as file:line:col: severity: message
                                            (no PATH: every source that applies to DIR); exit 1 if a file fails to load
  fanout agents stats [NAME] [--json]       each definition's recorded runs: cost, tokens, turns, outcomes
Options for list and check:
  --cwd DIR            the working directory whose .claude/agents folders apply (default: the current one)
  --agents JSON        agents given as on Claude Code's command line: '{"name": {"description": "...", "prompt": "..."}}'
  --plugin-dir DIR     a plugin folder whose agents/ are loaded as plugin:NAME agents (repeatable)
  --managed-dir DIR    the managed (policy) agents folder (default: $FANOUT_MANAGED_AGENTS_DIR or Claude Code's)
`

export interface CommandIO {
  stdout(text: string): void
  stderr(text: string): void
  env: NodeJS.ProcessEnv
  cwd: string
}

const processIO: CommandIO = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd()
}

class UsageError extends Error {}

interface Parsed {
  cwd: string
  json: boolean
  paths: string[]
  options: LoadAgentsOptions
}

function parseArgs(sub: 'list' | 'check', args: string[], io: CommandIO): Parsed {
  let cwd = io.cwd
  let json = false
  let cliAgentsJson: string | undefined
  let managedDir = io.env.FANOUT_MANAGED_AGENTS_DIR || defaultManagedAgentsDir()
  const pluginPaths: string[] = []
  const paths: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    const value = (): string => {
      const v = args[++i]
      if (v === undefined || (v.startsWith('--') && v.length > 2)) throw new UsageError(`${arg} needs a value`)
      return v
    }
    if (arg === '--cwd') cwd = resolve(io.cwd, value())
    else if (arg === '--json' && sub === 'list') json = true
    else if (arg === '--agents') cliAgentsJson = value()
    else if (arg === '--managed-dir') managedDir = resolve(io.cwd, value())
    else if (arg === '--plugin-dir') pluginPaths.push(resolve(io.cwd, value()))
    else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg} for 'fanout agents ${sub}'`)
    else if (sub === 'check') paths.push(arg)
    else throw new UsageError(`'fanout agents list' takes no arguments (got '${arg}'); use --cwd DIR to pick a folder`)
  }
  const home = io.env.HOME || homedir()
  // The plugins a session here would load: these --plugin-dir folders and those the settings files enable.
  const { pluginDirs } = loadPlugins({ cwd, home, pluginDirs: pluginPaths })
  return { cwd, json, paths, options: { cwd, home, pluginDirs, cliAgentsJson, managedDir } }
}

/** The JSON `agents list --json` prints for one agent. */
export function agentJson(agent: LoadedAgent): Record<string, unknown> {
  const d = agent.definition
  const toolsAsWritten = !d.tools || d.tools.length === 0 ? null : d.tools.includes('*') ? '*' : d.tools
  return {
    name: d.agentType,
    source: d.source,
    description: d.whenToUse,
    tools: toolsAsWritten,
    disallowedTools: d.disallowedTools && d.disallowedTools.length ? d.disallowedTools : null,
    model: d.model ?? null,
    color: d.color ?? null,
    file: d.file ?? null,
    shadows: agent.shadows,
    diagnostics: agent.diagnostics
  }
}

function display(file: string, cwd: string): string {
  if (!isAbsolute(file)) return file
  const rel = relative(cwd, file)
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file
}

function summary(r: CheckResult): string {
  const count = (s: Diagnostic['severity']): number => r.diagnostics.filter((d) => d.severity === s).length
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`
  return `${plural(r.checked, 'agent file')} checked: ${r.loaded} loaded, ${r.failed.length} failed (${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${count('info')} info)\n`
}

export async function agentsCommand(argv: string[], io: CommandIO = processIO): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h') {
    ;(sub === undefined ? io.stderr : io.stdout)(AGENTS_USAGE)
    return sub === undefined ? 2 : 0
  }
  if (sub === 'stats') return (await import('./agents-stats')).statsCommand(rest, io)
  if (sub !== 'list' && sub !== 'check') {
    io.stderr(`fanout agents: unknown subcommand '${sub}'\n${AGENTS_USAGE}`)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(AGENTS_USAGE)
    return 0
  }
  let parsed: Parsed
  try {
    parsed = parseArgs(sub, rest, io)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    io.stderr(`fanout agents ${sub}: ${err.message}\n${AGENTS_USAGE}`)
    return 2
  }

  if (sub === 'list') {
    const { agents, diagnostics } = await loadAgents(parsed.options)
    if (parsed.json) io.stdout(`${JSON.stringify(agents.map(agentJson), null, 2)}\n`)
    else if (agents.length) io.stdout(`${formatAgentListing(agents.map((a) => a.definition))}\n`)
    const failedFiles = new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => d.file))
    if (failedFiles.size) {
      io.stderr(`fanout: ${failedFiles.size} agent file${failedFiles.size === 1 ? ' was' : 's were'} not loaded; run 'fanout agents check' to see why\n`)
    }
    return 0
  }

  const result = parsed.paths.length ? await checkAgentPaths(parsed.paths, parsed.cwd, parsed.options.home) : await checkEffectiveSources(parsed.options)
  for (const d of result.diagnostics) io.stdout(`${formatDiagnostic({ ...d, file: display(d.file, io.cwd) })}\n`)
  io.stdout(summary(result))
  return checkFailed(result) ? 1 : 0
}
