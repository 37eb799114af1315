// `fanout run` with MCP servers and hooks: the bundled CLI as a real process starts the project's MCP server,
// runs its hooks, and exits without leaving the server behind.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureCliBundle, runCli } from '../../../test/support/cli'
import { hookCommand, hooksSettings, readHookLog } from '../runtime/hooks/testing/fixture'
import { stdioServerEntry } from '../runtime/mcp/testing/servers'
import { reply, scriptByAgent, startScriptedServer, type ScriptedServer } from '../runtime/model/scripted'
import { processGroupAlive } from '../runtime/tools/process-group'

let server: ScriptedServer | null = null
beforeAll(() => ensureCliBundle(), 60_000)
afterEach(async () => {
  await server?.close()
  server = null
})

describe('fanout run with MCP servers and hooks', () => {
  it("calls the project's MCP server, runs PreToolUse hooks on the call, and stops the server on exit", async () => {
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-run-mcp-')))
    const project = join(tmp, 'project')
    mkdirSync(join(project, '.claude'), { recursive: true })
    const pidFile = join(tmp, 'server.pid')
    const log = join(tmp, 'hooks.log')
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { notes: stdioServerEntry(['--label', 'cli', '--pid-file', pidFile]) } }))
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify(hooksSettings([{ event: 'PreToolUse', matcher: 'mcp__notes__.*', command: hookCommand(tmp, log) }])))
    server = await startScriptedServer({
      respond: scriptByAgent([{ match: 'lead agent in Fanout', turns: [reply.toolUse('mcp__notes__echo', { text: 'from the cli' }), (req) => reply.text(req.toolResults[0].content)] }])
    })
    const r = await runCli(['run', '-p', 'Echo something.', '--cwd', project, '--output-format', 'json'], {
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_AUTH_TOKEN: '', ANTHROPIC_BASE_URL: server.url, FANOUT_DATA_DIR: join(tmp, 'data'), HOME: tmp }
    })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'cli echo: from the cli', is_error: false })
    expect(readHookLog(log).map((l) => [l.input.hook_event_name, l.input.tool_name, l.input.tool_input])).toEqual([['PreToolUse', 'mcp__notes__echo', { text: 'from the cli' }]])
    expect(processGroupAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false)
  })

  it('an MCP server that fails to start is reported on stderr in every output format, and in stream-json\'s system/init', async () => {
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-run-mcp-fail-')))
    const project = join(tmp, 'project')
    mkdirSync(project, { recursive: true })
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { broken: { command: join(tmp, 'no-such-server') } } }))
    server = await startScriptedServer({ respond: scriptByAgent([{ match: 'lead agent in Fanout', turns: [reply.text('ok')] }]) })
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_AUTH_TOKEN: '', ANTHROPIC_BASE_URL: server.url, FANOUT_DATA_DIR: join(tmp, 'data'), HOME: tmp }
    for (const format of ['text', 'json', 'stream-json']) {
      const r = await runCli(['run', '-p', 'hi', '--cwd', project, '--output-format', format], { env })
      expect(r.code, format).toBe(0)
      expect(r.stderr, format).toMatch(/^fanout: MCP server "broken" .*Its tools are not available; the other tools work as usual\.\n$/s)
      if (format === 'stream-json') expect(JSON.parse(r.stdout.split('\n')[0]).mcp_servers).toEqual([{ name: 'broken', status: 'failed', error: expect.stringContaining('broken') }])
    }
  })
})
