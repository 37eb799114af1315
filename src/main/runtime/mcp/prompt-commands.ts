// MCP prompts as slash commands, named as Claude Code names them: `/mcp__<server>__<prompt>` (the server's
// name with anything but letters, digits, `_` and `-` made `_`). The words after the command fill the prompt's
// arguments in order; a required one left out is refused with Claude Code's usage line. The prompt's messages
// become the text that goes to the model (the commands loader, runtime/commands/, lists these beside files).
import type { McpConnection } from './connect'
import { normalizeMcpName } from './server-config'

export interface McpPromptCommand {
  /** The command without its slash: `mcp__server__prompt`. */
  name: string
  description: string
  server: string
  prompt: string
  argNames: string[]
  /** The prompt's messages as text, from the words typed after the command. Throws a sentence for the person. */
  expand(args: string, signal?: AbortSignal): Promise<string>
}

interface PromptInfo {
  name: string
  description?: string
  arguments?: Array<{ name: string; required?: boolean }>
}

function messageText(content: unknown): string {
  const c = content as { type?: string; text?: string; resource?: { uri?: string; text?: string } }
  if (c?.type === 'text' && typeof c.text === 'string') return c.text
  if (c?.type === 'resource' && c.resource) return c.resource.text ?? `[resource ${c.resource.uri ?? ''}]`
  return `[${c?.type ?? 'content'} not shown]`
}

export function promptCommand(conn: McpConnection, info: PromptInfo): McpPromptCommand {
  const args = info.arguments ?? []
  const argNames = args.map((a) => a.name)
  const name = `mcp__${normalizeMcpName(conn.name)}__${info.name}`
  return {
    name,
    description: info.description ?? '',
    server: conn.name,
    prompt: info.name,
    argNames,
    async expand(text, signal) {
      const words = text.trim() ? text.trim().split(/\s+/) : []
      const missing = args.filter((a, i) => a.required && words[i] === undefined).map((a) => a.name)
      if (missing.length)
        throw new Error(`Missing required argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. Usage: /${name} ${argNames.join(' ')}`)
      const values = Object.fromEntries(argNames.flatMap((n, i) => (words[i] === undefined ? [] : [[n, words[i]]])))
      const lost = conn.lostReason()
      if (lost) throw new Error(`/${name} cannot run: ${lost}`)
      const result = await conn.client.getPrompt({ name: info.name, arguments: values }, signal ? { signal } : undefined)
      return result.messages.map((m) => messageText(m.content)).join('\n\n')
    }
  }
}

/** Every prompt of every connected server that offers prompts; a server that fails to list them offers none. */
export async function listPromptCommands(connections: readonly McpConnection[]): Promise<McpPromptCommand[]> {
  const lists = await Promise.all(
    connections.map(async (conn) => {
      if (!conn.client.getServerCapabilities()?.prompts) return []
      try {
        const out: McpPromptCommand[] = []
        let cursor: string | undefined
        do {
          const page = await conn.client.listPrompts(cursor ? { cursor } : undefined)
          out.push(...page.prompts.map((p) => promptCommand(conn, p)))
          cursor = page.nextCursor
        } while (cursor)
        return out
      } catch {
        return []
      }
    })
  )
  return lists.flat()
}
