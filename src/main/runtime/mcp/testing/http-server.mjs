#!/usr/bin/env node
// A small MCP server over streamable HTTP for the test suite, run as its own process. It listens on an ephemeral
// port and prints `listening <port>` on stdout. Stateless: each POST gets a fresh server and transport.
//   --label NAME          prefix of the echo tool's answers
//   --require-header K=V  answers 401 unless the request carries that header
import { createServer } from 'node:http'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { registerTestTools } from './test-tools.mjs'

const args = process.argv.slice(2)
const value = (name) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
const label = value('--label') ?? 'http'
const required = value('--require-header')?.split('=')

const http = createServer(async (req, res) => {
  if (required && req.headers[required[0].toLowerCase()] !== required[1]) {
    res.writeHead(401, { 'content-type': 'text/plain' }).end('missing credentials')
    return
  }
  if (req.method !== 'POST') {
    res.writeHead(405).end()
    return
  }
  const server = new McpServer({ name: 'fanout-test-http', version: '1.0.0' })
  registerTestTools(server, label)
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  res.on('close', () => {
    void transport.close()
    void server.close()
  })
  await server.connect(transport)
  await transport.handleRequest(req, res)
})
http.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${http.address().port}\n`))
process.on('SIGTERM', () => http.close(() => process.exit(0)))
