// A session's MCP servers. The configured servers (see load-config) are connected once, when the first agent
// needs its tools, and closed with the session; their tools are every agent's, subject to its `tools` and
// `disallowedTools`. A definition's own `mcpServers` are connected for each run of that agent and closed when
// the run ends; their tools are added to the agent's set as Claude Code does (only `disallowedTools` removes
// them). A server that fails is reported as an error event on the agent that needed it, naming the server
// and the reason; the agent keeps every other tool.
import { isMcpToolName, mcpServerWildcard, parseToolSpec } from '../definitions/tool-list'
import type { Tool } from '../tools/define-tool'
import { readAgentServers } from './agent-servers'
import type { McpConnection } from './connect'
import { McpStartError } from './errors'
import type { McpConfig, McpScope, McpServerEntry } from './load-config'
import { createMcpTool } from './mcp-tool'
import { listPromptCommands, type McpPromptCommand } from './prompt-commands'
import { createResourceTools } from './resource-tools'
import { describeTransport, mcpToolName, normalizeMcpName, type McpTransportConfig } from './server-config'
import { errorMessage } from '../../../shared/error-message'

// The MCP SDK costs tens of milliseconds to load; sessions without servers never pay for it.
const loadConnect = async () => (await import('./connect')).connectMcpServer

/** `untrusted`: a project server waiting for the person's approval of the folder; never started. */
export type McpServerState = 'connected' | 'failed' | 'disabled' | 'pending' | 'untrusted'

export interface McpServerStatus {
  name: string
  scope: McpScope
  transport: 'stdio' | 'http' | null
  /** The command line or URL. */
  target: string
  status: McpServerState
  error?: string
  file?: string
  /** `name` is what agents call (mcp__server__tool); `tool` is the server's own name for it. */
  tools: Array<{ name: string; tool: string; description: string; readOnly: boolean }>
}

export interface SessionMcpOptions {
  cwd: string
  env?: Record<string, string | undefined>
  /** Credential-looking variables the user's settings pass to stdio servers anyway. */
  passEnv?: readonly string[]
  startTimeoutMs?: number
  callTimeoutMs?: number
  /** An error event for the agent that needed a server that failed. */
  report: (agentId: string, message: string) => void
}

/** What an agent run needs from its definition for MCP. */
export interface McpAgent {
  id: string
  agentType: string
  definition: { mcpServers?: unknown; tools?: string[]; disallowedTools?: string[]; file?: string } | null
}

/** The MCP tools of one agent run, and how to release them when the run ends. */
export interface AgentMcpTools {
  tools: Tool[]
  close(): Promise<void>
}

interface Live {
  entry: McpServerEntry
  attempt: Promise<void>
  connection?: McpConnection
  tools: Tool[]
  error?: string
}

const NOTHING: AgentMcpTools = { tools: [], close: async () => undefined }

export class SessionMcp {
  private entries: McpServerEntry[] = []
  private readonly live = new Map<string, Live>()
  private closed = false

  constructor(private readonly opts: SessionMcpOptions) {}

  /**
   * The configured servers (from reload). Servers already connected keep running until the session closes,
   * except one the person no longer approves: it is stopped, and its tools go with it.
   */
  configure(config: McpConfig): void {
    this.entries = config.servers
    for (const entry of config.servers) {
      const live = this.live.get(entry.name)
      if (!entry.untrusted || !live) continue
      this.live.delete(entry.name)
      void live.attempt.then(() => live.connection?.close())
    }
  }

  get servers(): readonly McpServerEntry[] {
    return this.entries
  }

  /** Connects every enabled configured server not tried yet; resolves when each has connected or failed. */
  async ready(agentId?: string): Promise<void> {
    if (this.closed) return
    await Promise.all(this.entries.filter((e) => !e.disabled && !e.untrusted).map((e) => this.start(e, agentId).attempt))
  }

