// Connecting to one MCP server: start it (stdio) or reach it (streamable HTTP, or the older HTTP+SSE), run the MCP handshake, and list
// its tools, all within a start timeout. A server that cannot be used fails with a McpStartError whose message
// says which server and why: command not found, the exit code and the tail of its stderr, a timeout, an HTTP
// status or a refused connection.
import { resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { ErrorCode, McpError, type Tool as McpSdkTool } from '@modelcontextprotocol/sdk/types.js'
import { describeTransport, type McpTransportConfig } from './server-config'
import { McpStartError } from './errors'
import { OwnedStdioTransport } from './stdio-transport'

export const DEFAULT_MCP_START_TIMEOUT_MS = 30_000

export type McpToolInfo = Pick<McpSdkTool, 'name' | 'description' | 'inputSchema' | 'annotations' | 'title'>

export { McpStartError } from './errors'

export interface McpConnection {
  name: string
  config: McpTransportConfig
  client: Client
  tools: McpToolInfo[]
  /** Set once the server went away after connecting: why (exit code, stderr tail). */
  lostReason(): string | null
  close(): Promise<void>
}

export interface ConnectOptions {
  /** The project folder: a stdio server's working directory (its own `cwd` is resolved against it). */
  cwd: string
  timeoutMs?: number
  /** Credential-looking variables the user's settings pass to a stdio server anyway. */
  passEnv?: readonly string[]
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`

function tail(text: string, lines = 12): string {
  const kept = text.trimEnd().split('\n').slice(-lines).join('\n')
  return kept ? `\nLast lines of its stderr:\n${kept}` : ''
}

function connectionError(err: unknown): string {
  if (!(err instanceof Error)) return String(err)
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause
  if (cause?.code === 'ECONNREFUSED') return 'connection refused'
  if (cause?.code === 'ENOTFOUND') return 'host not found'
  return cause?.message && err.message === 'fetch failed' ? cause.message : err.message
}

/** Why a stdio server could not be used, from what its process did. */
function stdioFailure(
  name: string,
  config: Extract<McpTransportConfig, { type: 'stdio' }>,
  transport: OwnedStdioTransport,
  err: unknown,
  timeoutMs: number
): string {
  const start = transport.startError
  if (start?.code === 'ENOENT') return `MCP server "${name}" could not start: command not found: ${config.command}.`
  if (start?.code === 'EACCES') return `MCP server "${name}" could not start: ${config.command} is not executable (permission denied).`
  if (start) return `MCP server "${name}" could not start ${config.command}: ${start.message}.`
  const exit = transport.exit
  if (exit) {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`
    return `MCP server "${name}" (${describeTransport(config)}) ${how} before it was ready.${tail(transport.stderrTail)}`
  }
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
    return `MCP server "${name}" (${describeTransport(config)}) did not complete the MCP handshake within ${seconds(timeoutMs)}.${tail(transport.stderrTail)}`
  return `MCP server "${name}" (${describeTransport(config)}) failed to start: ${connectionError(err)}${tail(transport.stderrTail)}`
}

function httpFailure(name: string, config: Extract<McpTransportConfig, { type: 'http' | 'sse' }>, err: unknown, timeoutMs: number): string {
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
    return `MCP server "${name}" at ${config.url} did not answer within ${seconds(timeoutMs)}.`
  if (err instanceof StreamableHTTPError && typeof err.code === 'number' && err.code >= 400) {
    const body = err.message.replace(/^Streamable HTTP error: (Error POSTing to endpoint: )?/, '').trim()
    return `MCP server "${name}" at ${config.url} answered HTTP ${err.code}${body ? `: ${body.slice(0, 300)}` : ''}.`
  }
  if (err instanceof SseError && typeof err.code === 'number' && err.code >= 400) return `MCP server "${name}" at ${config.url} answered HTTP ${err.code}.`
  return `MCP server "${name}" at ${config.url} could not be reached: ${connectionError(err)}.`
}

async function listAllTools(client: Client, timeoutMs: number): Promise<McpToolInfo[]> {
  if (!client.getServerCapabilities()?.tools) return []
  const tools: McpToolInfo[] = []
  let cursor: string | undefined
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs })
    tools.push(...page.tools)
    cursor = page.nextCursor
  } while (cursor)
  return tools
}

function remoteTransport(config: Extract<McpTransportConfig, { type: 'http' | 'sse' }>): Transport {
  const url = new URL(config.url)
  if (config.type === 'http') return new StreamableHTTPClientTransport(url, { requestInit: { headers: config.headers } })
  // The SSE stream is a GET the SDK opens through eventsource: its headers go in eventSourceInit's fetch too.
  return new SSEClientTransport(url, {
    requestInit: { headers: config.headers },
    eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string>), ...config.headers } }) }
  })
}

export async function connectMcpServer(name: string, config: McpTransportConfig, opts: ConnectOptions): Promise<McpConnection> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS
  const stdio =
    config.type === 'stdio'
      ? new OwnedStdioTransport({
          command: config.command,
          args: config.args,
          env: config.env,
          cwd: config.cwd ? resolve(opts.cwd, config.cwd) : opts.cwd,
          ...(opts.passEnv ? { passEnv: opts.passEnv } : {})
        })
      : null
  const transport: Transport = stdio ?? remoteTransport(config as Extract<McpTransportConfig, { type: 'http' | 'sse' }>)
  const client = new Client({ name: 'fanout', version: '0.1.0' }, { capabilities: {} })
  // The SDK reports transport hiccups here; a failed start is reported by connect() itself.
  client.onerror = () => undefined
  let connected = false
  let lost: string | null = null
  client.onclose = () => {
    if (!connected) return
    const exit = stdio?.exit
    lost = stdio
      ? `MCP server "${name}" stopped running (${exit?.signal ? `killed by ${exit.signal}` : `exit code ${exit?.code ?? 'unknown'}`}).${tail(stdio.stderrTail)}`
      : `The connection to MCP server "${name}" at ${(config as { url: string }).url} was closed.`
  }
  let tools: McpToolInfo[]
  try {
    await client.connect(transport, { timeout: timeoutMs })
    tools = await listAllTools(client, timeoutMs)
  } catch (err) {
    // A process that is exiting reports it a moment after the failed request: give it that moment.
    if (stdio && !stdio.exit && !stdio.startError) await new Promise((r) => setTimeout(r, 50))
    const message = stdio
      ? stdioFailure(name, config as Extract<McpTransportConfig, { type: 'stdio' }>, stdio, err, timeoutMs)
      : httpFailure(name, config as Extract<McpTransportConfig, { type: 'http' | 'sse' }>, err, timeoutMs)
    await client.close().catch(() => undefined)
    await transport.close().catch(() => undefined)
    throw new McpStartError(message, name)
  }
  connected = true
  let closing: Promise<void> | null = null
  return {
    name,
    config,
    client,
    tools,
    lostReason: () => lost,
    close() {
      connected = false
      closing ??= client.close().catch(() => undefined)
      return closing
    }
  }
}
