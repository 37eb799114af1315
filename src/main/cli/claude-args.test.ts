// Claude Code's command line as `fanout` parses it (claude-args.ts, run-args.ts): -p is a switch, the prompt is
// positional or stdin, every documented flag is accepted, the ones that cannot apply are named, errors are
// Claude Code's own words.
import { describe, expect, it } from 'vitest'
import { claudeProgram } from './claude-args'
import { parseRunArgs, splitToolRules, UsageError } from './run-args'

const noStdin = async () => ''
const parse = (argv: string[], stdin = noStdin) => parseRunArgs(argv, stdin)

describe("Claude Code's command line", () => {
  it.each([[['-p', '--output-format', 'json', 'P']], [['--print', 'P']], [['P', '-p']], [['-p', 'P']], [['--prompt', 'P']]])(
    '%j: the prompt is P',
    async (argv) => {
      expect((await parse(argv)).prompt).toBe('P')
    }
  )

  it('reads the prompt from stdin, and the user messages of --input-format stream-json', async () => {
    expect((await parse(['-p'], async () => 'from stdin\n')).prompt).toBe('from stdin')
    const line = (text: string) => `${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] } })}\n`
    // Split mid-line and mid-character: each message is one turn, whole.
    const chunks = [line('streamed'), line('second é').slice(0, 40), line('second é').slice(40), JSON.stringify({ type: 'control' })]
    const args = await parseRunArgs(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json'], noStdin, async function* () {
      yield* chunks
    })
    expect(args.prompt).toBe('')
    const turns: string[] = []
    for await (const t of args.turns!) turns.push(t)
    expect(turns).toEqual(['streamed', 'second é'])
  })

  it('accepts every option `claude --help` lists', () => {
    const ours = new Set(claudeProgram().options.flatMap((o) => [o.long, o.short].filter(Boolean)))
    // claude 2.1.328 --help, options column.
    const claude = `--add-dir --agent --agents --allow-dangerously-skip-permissions --allowedTools --allowed-tools --append-system-prompt
      --autocompact --ax-screen-reader --bg --background --bare --betas --brief --chrome --cloud -c --continue
      --dangerously-skip-permissions -d --debug --debug-file --desktop --disable-slash-commands --disallowedTools
      --disallowed-tools --effort --environment --exclude-dynamic-system-prompt-sections --fallback-model --file
      --fork-session --forward-subagent-text --from-pr -h --help --ide --include-hook-events --include-partial-messages
      --input-format --json-schema --max-budget-usd --mcp-config --model -n --name --no-chrome --no-session-persistence
      --output-format --permission-mode --permission-prompts --plugin-dir --plugin-url -p --print --prompt-suggestions
      --remote-control --remote-control-session-name-prefix --replay-user-messages --restricted -r --resume --safe-mode
      --session-id --setting-sources --settings --strict-mcp-config --system-prompt --system-prompt-snapshot --teleport
      --tmux --tools --verbose -v --version -w --worktree`.split(/\s+/)
    expect(claude.filter((f) => !ours.has(f))).toEqual([])
  })

  it('variadic rule lists split at commas and spaces outside parentheses, as Claude Code splits them', async () => {
    expect(splitToolRules(['Bash(git diff:*) Edit,Read', 'Bash(npm run test, lint)'])).toEqual(['Bash(git diff:*)', 'Edit', 'Read', 'Bash(npm run test, lint)'])
    const args = await parse(['-p', 'P', '--allowedTools', 'Read', 'Bash(git *)', '--disallowed-tools', 'WebFetch'])
    expect(args).toMatchObject({ prompt: 'P', allowedTools: ['Read', 'Bash(git *)'], disallowedTools: ['WebFetch'] })
  })

  it('names each option that cannot apply, in one line, and goes on', async () => {
    const args = await parse(['-p', 'P', '--brief', '--bare', '--worktree', '--no-session-persistence', '--chrome'])
    expect(args.notes).toHaveLength(5)
    for (const flag of ['--brief', '--bare', '--worktree', '--no-session-persistence', '--chrome'])
      expect(
        args.notes.filter((n) => n.startsWith(`${flag} is not applied here: `)),
        flag
      ).toHaveLength(1)
  })

  it.each([
    [['-p', 'P', '--no-such-flag'], "error: unknown option '--no-such-flag'"],
    [['-p', 'P', '--verbos'], "error: unknown option '--verbos'\n(Did you mean --verbose?)"],
    [['-p', 'P', '--permission-mode', 'sideways'], "error: option '--permission-mode <mode>' argument 'sideways' is invalid."],
    [['-p'], 'Error: Input must be provided either through stdin or as a prompt argument when using --print'],
    [['-p', 'P', '--session-id', 'nope'], 'Error: Invalid session ID. Must be a valid UUID.'],
    [['-p', 'P', '--settings', '/nonexistent/s.json'], 'Error: Settings file not found: /nonexistent/s.json'],
    [['-p', 'P', '--settings', '{bad'], 'Error: Invalid --settings JSON:'],
    [['-p', '--input-format', 'stream-json', 'P'], 'Error: --input-format=stream-json requires output-format=stream-json.']
  ])('%j is refused as Claude Code refuses it', async (argv, message) => {
    const err = await parse(argv).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UsageError)
    expect((err as Error).message.startsWith(message)).toBe(true)
  })

  it('maps the permission flags: manual is default, --dangerously-skip-permissions is bypassPermissions (as root only in a declared sandbox)', async () => {
    expect((await parse(['-p', 'P', '--permission-mode', 'manual'])).permissionMode).toBe('default')
    const saved = process.env.IS_SANDBOX
    process.env.IS_SANDBOX = '1'
    try {
      expect((await parse(['-p', 'P', '--dangerously-skip-permissions'])).permissionMode).toBe('bypassPermissions')
      expect((await parse(['-p', 'P', '--dangerously-skip-permissions', '--permission-mode', 'plan'])).permissionMode).toBe('plan')
      if (process.getuid?.() === 0) {
        process.env.IS_SANDBOX = ''
        await expect(parse(['-p', 'P', '--dangerously-skip-permissions'])).rejects.toThrow(/root\/sudo/)
      }
    } finally {
      if (saved === undefined) delete process.env.IS_SANDBOX
      else process.env.IS_SANDBOX = saved
    }
  })
})
