#!/usr/bin/env node
// A small MCP server over streamable HTTP for the test suite, run as its own process. It listens on an ephemeral
// port and prints `listening <port>` on stdout. Stateless: each POST gets a fresh server and transport.
//   --label NAME          prefix of the echo tool's answers
//   --require-header K=V  answers 401 unless the request carries that header
//   --resources           also serves resources and a prompt (test-tools.mjs registerTestResources)
//   --sse                 speaks the older HTTP+SSE transport instead: GET /sse opens the stream, POST /messages
import { createServer } from 'node:http'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { registerTestResources, registerTestTools } from './test-tools.mjs'

const args = process.argv.slice(2)
const value = (name) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
const label = value('--label') ?? 'http'
const required = value('--require-header')?.split('=')

const newServer = () => {
  const server = new McpServer({ name: 'fanout-test-http', version: '1.0.0' })
  registerTestTools(server, label)
  if (args.includes('--resources')) registerTestResources(server, label)
  return server
}
const sse = new Map()

const http = createServer(async (req, res) => {
  if (required && req.headers[required[0].toLowerCase()] !== required[1]) {
    res.writeHead(401, { 'content-type': 'text/plain' }).end('missing credentials')
    return
  }
  if (args.includes('--sse')) {
    if (req.method === 'GET' && req.url?.startsWith('/sse')) {
      const transport = new SSEServerTransport('/messages', res)
      sse.set(transport.sessionId, transport)
      res.on('close', () => sse.delete(transport.sessionId))
      await newServer().connect(transport)
      return
    }
    const id = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId')
    const transport = req.method === 'POST' && id ? sse.get(id) : undefined
    if (!transport) res.writeHead(404).end('no such session')
    else await transport.handlePostMessage(req, res)
    return
  }
  if (req.method !== 'POST') {
    res.writeHead(405).end()
    return
  }
  const server = newServer()
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  res.on('close', () => {
    void transport.close()
    void server.close()
  })
  await server.connect(transport)
  await transport.handleRequest(req, res)
})
http.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${http.address().port}\n`))
process.on('SIGTERM', () => {
  http.close(() => process.exit(0))
  http.closeAllConnections() // an SSE stream stays open until its client goes
})
