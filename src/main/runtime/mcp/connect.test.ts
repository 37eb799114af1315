// Real MCP servers (the suite's own, as processes) through the real SDK client: tools, results, and every
// way a start can fail, each with an error that names the server and the reason.
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { processGroupAlive } from '../tools/process-group'
import { connectMcpServer, McpStartError, type McpConnection } from './connect'
import { createMcpTool } from './mcp-tool'
import { parseServerConfig, type McpTransportConfig } from './server-config'
import { startHttpTestServer, stdioServerEntry, stopHttpTestServers } from './testing/servers'
import { runTool } from '../tool-call/execute'

const open: McpConnection[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()))
  await stopHttpTestServers()
})

const cwd = () => realpathSync(mkdtempSync(join(tmpdir(), 'fanout-mcp-')))
const stdio = (flags: string[] = [], env: Record<string, string> = {}): McpTransportConfig => ({ type: 'stdio', ...stdioServerEntry(flags, env) })
const ctx = (signal = new AbortController().signal) => ({ signal, agentId: 'a1', toolUseId: 'tu1' })

async function connect(name: string, config: McpTransportConfig, dir = cwd(), timeoutMs?: number) {
  const conn = await connectMcpServer(name, config, { cwd: dir, ...(timeoutMs ? { timeoutMs } : {}) })
  open.push(conn)
  return conn
}

async function startError(name: string, config: McpTransportConfig, timeoutMs?: number): Promise<string> {
  const err = await connect(name, config, cwd(), timeoutMs).then(
    () => null,
    (e: unknown) => e
  )
  expect(err).toBeInstanceOf(McpStartError)
  return (err as McpStartError).message
}

describe('MCP over stdio', () => {
  it('lists the tools and calls them: text, structured content, images, tool errors, cwd and env', async () => {
    const dir = cwd()
    const conn = await connect('notes', stdio(['--label', 'N'], { MCP_TEST_VAR: 'from-config' }), dir)
    expect(conn.tools.map((t) => t.name).sort()).toEqual(['add', 'echo', 'fail', 'picture', 'wait', 'whereami'])
    const tools = new Map(conn.tools.map((t) => [t.name, createMcpTool(conn, t)]))
    const echo = tools.get('echo')!
    expect(echo.name).toBe('mcp__notes__echo')
    expect(echo.readOnly).toBe(true)
    expect(tools.get('add')!.readOnly).toBe(false)
    expect(echo.inputJsonSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] })

    expect(await runTool(echo, { text: 'hi' }, ctx())).toMatchObject({ content: 'N echo: hi' })
    const sum = await runTool(tools.get('add')!, { a: 2, b: 3 }, ctx())
    expect(sum).toMatchObject({ content: '2 + 3 = 5', details: { server: 'notes', tool: 'add', structuredContent: { sum: 5 } } })
    const picture = await runTool(tools.get('picture')!, {}, ctx())
    expect(picture.content).toMatch(/^Here is the picture\.\n\[image\/png image, 70 bytes, returned by picture/)
    expect((picture.details as any).images[0]).toMatchObject({ mimeType: 'image/png', bytes: 70 })
    expect(await runTool(tools.get('fail')!, {}, ctx())).toMatchObject({ content: 'the fail tool always fails', isError: true })
    const where = JSON.parse((await runTool(tools.get('whereami')!, {}, ctx())).content)
    expect(where).toMatchObject({ cwd: dir, testVar: 'from-config' })
  })

  it('checks input against the server schema before calling, with errors the model can act on', async () => {
    const conn = await connect('calc', stdio())
    const add = createMcpTool(conn, conn.tools.find((t) => t.name === 'add')!)
    const missing = await runTool(add, { a: 1 }, ctx())
    expect(missing).toMatchObject({ isError: true })
    expect(missing.content).toBe('Invalid input for mcp__calc__add:\n- b: required\nFix the input and call mcp__calc__add again.')
    expect((await runTool(add, { a: 'one', b: 2 }, ctx())).content).toContain('- a: expected number, got string')
    expect((await runTool(add, 'nope', ctx())).content).toContain('(input): expected an object, got string')
  })

  it('stops a call when the agent stops, and the server keeps serving', async () => {
    const conn = await connect('slow', stdio())
    const wait = createMcpTool(conn, conn.tools.find((t) => t.name === 'wait')!)
    const abort = new AbortController()
    const call = runTool(wait, { ms: 60_000 }, ctx(abort.signal))
    setTimeout(() => abort.abort(), 50)
    expect(await call).toMatchObject({ isError: true, content: 'mcp__slow__wait was interrupted: the agent was stopped.' })
    expect((await runTool(wait, { ms: 1 }, ctx())).content).toBe('waited 1 ms')
  })

  it('says when a server that was running went away, with its exit code and stderr', async () => {
    const conn = await connect('flaky', stdio(['--exit-after-call']))
    const echo = createMcpTool(conn, conn.tools.find((t) => t.name === 'echo')!)
    expect((await runTool(echo, { text: 'one' }, ctx())).content).toBe('stdio echo: one')
    // The server exits right after answering; wait until the client has seen it go.
    while (!conn.lostReason()) await new Promise((r) => setTimeout(r, 10))
    const second = await runTool(echo, { text: 'two' }, ctx())
    expect(second.isError).toBe(true)
    expect(second.content).toMatch(/MCP server "flaky" stopped running \(exit code 7\)[\s\S]*crashing after a call/)
  })

  it('ends the server process (and its group) on close', async () => {
    const dir = cwd()
    const pidFile = join(dir, 'pid')
    const conn = await connect('closing', stdio(['--pid-file', pidFile]), dir)
    const pid = Number(readFileSync(pidFile, 'utf8'))
    expect(processGroupAlive(pid)).toBe(true)
    await conn.close()
    expect(processGroupAlive(pid)).toBe(false)
  })

  it('a command that does not exist: "command not found" with the command', async () => {
    const message = await startError('ghost', { type: 'stdio', command: 'fanout-no-such-mcp-server', args: [], env: {} })
    expect(message).toBe('MCP server "ghost" could not start: command not found: fanout-no-such-mcp-server.')
  })

  it('a server that exits before the handshake: its exit code and the tail of its stderr', async () => {
    const message = await startError('broken', stdio(['--exit-on-start', '3']))
    expect(message).toMatch(/^MCP server "broken" \(.*stdio-server\.mjs --exit-on-start 3\) exited with code 3 before it was ready\./)
    expect(message).toContain('fatal: the database at /nowhere/db.sqlite is missing')
  })

  it('a server that never answers: the start timeout, with its stderr', async () => {
    // A shell writes its complaint within milliseconds, well inside the timeout, even on a loaded machine.
    const message = await startError(
      'sleepy',
      { type: 'stdio', command: '/bin/sh', args: ['-c', 'echo "test server: waiting forever" >&2; exec sleep 30'], env: {} },
      5000
    )
    expect(message).toMatch(/^MCP server "sleepy" \(\/bin\/sh -c .*\) did not complete the MCP handshake within 5 s\./)
    expect(message).toContain('test server: waiting forever')
  })
})

