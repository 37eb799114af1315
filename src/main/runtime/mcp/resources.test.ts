// MCP resources and prompts, and the older HTTP+SSE transport, against the suite's own servers as real
// processes (stdio, streamable HTTP and SSE), through the tools and commands an agent and a person get.
import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runTool } from '../tool-call/execute'
import { connectMcpServer, type McpConnection } from './connect'
import { createMcpTool } from './mcp-tool'
import { listPromptCommands } from './prompt-commands'
import { createResourceTools, NO_RESOURCES } from './resource-tools'
import type { McpTransportConfig } from './server-config'
import { startHttpTestServer, stdioServerEntry, stopHttpTestServers } from './testing/servers'

const open: McpConnection[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()))
  await stopHttpTestServers()
})

const cwd = () => realpathSync(mkdtempSync(join(tmpdir(), 'fanout-mcp-res-')))
const ctx = () => ({ signal: new AbortController().signal, agentId: 'a1', toolUseId: 'tu1' })

async function connect(name: string, config: McpTransportConfig) {
  const conn = await connectMcpServer(name, config, { cwd: cwd() })
  open.push(conn)
  return conn
}

describe('MCP resources as Claude Code shapes them', () => {
  it('lists every server’s resources with a server field, reads one, and names the servers it does not know', async () => {
    const docs = await connect('plugin:kit:docs', { type: 'stdio', ...stdioServerEntry(['--label', 'docs', '--resources']) })
    const plain = await connect('plain', { type: 'stdio', ...stdioServerEntry(['--label', 'plain']) })
    const tools = createResourceTools(() => [docs, plain])
    expect(tools.map((t) => t.name)).toEqual(['ListMcpResourcesTool', 'ReadMcpResourceTool'])
    const [list, read] = tools
    expect(JSON.parse((await runTool(list, {}, ctx())).content)).toEqual([
      { name: 'readme', uri: 'memo://readme', description: 'The docs readme.', mimeType: 'text/plain', server: 'plugin:kit:docs' },
      { name: 'config', uri: 'memo://config.json', description: 'A JSON document.', mimeType: 'application/json', server: 'plugin:kit:docs' }
    ])
    expect((await runTool(list, { server: 'plain' }, ctx())).content).toBe(NO_RESOURCES)
    expect(await runTool(list, { server: 'nope' }, ctx())).toMatchObject({
      content: 'Server "nope" not found. Available servers: plugin:kit:docs, plain',
      isError: true
    })
    expect(JSON.parse((await runTool(read, { server: 'plugin:kit:docs', uri: 'memo://readme' }, ctx())).content)).toEqual({
      contents: [{ uri: 'memo://readme', mimeType: 'text/plain', text: 'docs readme: hello from the resource' }]
    })
    expect(await runTool(read, { server: 'plain', uri: 'memo://readme' }, ctx())).toMatchObject({
      content: 'Server "plain" does not support resources',
      isError: true
    })
    expect((await runTool(read, { server: 'plugin:kit:docs' }, ctx())).content).toMatch(/uri: required/)
  })

  it('offers no resource tools when no connected server has resources', async () => {
    const plain = await connect('plain', { type: 'stdio', ...stdioServerEntry() })
    expect(createResourceTools(() => [plain])).toEqual([])
  })
})

describe('MCP prompts as slash commands', () => {
  it('names each /mcp__server__prompt, fills its arguments in order and refuses a missing required one with the usage', async () => {
    const docs = await connect('my docs', { type: 'stdio', ...stdioServerEntry(['--label', 'docs', '--resources']) })
    const commands = await listPromptCommands([docs])
    expect(commands.map((c) => [c.name, c.description, c.argNames])).toEqual([['mcp__my_docs__greet', 'Greets someone (docs).', ['name']]])
    expect(await commands[0].expand('Ada')).toBe('PROMPT-GREET: say hello to Ada from docs')
    await expect(commands[0].expand('')).rejects.toThrow('Missing required argument: name. Usage: /mcp__my_docs__greet name')
  })
})

describe('MCP over HTTP+SSE', () => {
  it('connects over the SSE transport with its headers, calls a tool and reads a resource', async () => {
    const server = await startHttpTestServer(['--sse', '--label', 'S', '--resources', '--require-header', 'x-token=s3cret'])
    const conn = await connect('events', { type: 'sse', url: server.url, headers: { 'x-token': 's3cret' } })
    const echo = createMcpTool(conn, conn.tools.find((t) => t.name === 'echo')!)
    expect(await runTool(echo, { text: 'over sse' }, ctx())).toMatchObject({ content: 'S echo: over sse' })
    const [, read] = createResourceTools(() => [conn])
    expect((await runTool(read, { server: 'events', uri: 'memo://readme' }, ctx())).content).toContain('S readme: hello from the resource')
  })

  it('says which server answered what when the SSE stream is refused', async () => {
    const server = await startHttpTestServer(['--sse', '--require-header', 'x-token=s3cret'])
    const err = await connectMcpServer('events', { type: 'sse', url: server.url, headers: {} }, { cwd: cwd() }).then(
      () => null,
      (e: Error) => e.message
    )
    expect(err).toBe(`MCP server "events" at ${server.url} answered HTTP 401.`)
  })
})
