// `--help` on every command and subcommand: the usage on stdout and exit 0 (never "unknown option").
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureCliBundle, runCli } from '../../../test/support/cli'

beforeAll(() => ensureCliBundle(), 60_000)

describe('--help', () => {
  it.each([
    [['--help'], 'fanout — run Claude agents'],
    [['help'], 'fanout — run Claude agents'],
    [['run', '--help'], 'Usage: fanout [run]'],
    [['run', '-h'], 'Usage: fanout [run]'],
    [['agents', '--help'], 'fanout agents list'],
    [['agents', 'list', '--help'], 'fanout agents list'],
    [['agents', 'check', '--help'], 'fanout agents check'],
    [['worktrees', '--help'], 'fanout worktrees list'],
    [['worktrees', 'list', '--help'], 'fanout worktrees list'],
    [['worktrees', 'clean', '--help'], 'fanout worktrees clean'],
    [['web', '--help'], 'Usage: fanout web'],
    [['trust', '--help'], 'fanout trust allow'],
    [['trust', 'allow', '-h'], 'fanout trust allow'],
    [['run', '--help'], '--trust-project']
  ])('fanout %j prints its usage and exits 0', async (args, usage) => {
    const r = await runCli(args, { env: { ANTHROPIC_API_KEY: '' } })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(usage)
    expect(r.stdout).not.toMatch(/unknown option/i)
  })
})

describe("Claude Code's command line at the top level", () => {
  it("`fanout -v` is the version; `fanout mcp list` says it is Claude Code's own command instead of prompting the model with it", async () => {
    const v = await runCli(['-v'], { env: { ANTHROPIC_API_KEY: '' } })
    expect(v.code).toBe(0)
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+ \(Fanout\)\n$/)
    const mcp = await runCli(['mcp', 'list'], { env: { ANTHROPIC_API_KEY: '' } })
    expect(mcp.code).toBe(1)
    expect(mcp.stderr).toMatch(/^fanout: 'claude mcp' is Claude Code's own command; Fanout does not offer it/)
    const unknown = await runCli(['--no-such-flag', '-p', 'x'], { env: { ANTHROPIC_API_KEY: '' } })
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toBe("error: unknown option '--no-such-flag'\n")
  })
})