  private start(entry: McpServerEntry, agentId: string | undefined): Live {
    const existing = this.live.get(entry.name)
    if (existing) return existing
    const live: Live = { entry, tools: [], attempt: Promise.resolve() }
    this.live.set(entry.name, live)
    live.attempt = (async () => {
      if (entry.untrusted) {
        // ready() and openForAgent() never get here with one; this is the last line, not the only one.
        live.error = `MCP server "${entry.name}" waits for your approval of this folder, so it was not started.`
      } else if (!entry.config) {
        live.error = entry.error ?? `MCP server "${entry.name}" has no usable configuration.`
      } else {
        try {
          live.connection = await (await loadConnect())(entry.name, entry.config, {
            cwd: this.opts.cwd,
            ...(this.opts.passEnv ? { passEnv: this.opts.passEnv } : {}),
            ...(this.opts.startTimeoutMs ? { timeoutMs: this.opts.startTimeoutMs } : {})
          })
          if (this.closed) {
            await live.connection.close()
            return
          }
          live.tools = this.toolsOf(live.connection)
        } catch (err) {
          live.error = err instanceof McpStartError ? err.message : `MCP server "${entry.name}" failed to start: ${errorMessage(err)}`
        }
      }
      if (live.error && agentId) this.opts.report(agentId, `${live.error} Its tools are not available; the other tools work as usual.`)
    })()
    return live
  }

  private toolsOf(connection: McpConnection): Tool[] {
    return connection.tools.map((t) => createMcpTool(connection, t, this.opts.callTimeoutMs ? { callTimeoutMs: this.opts.callTimeoutMs } : {}))
  }

  /** Tool names of the connected configured servers (for tool resolution). */
  toolNames(): string[] {
    return this.sessionTools().map((t) => t.name)
  }

  /** Tools of the connected configured servers, and the resource tools when one of them offers resources. */
  sessionTools(): Tool[] {
    return [...[...this.live.values()].flatMap((l) => (l.connection ? l.tools : [])), ...createResourceTools(() => this.connections())]
  }

  /** The configured servers connected now, in configuration order. */
  connections(): McpConnection[] {
    return this.entries.flatMap((e) => {
      const c = this.live.get(e.name)?.connection
      return c && !c.lostReason() ? [c] : []
    })
  }

  /** The prompts of the connected servers as slash commands (`/mcp__server__prompt`), for the commands loader. */
  async promptCommands(): Promise<McpPromptCommand[]> {
    await this.ready()
    return listPromptCommands(this.connections())
  }

  /**
   * Connects the agent's own servers for one run and returns their tools (minus `disallowedTools`). Also says,
   * on this agent, when its `tools` list names a configured server that failed: its other tools still work.
   */
  async openForAgent(agent: McpAgent): Promise<AgentMcpTools> {
    const def = agent.definition
    if (!def || this.closed) return NOTHING
    const where = def.file ?? `the definition of ${agent.agentType}`
    for (const spec of def.tools ?? []) {
      const prefix = mcpServerWildcard(parseToolSpec(spec).toolName) ?? (isMcpToolName(spec) ? spec : undefined)
      const failed = prefix && [...this.live.values()].find((l) => l.error && prefix.startsWith(`mcp__${normalizeMcpName(l.entry.name)}__`))
      if (failed) this.opts.report(agent.id, `Agent ${agent.agentType} lists ${spec} in its tools, but ${failed.error} Its other tools work as usual.`)
    }
    const refs = readAgentServers(def.mcpServers, where, this.opts.env ?? process.env)
    if (!refs.length) return NOTHING
    const owned: McpConnection[] = []
    const tools: Tool[] = []
    await Promise.all(
      refs.map(async (ref) => {
        if (ref.kind === 'invalid') return this.opts.report(agent.id, `${ref.error}. The agent runs without it.`)
        if (ref.kind === 'named') {
          const entry = this.entries.find((e) => e.name === ref.name)
          if (!entry)
            return this.opts.report(
              agent.id,
              `Agent ${agent.agentType} uses MCP server "${ref.name}", which is not configured (in .mcp.json, ~/.claude.json or Fanout settings). The agent runs without it.`
            )
          if (entry.disabled)
            return this.opts.report(
              agent.id,
              `Agent ${agent.agentType} uses MCP server "${ref.name}", which is disabled in settings. The agent runs without it.`
            )
          if (entry.untrusted)
            return this.opts.report(
              agent.id,
              `Agent ${agent.agentType} uses MCP server "${ref.name}" from ${entry.file ?? '.mcp.json'}, which waits for your approval of this folder. The agent runs without it.`
            )
          const tried = this.live.has(entry.name)
          const live = this.start(entry, agent.id)
          await live.attempt
          // A failure found before this agent asked was reported to whoever asked first: tell this agent too.
          if (live.error && tried)
            this.opts.report(agent.id, `Agent ${agent.agentType} uses MCP server "${ref.name}", but ${live.error} The agent runs without it.`)
          tools.push(...live.tools)
          return
        }
        try {
          const conn = await (await loadConnect())(ref.name, ref.config, {
            cwd: this.opts.cwd,
            ...(this.opts.passEnv ? { passEnv: this.opts.passEnv } : {}),
            ...(this.opts.startTimeoutMs ? { timeoutMs: this.opts.startTimeoutMs } : {})
          })
          owned.push(conn)
          tools.push(...this.toolsOf(conn))
        } catch (err) {
          const why = err instanceof McpStartError ? err.message : `MCP server "${ref.name}" failed to start: ${errorMessage(err)}`
          this.opts.report(agent.id, `${why} Agent ${agent.agentType} declares this server; its tools are not available, the other tools work as usual.`)
        }
      })
    )
    const denied = (name: string) =>
      (def.disallowedTools ?? []).some((spec) => {
        const t = parseToolSpec(spec).toolName
        const prefix = mcpServerWildcard(t)
        return prefix ? name.startsWith(prefix) : t === name
      })
    const seen = new Set<string>()
    const kept = tools.filter((t) => !denied(t.name) && !seen.has(t.name) && seen.add(t.name))
    return {
      tools: kept,
      close: async () => {
        await Promise.all(owned.map((c) => c.close()))
      }
    }
  }

