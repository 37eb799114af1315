// A definition's `mcpServers`, read the way Claude Code writes it: a list whose items are a configured
// server's name (`- github`) or an inline server (`- myserver: {command: ..., args: [...]}`), or a mapping of
// names to inline servers. Inline servers belong to one agent run (connected when it starts, closed when it
// ends); named ones are the session's, shared with every agent.
import { parseServerConfig, type McpTransportConfig } from './server-config'

export type AgentServerRef = { kind: 'named'; name: string } | { kind: 'inline'; name: string; config: McpTransportConfig } | { kind: 'invalid'; error: string }

export function readAgentServers(value: unknown, where: string, env: Record<string, string | undefined>): AgentServerRef[] {
  if (value === undefined || value === null) return []
  const inline = (name: string, raw: unknown): AgentServerRef => {
    const parsed = parseServerConfig(name, raw, where, env)
    return 'config' in parsed ? { kind: 'inline', name, config: parsed.config } : { kind: 'invalid', error: parsed.error }
  }
  if (Array.isArray(value)) {
    return value.flatMap((item): AgentServerRef[] => {
      if (typeof item === 'string') return item.trim() ? [{ kind: 'named', name: item.trim() }] : []
      if (item && typeof item === 'object' && !Array.isArray(item))
        return Object.entries(item as Record<string, unknown>).map(([name, raw]) => inline(name, raw))
      return [{ kind: 'invalid', error: `${where}: each mcpServers item must be a server name or {name: configuration}; ${JSON.stringify(item)} is ignored` }]
    })
  }
  if (typeof value === 'object') return Object.entries(value as Record<string, unknown>).map(([name, raw]) => inline(name, raw))
  return [{ kind: 'invalid', error: `${where}: mcpServers must be a list of server names or configurations` }]
}
