// Claude Code's flags that change a run, end to end through `fanout` called as `claude` is (no `run`): what the
// model is sent (system prompt additions, the tools offered), what a denied tool does, and -c/--continue.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliProject, runCli, useCliServers } from '../../../test/support/cli'
import { waitUntil } from '../runtime/tools/test-kit'
import { reply, scriptLead, type ScriptedServer } from '../runtime/model/scripted'

let server: ScriptedServer
const serve = useCliServers()

describe("Claude Code's flags in fanout -p", () => {
  it('--append-system-prompt adds to the end, --system-prompt replaces the instructions, --tools narrows what is offered', async () => {
    const { project, env } = cliProject('fanout-flags-', {})
    server = await serve({ respond: () => reply.text('ok') })
    const run = async (args: string[]) => {
      const before = server.messageRequests().length
      const r = await runCli(['-p', 'hi', ...args], { cwd: project, env: env(server.url) })
      expect(r.code, r.stderr).toBe(0)
      return server.messageRequests()[before]
    }
    const appended = await run(['--append-system-prompt', 'APPENDED-MARKER'])
    expect(appended.system.trimEnd().endsWith('APPENDED-MARKER')).toBe(true)
    expect(appended.system).toContain('lead agent in Fanout')
    const replaced = await run(['--system-prompt', 'REPLACED-MARKER'])
    expect(replaced.system).toContain('REPLACED-MARKER')
    expect(replaced.system).not.toContain('lead agent in Fanout')
    expect((await run(['--tools', 'Read,Bash'])).toolNames.sort()).toEqual(['Bash', 'Read'])
    expect((await run(['--tools', 'default'])).toolNames).toContain('Write')
  })

  it('--disallowedTools denies the call even in acceptEdits; --allowedTools lets an edit through headless', async () => {
    const { project, env } = cliProject('fanout-flags-', {})
    server = await serve({
      respond: scriptLead(reply.toolUse('Write', { file_path: 'w.txt', content: 'x' }), (req) => reply.text(`Write said: ${req.toolResults[0].content}`))
    })
    const denied = await runCli(['-p', 'write', '--permission-mode', 'acceptEdits', '--disallowedTools', 'Write'], { cwd: project, env: env(server.url) })
    expect(denied.code, denied.stderr).toBe(0)
    expect(existsSync(join(project, 'w.txt'))).toBe(false)
    const allowed = await runCli(['-p', 'write', '--allowedTools', 'Write'], { cwd: project, env: env(server.url) })
    expect(allowed.code, allowed.stderr).toBe(0)
    expect(existsSync(join(project, 'w.txt'))).toBe(true)
  })

  it('-c continues the latest session of this folder; --session-id names a new one; an unknown -r is refused', async () => {
    const { project, env } = cliProject('fanout-flags-', {})
    server = await serve({ respond: (req) => reply.text(`seen ${req.messages.length} messages`) })
    const id = '0b4c7a0e-5a8b-4c55-9a2e-1f2d3c4b5a69'
    const first = await runCli(['-p', 'first', '--session-id', id, '--output-format', 'json'], { cwd: project, env: env(server.url) })
    expect(first.code, first.stderr).toBe(0)
    expect(JSON.parse(first.stdout).session_id).toBe(id)
    const again = await runCli(['-c', '-p', 'second', '--output-format', 'json'], { cwd: project, env: env(server.url) })
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({ session_id: id, result: 'seen 3 messages' })
    const other = join(project, 'sub')
    mkdirSync(other)
    writeFileSync(join(other, 'x.txt'), 'x')
    const elsewhere = await runCli(['-c', '-p', 'third', '--output-format', 'json'], { cwd: other, env: env(server.url) })
    expect(JSON.parse(elsewhere.stdout).session_id).not.toBe(id)
    const unknown = await runCli(['-p', 'x', '-r', '0b4c7a0e-5a8b-4c55-9a2e-1f2d3c4b5a60'], { cwd: project, env: env(server.url) })
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toBe('No conversation found with session ID: 0b4c7a0e-5a8b-4c55-9a2e-1f2d3c4b5a60\n')
  })

  it('a flag that cannot apply is one line on stderr and the run goes on', async () => {
    const { project, env } = cliProject('fanout-flags-', {})
    server = await serve({ respond: () => reply.text('ok') })
    const r = await runCli(['-p', 'hi', '--brief', '--strict-mcp-config', '--mcp-config', '{"mcpServers":{}}'], {
      cwd: project,
      env: env(server.url)
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('ok\n')
    expect(r.stderr).toContain('fanout: --brief is not applied here: Fanout has no SendUserMessage tool.\n')
  })

  it('--input-format stream-json: each user message is a turn of one conversation, answered while stdin stays open', async () => {
    const { project, env } = cliProject('fanout-flags-', {})
    server = await serve({ respond: (req) => reply.text(`answer ${req.lastUserText}`) })
    let stdout = ''
    const line = (text: string) => `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`
    // The second message is written only once the first turn's result is out: a run that waited for stdin to end would never answer.
    async function* input() {
      yield line('one')
      await waitUntil(() => stdout.includes('"type":"result"'), 'the first turn’s result', 60_000)
      yield line('two')
    }
    const r = await runCli(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], {
      cwd: project,
      env: env(server.url),
      input: input(),
      onStdout: (s) => (stdout = s),
      timeoutMs: 90_000
    })
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.type === 'result').map((l) => [l.result, l.num_turns])).toEqual([
      ['answer one', 1],
      ['answer two', 1]
    ])
    expect(lines.filter((l) => l.subtype === 'init')).toHaveLength(2)
    // One conversation: the second request carries the first exchange.
    const [, second] = server.messageRequests()
    expect(JSON.stringify(second.messages)).toContain('answer one')
  }, 120_000)

  it('--fallback-model answers when the main model stays overloaded, and later calls go to it at once', async () => {
    const { project, env } = cliProject('fanout-flags-', {})
    server = await serve({
      respond: (req) =>
        String(req.body.model).includes('opus')
          ? reply.overloaded({ retryAfterSeconds: 0 })
          : req.turn === 0
            ? reply.toolUse('Bash', { command: 'ls', description: 'list' })
            : reply.text(`answered by ${req.body.model}`)
    })
    const r = await runCli(['-p', 'hi', '--model', 'opus', '--fallback-model', 'sonnet'], { cwd: project, env: env(server.url) })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^answered by claude-sonnet/)
    expect(r.stderr).toMatch(/Switched to claude-sonnet\S* due to high demand for claude-opus/)
    // Three overloaded answers, then the fallback for the first call and the second alike.
    expect(server.messageRequests().map((q) => String(q.body.model).split('-')[1])).toEqual(['opus', 'opus', 'opus', 'sonnet', 'sonnet'])
  })

  it("--mcp-config adds servers; with --strict-mcp-config they are the only ones (the folder's .mcp.json is not read)", async () => {
    const { project, env } = cliProject('fanout-flags-', { '.mcp.json': JSON.stringify({ mcpServers: { projsrv: { command: '/nonexistent/proj-server' } } }) })
    server = await serve({ respond: () => reply.text('ok') })
    const servers = async (args: string[]) => {
      const r = await runCli(['-p', 'hi', '--trust-project', '--output-format', 'stream-json', '--verbose', ...args], { cwd: project, env: env(server.url) })
      expect(r.code, r.stderr).toBe(0)
      return (JSON.parse(r.stdout.split('\n')[0]).mcp_servers as Array<{ name: string }>).map((m) => m.name).sort()
    }
    const cli = ['--mcp-config', JSON.stringify({ mcpServers: { clisrv: { command: '/nonexistent/cli-server' } } })]
    expect(await servers(cli)).toEqual(['clisrv', 'projsrv'])
    expect(await servers([...cli, '--strict-mcp-config'])).toEqual(['clisrv'])
  })

  it('--max-budget-usd caps the spend as the budget setting does', async () => {
    const { project, env } = cliProject('fanout-flags-', {})
    server = await serve({ respond: scriptLead(reply.toolUse('Glob', { pattern: '*' }), reply.toolUse('Glob', { pattern: '*' }), reply.text('done')) })
    const r = await runCli(['-p', 'go', '--max-budget-usd', '0.000001', '--output-format', 'json'], { cwd: project, env: env(server.url) })
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true })
  })
})
