// `fanout run` with MCP servers and hooks: the bundled CLI as a real process starts the project's MCP server,
// runs its hooks, and exits without leaving the server behind — once the folder is approved (--trust-project,
// `fanout trust allow`, Claude Code's enabledMcpjsonServers); otherwise it skips them and says how to allow them.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, useCliServers } from '../../../test/support/cli'
import { hookCommand, hooksSettings, readHookLog } from '../runtime/hooks/testing/fixture'
import { stdioServerEntry } from '../runtime/mcp/testing/servers'
import { reply, scriptByAgent, type ScriptedServer } from '../runtime/model/scripted'
import { processGroupAlive } from '../runtime/tools/process-group'

let server: ScriptedServer
const serve = useCliServers()
const ALLOW_ECHO = { permissions: { allow: ['mcp__notes__echo'] } }

describe('fanout run with MCP servers and hooks', () => {
  it("calls the project's MCP server, runs PreToolUse hooks on the call, and stops the server on exit", async () => {
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-run-mcp-')))
    const project = join(tmp, 'project')
    mkdirSync(join(project, '.claude'), { recursive: true })
    const pidFile = join(tmp, 'server.pid')
    const log = join(tmp, 'hooks.log')
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { notes: stdioServerEntry(['--label', 'cli', '--pid-file', pidFile]) } }))
    writeFileSync(
      join(project, '.claude', 'settings.json'),
      JSON.stringify(hooksSettings([{ event: 'PreToolUse', matcher: 'mcp__notes__.*', command: hookCommand(tmp, log) }]))
    )
    // An MCP tool runs headless only when a rule allows it (its server's readOnlyHint grants nothing).
    mkdirSync(join(tmp, '.claude'), { recursive: true })
    writeFileSync(join(tmp, '.claude', 'settings.json'), JSON.stringify(ALLOW_ECHO))
    server = await serve({
      respond: scriptByAgent([
        { match: 'lead agent in Fanout', turns: [reply.toolUse('mcp__notes__echo', { text: 'from the cli' }), (req) => reply.text(req.toolResults[0].content)] }
      ])
    })
    const r = await runCli(['run', '-p', 'Echo something.', '--cwd', project, '--output-format', 'json', '--trust-project'], {
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_AUTH_TOKEN: '', ANTHROPIC_BASE_URL: server.url, FANOUT_DATA_DIR: join(tmp, 'data'), HOME: tmp }
    })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'cli echo: from the cli', is_error: false })
    expect(readHookLog(log).map((l) => [l.input.hook_event_name, l.input.tool_name, l.input.tool_input])).toEqual([
      ['PreToolUse', 'mcp__notes__echo', { text: 'from the cli' }]
    ])
    expect(processGroupAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false)
  })

  function hostileProject() {
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-run-trust-')))
    const project = join(tmp, 'project')
    mkdirSync(join(project, '.claude'), { recursive: true })
    mkdirSync(join(tmp, 'home', '.claude'), { recursive: true })
    writeFileSync(join(tmp, 'home', '.claude', 'settings.json'), JSON.stringify(ALLOW_ECHO))
    const pidFile = join(tmp, 'server.pid')
    const log = join(tmp, 'hooks.log')
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { notes: stdioServerEntry(['--label', 'cli', '--pid-file', pidFile]) } }))
    writeFileSync(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({ ...hooksSettings([{ event: 'PreToolUse', command: hookCommand(tmp, log) }]), enableAllProjectMcpServers: true })
    )
    return {
      tmp,
      project,
      pidFile,
      log,
      env: (url: string) => ({
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_AUTH_TOKEN: '',
        ANTHROPIC_BASE_URL: url,
        FANOUT_DATA_DIR: join(tmp, 'data'),
        HOME: join(tmp, 'home')
      })
    }
  }

  const echoScript = () =>
    scriptByAgent([
      { match: 'lead agent in Fanout', turns: [reply.toolUse('mcp__notes__echo', { text: 'x' }), (req) => reply.text(req.toolResults[0].content)] }
    ])

  it('skips a folder it was never told to trust — its own enableAllProjectMcpServers does not count — and says which and how to allow them', async () => {
    const p = hostileProject()
    server = await serve({ respond: echoScript() })
    const r = await runCli(['run', '-p', 'Echo something.', '--cwd', p.project], { env: p.env(server.url) })
    expect(r.code).toBe(0)
    expect(existsSync(p.pidFile)).toBe(false)
    expect(readHookLog(p.log)).toEqual([])
    expect(server.requests[0].toolNames).not.toContain('mcp__notes__echo')
    expect(r.stderr).toContain(`fanout: skipped what this folder brings that runs by itself, because you have not approved it for ${p.project}:`)
    expect(r.stderr).toMatch(/MCP server "notes" \(\.mcp\.json\): \S*node \S*stdio-server\.mjs --label cli --pid-file/)
    expect(r.stderr).toMatch(/Hook "PreToolUse" \(\.claude\/settings\.json\): node /)
    expect(r.stderr).toContain(`fanout trust allow --cwd ${JSON.stringify(p.project)}`)
    expect(r.stderr).toContain('--trust-project')
    expect(r.stderr).toContain('"enabledMcpjsonServers": ["notes"]')
  })

  it("honours Claude Code's approvals in the person's own settings, and disabledMcpjsonServers over them", async () => {
    const p = hostileProject()
    writeFileSync(join(p.tmp, 'home', '.claude', 'settings.json'), JSON.stringify({ ...ALLOW_ECHO, enabledMcpjsonServers: ['notes'] }))
    server = await serve({ respond: echoScript() })
    const r = await runCli(['run', '-p', 'Echo something.', '--cwd', p.project, '--output-format', 'json'], { env: p.env(server.url) })
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'cli echo: x', is_error: false })
    // The server was approved by the person's settings; the hook was not, and is reported as skipped.
    expect(r.stderr).not.toContain('MCP server "notes"')
    expect(r.stderr).toContain('Hook "PreToolUse"')
    expect(readHookLog(p.log)).toEqual([])
    await server.close()
    writeFileSync(join(p.project, '.claude', 'settings.local.json'), JSON.stringify({ disabledMcpjsonServers: ['notes'] }))
    rmSync(p.pidFile, { force: true })
    server = await serve({ respond: scriptByAgent([{ match: 'lead agent in Fanout', turns: [reply.text('done')] }]) })
    const off = await runCli(['run', '-p', 'Hi.', '--cwd', p.project], { env: p.env(server.url) })
    expect(off.code).toBe(0)
    expect(existsSync(p.pidFile)).toBe(false)
  })

  it('`fanout trust allow` approves the folder as it is; a later change to a hook waits again', async () => {
    const p = hostileProject()
    const show = await runCli(['trust', '--cwd', p.project], { env: p.env('http://127.0.0.1:9') })
    expect(show.stdout).toContain('brings things that wait for your approval')
    expect(show.stdout).toMatch(/\[waiting\] MCP server "notes"/)
    const allow = await runCli(['trust', 'allow', '--cwd', p.project], { env: p.env('http://127.0.0.1:9') })
    expect(allow.code).toBe(0)
    expect(allow.stdout).toContain('is approved: what it brings runs.')
    server = await serve({ respond: echoScript() })
    const r = await runCli(['run', '-p', 'Echo.', '--cwd', p.project, '--output-format', 'json'], { env: p.env(server.url) })
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'cli echo: x' })
    expect(readHookLog(p.log)).toHaveLength(1)
    // One character of the hook's command changes: it waits again (the server stays approved).
    const settings = JSON.parse(readFileSync(join(p.project, '.claude', 'settings.json'), 'utf8'))
    settings.hooks.PreToolUse[0].hooks[0].command += ' '
    writeFileSync(join(p.project, '.claude', 'settings.json'), JSON.stringify(settings))
    const again = await runCli(['trust', '--cwd', p.project], { env: p.env('http://127.0.0.1:9') })
    expect(again.stdout).toMatch(/\[waiting \(changed\)\] Hook "PreToolUse"/)
    expect(again.stdout).toMatch(/\[approved\] MCP server "notes"/)
  })

  it("an MCP server that fails to start is reported on stderr in every output format, and in stream-json's system/init", async () => {
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-run-mcp-fail-')))
    const project = join(tmp, 'project')
    mkdirSync(project, { recursive: true })
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { broken: { command: join(tmp, 'no-such-server') } } }))
    server = await serve({ respond: scriptByAgent([{ match: 'lead agent in Fanout', turns: [reply.text('ok')] }]) })
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_AUTH_TOKEN: '', ANTHROPIC_BASE_URL: server.url, FANOUT_DATA_DIR: join(tmp, 'data'), HOME: tmp }
    for (const format of ['text', 'json', 'stream-json']) {
      const r = await runCli(['run', '-p', 'hi', '--cwd', project, '--output-format', format, '--trust-project'], { env })
      expect(r.code, format).toBe(0)
      expect(r.stderr, format).toMatch(/^fanout: MCP server "broken" .*Its tools are not available; the other tools work as usual\.\n$/s)
      if (format === 'stream-json')
        expect(JSON.parse(r.stdout.split('\n')[0]).mcp_servers).toEqual([{ name: 'broken', status: 'failed', error: expect.stringContaining('broken') }])
    }
  })
})
