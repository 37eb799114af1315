// One MCP server's configuration as Claude Code writes it (`.mcp.json`, `~/.claude.json`, a definition's
// inline `mcpServers` entry): `{ command, args, env }` for a local process over stdio, or
// `{ type: "http", url, headers }` for a streamable-HTTP server, `{ type: "sse", url, headers }` for the older
// HTTP+SSE transport. `${VAR}` and `${VAR:-default}` are expanded
// from the environment in the command, arguments, env values, URL and headers. A bad entry becomes an error
// sentence naming the server and the field, never a throw.
import { z } from 'zod'
import { lazy } from '../../../shared/lazy'
import { registerSecret } from '../../../shared/redact'
import { isSecretEnvEntry } from '../security/child-env'

export type McpTransportConfig =
  | { type: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { type: 'http' | 'sse'; url: string; headers: Record<string, string> }

const stringMap = lazy(() => z.record(z.string(), z.string(), { error: 'must be an object of string values' }))

// Built at first use: a run without MCP servers parses no entry.
const stdioSchema = lazy(() =>
  z.object({
    type: z.literal('stdio').optional(),
    command: z.string({ error: 'must be a command (a string)' }).trim().min(1, 'is empty'),
    args: z.array(z.string(), { error: 'must be a list of strings' }).optional(),
    env: stringMap().optional(),
    cwd: z.string().optional()
  })
)

const httpSchema = lazy(() =>
  z.object({
    type: z.enum(['http', 'sse', 'streamable-http', 'streamableHttp']).optional(),
    url: z.string({ error: 'must be a URL' }).trim().min(1, 'is empty'),
    headers: stringMap().optional()
  })
)

/** `${VAR}` / `${VAR:-default}`, as Claude Code expands them in MCP configs. */
export function expandEnv(text: string, env: Record<string, string | undefined>, missing: Set<string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_all, name: string, fallback: string | undefined) => {
    const value = env[name]
    if (value !== undefined && value !== '') return value
    if (fallback !== undefined) return fallback
    missing.add(name)
    return ''
  })
}

const issueText = (error: z.ZodError): string => error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'the entry'} ${i.message}`).join('; ')

/** Reads one server entry. `where` names its file (or the agent) for the error sentence. */
export function parseServerConfig(
  name: string,
  raw: unknown,
  where: string,
  env: Record<string, string | undefined>
): { config: McpTransportConfig } | { error: string } {
  const fail = (why: string) => ({ error: `MCP server "${name}" in ${where}: ${why}` })
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return fail('the entry must be an object like {"command": "...", "args": [...]} or {"type": "http", "url": "..."}')
  const entry = raw as Record<string, unknown>
  const type = entry.type
  if (type === 'ws' || type === 'sse-ide' || type === 'ws-ide' || type === 'sdk')
    return fail(`transport type "${String(type)}" is not supported by Fanout; use "stdio" (a command), "http" (streamable HTTP) or "sse"`)
  if (type !== undefined && typeof type !== 'string') return fail('"type" must be "stdio" or "http"')
  const missing = new Set<string>()
  const x = (s: string) => expandEnv(s, env, missing)
  const xMap = (m: Record<string, string> | undefined) => Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, x(v)]))
  let config: McpTransportConfig
  if (type === 'stdio' || (type === undefined && 'command' in entry)) {
    const parsed = stdioSchema().safeParse(entry)
    if (!parsed.success) return fail(issueText(parsed.error))
    config = {
      type: 'stdio',
      command: x(parsed.data.command),
      args: (parsed.data.args ?? []).map(x),
      env: xMap(parsed.data.env),
      ...(parsed.data.cwd ? { cwd: x(parsed.data.cwd) } : {})
    }
  } else if (type === 'sse' || type === 'http' || type === 'streamable-http' || type === 'streamableHttp' || (type === undefined && 'url' in entry)) {
    const parsed = httpSchema().safeParse(entry)
    if (!parsed.success) return fail(issueText(parsed.error))
    const url = x(parsed.data.url)
    try {
      if (!['http:', 'https:'].includes(new URL(url).protocol)) return fail(`url must be http:// or https://, not ${url}`)
    } catch {
      if (!missing.size) return fail(`url ${JSON.stringify(url)} is not a valid URL`)
    }
    config = { type: type === 'sse' ? 'sse' : 'http', url, headers: xMap(parsed.data.headers) }
  } else if (typeof type === 'string') {
    return fail(`unknown transport type "${type}"; use "stdio" (a command), "http" (streamable HTTP) or "sse"`)
  } else {
    return fail('the entry has neither "command" (a local server) nor "url" (an HTTP server)')
  }
  if (missing.size) return fail(`missing environment variable${missing.size > 1 ? 's' : ''} ${[...missing].join(', ')} (used as \${...} without a default)`)
  registerServerSecrets(config)
  return { config }
}

const CREDENTIAL_HEADER = /^(?:authorization|proxy-authorization|x-api-key|api-key|cookie|.*token.*|.*secret.*|.*-key)$/i

/** A server's credentials (its auth headers, its credential-named environment values) are never shown anywhere. */
function registerServerSecrets(config: McpTransportConfig): void {
  if (config.type !== 'stdio') {
    for (const [name, value] of Object.entries(config.headers))
      if (CREDENTIAL_HEADER.test(name)) registerSecret(value.replace(/^(?:bearer|basic|token)\s+/i, ''))
  } else for (const [name, value] of Object.entries(config.env)) if (isSecretEnvEntry(name, value)) registerSecret(value)
}

/** What the API accepts in a tool name: Claude Code replaces anything else with `_`. */
export function normalizeMcpName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_')
}

/** `mcp__<server>__<tool>`, cut to the 64 characters the Messages API allows. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeMcpName(server)}__${normalizeMcpName(tool)}`.slice(0, 64)
}

/** A one-line description of where the server runs, for lists and errors. */
export function describeTransport(config: McpTransportConfig): string {
  return config.type === 'stdio' ? [config.command, ...config.args].join(' ') : config.url
}
