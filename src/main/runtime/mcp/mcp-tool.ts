// An MCP server's tool as one of our Tools, named `mcp__<server>__<tool>`, with the server's own JSON schema
// sent to the model. Input is checked against the top level of that schema (an object, its required fields,
// the JSON types and enums of its properties) so the model gets a precise error without a round trip; deeper
// rules are the server's to enforce, and its refusal comes back as a clear error too. A tool is read-only (and
// so may run alongside others) only when the server says so with `readOnlyHint`; that claim never grants a
// permission: the tool is asked for unless a rule allows it, and refused in plan mode (permissions/tool-call.ts).
import type { Tool, ToolResult } from '../tools/define-tool'
import type { McpConnection, McpToolInfo } from './connect'
import { mcpToolName } from './server-config'
import { mcpResultToToolResult } from './tool-result'
import { errorMessage } from '../../../shared/error-message'

/** Claude Code cuts MCP tool descriptions here: some servers ship whole manuals. */
const MAX_DESCRIPTION_CHARS = 2048
export const MCP_MAX_OUTPUT_CHARS = 100_000
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 10 * 60_000

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: unknown; enum?: unknown[] }

function jsonType(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v
}

function typeMatches(expected: string, actual: string): boolean {
  return expected === actual || (expected === 'number' && actual === 'integer')
}

/** Problems with `input` against the schema's top level, one line each; empty when it passes. */
export function checkInput(schema: JsonSchema, input: unknown): string[] {
  if (jsonType(input) !== 'object') return [`(input): expected an object, got ${jsonType(input)}`]
  const obj = input as Record<string, unknown>
  const problems: string[] = []
  for (const key of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof key === 'string' && obj[key] === undefined) problems.push(`${key}: required`)
  }
  for (const [key, value] of Object.entries(obj)) {
    const prop = schema.properties?.[key]
    if (!prop || value === undefined) continue
    const types = prop.type === undefined ? [] : Array.isArray(prop.type) ? prop.type : [prop.type]
    const actual = jsonType(value)
    if (types.length && !types.some((t) => typeMatches(t, actual))) problems.push(`${key}: expected ${types.join(' or ')}, got ${actual}`)
    else if (Array.isArray(prop.enum) && !prop.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
      problems.push(`${key}: expected one of ${prop.enum.map((e) => JSON.stringify(e)).join(', ')}`)
  }
  return problems
}

export interface McpToolOptions {
  callTimeoutMs?: number
}

export function createMcpTool(conn: McpConnection, info: McpToolInfo, opts: McpToolOptions = {}): Tool {
  const name = mcpToolName(conn.name, info.name)
  const schema = { ...(info.inputSchema as Record<string, unknown>), type: 'object' } as Record<string, unknown>
  const readOnly = info.annotations?.readOnlyHint === true
  const label = `${info.name} (MCP server "${conn.name}")`
  const description = (info.description?.trim() || `The ${info.name} tool of MCP server ${conn.name}.`).slice(0, MAX_DESCRIPTION_CHARS)

  const parse = (raw: unknown): { ok: true; input: unknown } | { ok: false; error: string } => {
    const input = raw ?? {}
    const problems = checkInput(schema as JsonSchema, input)
    if (!problems.length) return { ok: true, input }
    return { ok: false, error: `Invalid input for ${name}:\n${problems.map((p) => `- ${p}`).join('\n')}\nFix the input and call ${name} again.` }
  }

  const fail = (content: string): ToolResult => ({ content, isError: true, details: { server: conn.name, tool: info.name } })

  return {
    name,
    description,
    inputJsonSchema: schema,
    readOnly,
    concurrencySafe: readOnly,
    maxOutputChars: MCP_MAX_OUTPUT_CHARS,
    parse,
    async execute(input, ctx) {
      const lost = conn.lostReason()
      if (lost) return fail(`${name} cannot run: ${lost}`)
      try {
        const result = await conn.client.callTool({ name: info.name, arguments: input as Record<string, unknown> }, undefined, {
          signal: ctx.signal,
          timeout: opts.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS,
          resetTimeoutOnProgress: true
        })
        return mcpResultToToolResult(conn.name, info.name, result)
      } catch (err) {
        if (ctx.signal.aborted) throw err // the runner says it was interrupted
        const gone = conn.lostReason()
        if (gone) return fail(`${name} failed: ${gone}`)
        // Loaded here: the SDK is already in memory once a server is connected.
        const { ErrorCode, McpError } = await import('@modelcontextprotocol/sdk/types.js')
        if (err instanceof McpError) {
          if (err.code === ErrorCode.InvalidParams) return fail(`${label} rejected the input: ${err.message}. Fix the input and call ${name} again.`)
          if (err.code === ErrorCode.MethodNotFound) return fail(`${label} does not offer this tool any more: ${err.message}.`)
          if (err.code === ErrorCode.RequestTimeout)
            return fail(`${label} did not answer within ${Math.round((opts.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS) / 1000)} s.`)
        }
        return fail(`${label} failed: ${errorMessage(err)}`)
      }
    }
  }
}
