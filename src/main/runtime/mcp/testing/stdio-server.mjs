#!/usr/bin/env node
// A small MCP server over stdio for the test suite. Flags make it misbehave the ways real servers do:
//   --label NAME       prefix of the echo tool's answers
//   --exit-on-start N  writes a complaint to stderr and exits with code N before the handshake
//   --hang             never answers (the client's start timeout fires)
//   --exit-after-call  exits with code 7 right after answering one tool call
//   --pid-file PATH    writes its pid there (tests check the process is gone after close)
//   --resources        also serves resources and a prompt (test-tools.mjs registerTestResources)
import { writeFileSync } from 'node:fs'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { registerTestResources, registerTestTools } from './test-tools.mjs'

const args = process.argv.slice(2)
const flag = (name) => args.includes(name)
const value = (name) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

const pidFile = value('--pid-file')
if (pidFile) writeFileSync(pidFile, String(process.pid))

if (value('--exit-on-start') !== undefined) {
  process.stderr.write('test server: starting up\nfatal: the database at /nowhere/db.sqlite is missing\n')
  process.exit(Number(value('--exit-on-start')))
}
if (flag('--hang')) {
  process.stderr.write('test server: waiting forever\n')
  setInterval(() => undefined, 1 << 30)
} else {
  const server = new McpServer({ name: 'fanout-test-stdio', version: '1.0.0' })
  registerTestTools(server, value('--label') ?? 'stdio')
  if (flag('--resources')) registerTestResources(server, value('--label') ?? 'stdio')
  const transport = new StdioServerTransport()
  if (flag('--exit-after-call')) {
    const send = transport.send.bind(transport)
    transport.send = async (message, options) => {
      await send(message, options)
      if (message && 'result' in message && message.result && Array.isArray(message.result.content)) {
        process.stderr.write('test server: crashing after a call\n')
        setTimeout(() => process.exit(7), 10)
      }
    }
  }
  await server.connect(transport)
}
