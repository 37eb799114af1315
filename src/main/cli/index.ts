// The `fanout` command: headless entry over the runtime.
import { redactProcessOutput } from './redacted-output'

// The launcher hands over how the bundle's parts are loaded (through their code caches).
export { setPartLoader } from './bundle-parts'

const HELP = `fanout — run Claude agents with subagents, headless or in the app

Usage:
  fanout agents list [--cwd DIR] [--json]     every effective agent definition
  fanout agents check [PATH...]               diagnostics for agent files (exit 1 if any fails to load)
  fanout agents stats [NAME]                  each agent definition's runs: cost, tokens, turns, outcomes
  fanout [run] [options] -p PROMPT            run an agent to completion, headless; takes Claude Code's
                                              invocations as they are (alias claude=fanout): claude -p "P",
                                              claude "P" -p, echo P | claude -p --output-format json
  fanout web [--cwd DIR] [--port P]           serve the app in a browser (127.0.0.1, per-launch token)
  fanout worktrees list|clean [--cwd DIR]     agent worktrees left behind by a crash, and their cleanup
  fanout worktrees diff|preview|merge|discard agents' changes: review, conflict preview, land or drop
  fanout trust [show|allow|deny|forget]       what a folder runs by itself (.mcp.json servers, hooks),
               [--cwd DIR]                    and your approval of it
  fanout help                                 this text
Each command takes --help for its own options.
`

/** Commands that work in projects: what a crashed Fanout left there is tidied first. */
const WORKS_IN_PROJECTS = new Set(['agents', 'run', 'worktrees', 'web'])
const COMMANDS = new Set([...WORKS_IN_PROJECTS, 'trust', 'help', '--help', '-h'])
/** Claude Code's own subcommands (`claude mcp add …`): not offered, and never sent to the model as a prompt. */
const CLAUDE_ONLY_COMMANDS = new Set(
  'attach auth auto-mode doctor gateway import install kill logs mcp plugin plugins purge respawn rm setup-token stop ultrareview update upgrade'.split(' ')
)

export async function main(argv: string[]): Promise<number> {
  redactProcessOutput()
  // Anything else is Claude Code's own command line (`fanout -p "P"`, `fanout "P" -p`): a run, as `claude` takes it.
  if (CLAUDE_ONLY_COMMANDS.has(argv[0])) {
    process.stderr.write(
      `fanout: 'claude ${argv[0]}' is Claude Code's own command; Fanout does not offer it (docs/claude-code-differences.md). Run 'fanout help' for Fanout's.\n`
    )
    return 1
  }
  if (argv.length && !COMMANDS.has(argv[0])) argv = ['run', ...argv]
  const [command] = argv
  if (WORKS_IN_PROJECTS.has(command)) {
    const [{ startSandboxHousekeeping }, { resolveDataDir }] = await Promise.all([
      import('../runtime/security/sandbox/housekeeping'),
      import('../runtime/store/data-dir')
    ])
    startSandboxHousekeeping(resolveDataDir(), (m) => process.stderr.write(`fanout: ${m}\n`))
  }
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(HELP)
      return 0
    case 'agents':
      return (await import('./agents-command')).agentsCommand(argv.slice(1))
    case 'run':
      return (await import('./run-command')).runCommand(argv.slice(1))
    case 'worktrees':
      return (await import('./worktrees-command')).worktreesCommand(argv.slice(1))
    case 'web':
      return (await import('../web/command')).runWebCommand(argv.slice(1))
    case 'trust':
      return (await import('./trust-command')).trustCommand(argv.slice(1))
    default:
      return 2
  }
}
