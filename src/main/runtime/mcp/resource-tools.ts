// MCP resources as Claude Code offers them: two tools over every connected server that declares the resources
// capability, named and shaped as Claude Code 2.1.328 names and shapes them (its descriptions, its inputs
// `{server?}` and `{server, uri}`, its results: the resource list as JSON with a `server` field on each entry,
// the read's `{"contents": [...]}` as JSON, its sentences for an unknown server and an empty list). A binary
// content (`blob`) reaches the model as a note of its type and size: tool results here are text.
import type { Tool, ToolResult } from '../tools/define-tool'
import type { McpConnection } from './connect'
import { MCP_MAX_OUTPUT_CHARS } from './mcp-tool'
import { errorMessage } from '../../../shared/error-message'

export const LIST_RESOURCES_TOOL = 'ListMcpResourcesTool'
export const READ_RESOURCE_TOOL = 'ReadMcpResourceTool'
export const NO_RESOURCES = 'No resources found. MCP servers may still provide tools even if they have no resources.'

const LIST_DESCRIPTION = `
List available resources from configured MCP servers.
Each returned resource will include all standard MCP resource fields plus a 'server' field 
indicating which server the resource belongs to.
Parameters:
- server (optional): The name of a specific MCP server to get resources from. If not provided,
  resources from all servers will be returned.
`

const READ_DESCRIPTION = `
Reads a specific resource from an MCP server, identified by server name and resource URI.
Parameters:
- server (required): The name of the MCP server from which to read the resource
- uri (required): The URI of the resource to read
`

const offersResources = (c: McpConnection): boolean => !!c.client.getServerCapabilities()?.resources

const fail = (content: string): ToolResult => ({ content, isError: true })

function inputOf(raw: unknown): Record<string, unknown> {
  return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {}
}

/** Claude Code's sentence for a server name it does not know. */
const notFound = (name: string, all: McpConnection[]) => `Server "${name}" not found. Available servers: ${all.map((c) => c.name).join(', ')}`

function resourceTool(
  name: string,
  description: string,
  schema: Record<string, unknown>,
  check: (input: Record<string, unknown>) => string | null,
  run: (input: Record<string, unknown>, signal: AbortSignal) => Promise<ToolResult>
): Tool {
  return {
    name,
    description,
    inputJsonSchema: schema,
    readOnly: true,
    concurrencySafe: true,
    maxOutputChars: MCP_MAX_OUTPUT_CHARS,
    parse(raw) {
      const input = inputOf(raw)
      const problem = check(input)
      return problem ? { ok: false, error: `Invalid input for ${name}: ${problem}` } : { ok: true, input }
    },
    execute: (input, ctx) => run(input as Record<string, unknown>, ctx.signal)
  }
}

/**
 * The two resource tools over `connections` (read at each call: servers that connect later count). Empty when
 * no connected server offers resources, so agents of sessions without any never see them.
 */
export function createResourceTools(connections: () => McpConnection[]): Tool[] {
  if (!connections().some(offersResources)) return []
  const list = resourceTool(
    LIST_RESOURCES_TOOL,
    LIST_DESCRIPTION,
    { type: 'object', properties: { server: { type: 'string', description: 'Optional server name to filter resources by' } }, additionalProperties: false },
    (input) => (input.server !== undefined && typeof input.server !== 'string' ? 'server must be a string' : null),
    async (input, signal) => {
      const all = connections()
      const server = input.server as string | undefined
      const chosen = server === undefined ? all : all.filter((c) => c.name === server)
      if (server !== undefined && !chosen.length) return fail(notFound(server, all))
      const found = await Promise.all(
        chosen.filter(offersResources).map(async (c) => {
          try {
            const out: Array<Record<string, unknown>> = []
            let cursor: string | undefined
            do {
              const page = await c.client.listResources(cursor ? { cursor } : undefined, { signal })
              out.push(...page.resources.map((r) => ({ ...r, server: c.name })))
              cursor = page.nextCursor
            } while (cursor)
            return out
          } catch (err) {
            if (signal.aborted) throw err
            return [] // Claude Code too leaves a failing server out of the list
          }
        })
      )
      const resources = found.flat()
      return { content: resources.length ? JSON.stringify(resources) : NO_RESOURCES, details: { resources: resources.length } }
    }
  )
  const read = resourceTool(
    READ_RESOURCE_TOOL,
    READ_DESCRIPTION,
    {
      type: 'object',
      properties: { server: { type: 'string', description: 'The MCP server name' }, uri: { type: 'string', description: 'The resource URI to read' } },
      required: ['server', 'uri'],
      additionalProperties: false
    },
    (input) => (typeof input.server !== 'string' ? 'server: required (a string)' : typeof input.uri !== 'string' ? 'uri: required (a string)' : null),
    async (input, signal) => {
      const all = connections()
      const c = all.find((x) => x.name === input.server)
      if (!c) return fail(notFound(input.server as string, all))
      if (!offersResources(c)) return fail(`Server "${c.name}" does not support resources`)
      const lost = c.lostReason()
      if (lost) return fail(`Server "${c.name}" is not connected: ${lost}`)
      try {
        const result = await c.client.readResource({ uri: input.uri as string }, { signal })
        const contents = result.contents.map((item) => {
          if (typeof (item as { blob?: unknown }).blob !== 'string') return item
          const { blob, ...rest } = item as { blob: string } & Record<string, unknown>
          return { ...rest, text: `[binary ${String(rest.mimeType ?? 'data')}, ${Math.floor((blob.length * 3) / 4)} bytes, not shown]` }
        })
        return { content: JSON.stringify({ contents }), details: { server: c.name, uri: input.uri } }
      } catch (err) {
        if (signal.aborted) throw err
        return fail(`Error reading ${String(input.uri)} from MCP server "${c.name}": ${errorMessage(err)}`)
      }
    }
  )
  return [list, read]
}