describe('MCP over streamable HTTP', () => {
  it('connects to a server process over HTTP with configured headers and calls its tools', async () => {
    const server = await startHttpTestServer(['--label', 'H', '--require-header', 'x-token=s3cret'])
    const conn = await connect('remote', { type: 'http', url: server.url, headers: { 'x-token': 's3cret' } })
    const echo = createMcpTool(conn, conn.tools.find((t) => t.name === 'echo')!)
    expect(await runTool(echo, { text: 'over http' }, ctx())).toMatchObject({ content: 'H echo: over http' })
  })

  it('reports a refused connection and a rejected request with the URL', async () => {
    const server = await startHttpTestServer(['--require-header', 'x-token=s3cret'])
    const denied = await startError('remote', { type: 'http', url: server.url, headers: {} })
    expect(denied).toBe(`MCP server "remote" at ${server.url} answered HTTP 401: missing credentials.`)
    await server.close()
    const refused = await startError('gone', { type: 'http', url: server.url, headers: {} })
    expect(refused).toBe(`MCP server "gone" at ${server.url} could not be reached: connection refused.`)
  })
})

describe('server configuration', () => {
  const env = { HOME_DIR: '/home/me', TOKEN: 't0k' }
  it('reads stdio and http entries and expands ${VAR} and ${VAR:-default}', () => {
    expect(parseServerConfig('a', { command: 'run-${TOKEN}', args: ['${HOME_DIR}/x', '${MISSING:-dflt}'], env: { K: '${TOKEN}' } }, '.mcp.json', env)).toEqual({
      config: { type: 'stdio', command: 'run-t0k', args: ['/home/me/x', 'dflt'], env: { K: 't0k' } }
    })
    expect(parseServerConfig('b', { type: 'http', url: 'https://x.test/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }, '.mcp.json', env)).toEqual({
      config: { type: 'http', url: 'https://x.test/mcp', headers: { Authorization: 'Bearer t0k' } }
    })
  })

  it('says what is wrong with a bad entry, naming the server and the file', () => {
    expect(parseServerConfig('a', { command: 'x', args: '--flag' }, '/p/.mcp.json', env)).toEqual({
      error: 'MCP server "a" in /p/.mcp.json: args must be a list of strings'
    })
    expect(parseServerConfig('b', { type: 'ws', url: 'wss://x' }, '/p/.mcp.json', env)).toMatchObject({
      error: expect.stringContaining('transport type "ws" is not supported by Fanout')
    })
    expect(parseServerConfig('c', { args: [] }, '/p/.mcp.json', env)).toMatchObject({ error: expect.stringContaining('neither "command"') })
    expect(parseServerConfig('d', { command: 'x', env: { K: '${NOPE}' } }, '/p/.mcp.json', env)).toEqual({
      error: 'MCP server "d" in /p/.mcp.json: missing environment variable NOPE (used as ${...} without a default)'
    })
    expect(parseServerConfig('e', { type: 'http', url: 'ftp://x' }, '/p/.mcp.json', env)).toMatchObject({
      error: expect.stringContaining('url must be http:// or https://')
    })
  })
})