  /** Every configured server with its state and tools (for the UI's list). */
  status(): McpServerStatus[] {
    return this.entries.map((entry) => {
      const live = this.live.get(entry.name)
      // The contract knows stdio and http; the older HTTP+SSE is shown as http (its URL says the rest).
      const transport = entry.config ? (entry.config.type === 'stdio' ? 'stdio' : 'http') : null
      const base = {
        name: entry.name,
        scope: entry.scope,
        transport: transport ?? rawTransport(entry.raw),
        target: entry.config ? describeTransport(entry.config as McpTransportConfig) : rawTarget(entry.raw),
        ...(entry.file ? { file: entry.file } : {})
      }
      if (entry.disabled) return { ...base, status: 'disabled' as const, tools: [] }
      // Never started: its command is shown, nothing more is known until the person approves it.
      if (entry.untrusted) return { ...base, status: 'untrusted' as const, tools: [] }
      if (!live || (!live.connection && !live.error))
        return { ...base, status: entry.error ? ('failed' as const) : ('pending' as const), ...(entry.error ? { error: entry.error } : {}), tools: [] }
      if (live.error) return { ...base, status: 'failed' as const, error: live.error, tools: [] }
      const lost = live.connection?.lostReason()
      const tools = (live.connection?.tools ?? []).map((t) => ({
        name: mcpToolName(entry.name, t.name),
        tool: t.name,
        description: t.description ?? '',
        readOnly: t.annotations?.readOnlyHint === true
      }))
      return lost ? { ...base, status: 'failed' as const, error: lost, tools } : { ...base, status: 'connected' as const, tools }
    })
  }

  /** Closes every server this session started. */
  async close(): Promise<void> {
    this.closed = true
    const lives = [...this.live.values()]
    await Promise.all(
      lives.map(async (l) => {
        await l.attempt.catch(() => undefined)
        await l.connection?.close()
      })
    )
  }
}

const rawEntry = (raw: unknown): Record<string, unknown> => (raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {})

/** For an entry that did not parse (a missing variable): its transport as written. */
function rawTransport(raw: unknown): 'stdio' | 'http' | null {
  const e = rawEntry(raw)
  return typeof e.command === 'string' ? 'stdio' : typeof e.url === 'string' ? 'http' : null
}

/** For an entry that did not parse: its command line or URL as written. */
function rawTarget(raw: unknown): string {
  const e = rawEntry(raw)
  if (typeof e.command === 'string') return [e.command, ...(Array.isArray(e.args) ? e.args.filter((a): a is string => typeof a === 'string') : [])].join(' ')
  return typeof e.url === 'string' ? e.url : ''
}
