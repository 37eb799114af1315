// What a session adds around its agents' tools: MCP servers (mcp/) and hooks (hooks/). The session keeps one
// of these and calls it at four points: reload (read the configuration), prepareRun (connect the servers a run
// needs), tools (add MCP tools) and afterToolCall (PostToolUse, step 8 of the tool-call pipeline; PreToolUse is
// step 2, put together in session-permissions.ts). Problems are error events on the agent concerned, never throws.
import type { AgentDefinition } from '../../../../shared/agent-definition'
import type { AgentEvent } from '../../../../shared/events'
import { hooksFromSettings, HookRunner, readSettingsFiles, type SettingsFile } from '../../hooks'
import { notifyHooks } from '../../hooks/notifications'
import { protectHookScripts } from '../../security/protected-paths'
import { postToolHooks, type AfterToolCall } from '../../tool-call'
import { loadMcpConfig, type McpConfig } from '../../mcp/load-config'
import { loadPlugins } from '../../plugins'
import { SessionMcp, type AgentMcpTools } from '../../mcp/session-mcp'
import { transcriptPath } from '../../store'
import type { Tool } from '../../tools/define-tool'
import type { AgentHandle, AgentRegistry } from '../runs/agent-registry'

export interface ExtensionsOptions {
  sessionId: string
  cwd: string
  home: string
  mainAgentId: string
  dataDir: string | undefined
  registry: AgentRegistry
  emit: (event: AgentEvent) => void
  /** Servers from Fanout's own settings. */
  mcpServers?: Record<string, unknown>
  mcpStartTimeoutMs?: number
  /** Only `mcpServers`: no .mcp.json or ~/.claude.json servers (Claude Code's `--strict-mcp-config`). */
  strictMcp?: boolean
  managedSettingsFile?: string | null
  /** --settings: read with the settings files, at its level (hooks, disabled servers). */
  flagSettings?: { file: string; json: Record<string, unknown> }
  env?: Record<string, string | undefined>
  /** Counts background work (Notification hooks) towards the session's idle(). */
  track?: (work: Promise<unknown>) => void
  /** Credential-looking variables the user's settings pass to hooks and MCP servers anyway. */
  passEnv?: readonly string[]
  /** `--plugin-dir` folders (plugins enabled in settings are found from the settings files). */
  pluginDirs?: readonly string[]
}

/** What the extensions read from disk, before and after the folder's approvals are applied. */
export interface ExtensionsConfig {
  settingsFiles: SettingsFile[]
  mcp: McpConfig
  problems: string[]
}

export class SessionExtensions {
  readonly mcp: SessionMcp
  readonly hooks: HookRunner
  /** The Claude Code settings files as last read (effort and thinking settings come from them too). */
  settingsFiles: SettingsFile[] = []
  /** Tool results in Claude Code's shape, kept for a stream-json writer that asked for them (see keepToolResponses). */
  private responses: Map<string, Record<string, unknown>> | null = null
  private readonly own = new Map<string, AgentMcpTools>()

  constructor(private readonly opts: ExtensionsOptions) {
    this.mcp = new SessionMcp({
      cwd: opts.cwd,
      ...(opts.env ? { env: opts.env } : {}),
      ...(opts.passEnv ? { passEnv: opts.passEnv } : {}),
      ...(opts.mcpStartTimeoutMs ? { startTimeoutMs: opts.mcpStartTimeoutMs } : {}),
      report: this.report
    })
    this.hooks = new HookRunner({
      sessionId: opts.sessionId,
      projectDir: opts.cwd,
      mainAgentId: opts.mainAgentId,
      report: this.report,
      ...(opts.dataDir ? { transcriptPath: (agentId: string) => transcriptPath(opts.dataDir as string, opts.sessionId, agentId) } : {}),
      ...(opts.env ? { env: opts.env } : {}),
      ...(opts.passEnv ? { passEnv: opts.passEnv } : {}),
      backgroundTasks: () =>
        opts.registry
          .all()
          .filter((h) => h.background && h.run)
          .map((h) => ({ id: h.id, type: 'subagent' as const, status: 'running', description: h.description ?? h.agentType, agent_type: h.agentType }))
    })
  }

  /** Every session event: Notification hooks for approvals that wait and subagents that end. */
  onEvent(event: AgentEvent): void {
    notifyHooks(this.hooks, event, this.opts.mainAgentId, (id) => this.opts.registry.get(id), this.opts.track ?? (() => undefined))
  }

  /** An error event on the agent (it keeps running). */
  readonly report = (agentId: string, message: string): void => {
    const h = this.opts.registry.get(agentId)
    this.opts.emit({
      agentId,
      parentAgentId: h?.parentId ?? null,
      parentToolUseId: h?.parentToolUseId ?? null,
      sessionId: this.opts.sessionId,
      ts: Date.now(),
      type: 'error',
      message,
      retrying: false
    })
  }

  /** Reads `.mcp.json`, `~/.claude.json`, the settings files (hooks, disabled servers) and enabled plugins, as they are on disk. */
  read(): ExtensionsConfig {
    const settings = readSettingsFiles({
      cwd: this.opts.cwd,
      home: this.opts.home,
      ...(this.opts.managedSettingsFile !== undefined ? { managedFile: this.opts.managedSettingsFile } : {}),
      ...(this.opts.flagSettings ? { flag: this.opts.flagSettings } : {})
    })
    this.settingsFiles = settings.files
    // Plugins' hooks come as settings files of their level, their servers as entries: gated with the folder's own.
    const plugins = loadPlugins({
      cwd: this.opts.cwd,
      home: this.opts.home,
      settingsFiles: settings.files,
      ...(this.opts.pluginDirs ? { pluginDirs: this.opts.pluginDirs } : {})
    })
    const mcp = loadMcpConfig({
      cwd: this.opts.cwd,
      home: this.opts.home,
      settingsFiles: settings.files,
      pluginServers: plugins.servers,
      ...(this.opts.mcpServers ? { fanoutServers: this.opts.mcpServers } : {}),
      ...(this.opts.strictMcp ? { strict: true } : {}),
      ...(this.opts.env ? { env: this.opts.env } : {})
    })
    return { settingsFiles: [...settings.files, ...plugins.hookFiles], mcp, problems: [...settings.problems, ...plugins.problems, ...mcp.problems] }
  }

  /**
   * Applies configuration (what the folder brings already gated by its approvals, see trust/gate.ts); `notes`
   * are said once, on the next agent that runs (what waits for approval, and why).
   */
  configure(config: ExtensionsConfig, notes: { waiting: string | null; withheld: ReadonlyMap<string, string> }): void {
    this.mcp.configure(config.mcp)
    const hooks = hooksFromSettings(config.settingsFiles)
    this.hooks.configure(hooks.table, [...config.problems, ...hooks.problems])
    // A hook's script runs as the user: no agent may rewrite it without asking (security/protected-paths.ts).
    const commands = Object.values(hooks.table).flatMap((matchers) => matchers.flatMap((m) => m.hooks.map((h) => h.command)))
    protectHookScripts(this, commands, this.opts.cwd, this.opts.home)
    this.waitingNote = notes.waiting
    this.withheldNotes = new Map(notes.withheld)
  }

  private waitingNote: string | null = null
  private withheldNotes = new Map<string, string>()

  /** Connects the session's servers (once) and the definition's own (for this run); the result closes the latter. */
  async prepareRun(handle: AgentHandle, def: AgentDefinition | null): Promise<() => Promise<void>> {
    this.hooks.reportProblems(handle.id)
    if (this.waitingNote) {
      this.report(handle.id, this.waitingNote)
      this.waitingNote = null
    }
    const withheld = def && this.withheldNotes.get(def.agentType)
    if (withheld) {
      this.report(handle.id, withheld)
      this.withheldNotes.delete(def.agentType)
    }
    await this.mcp.ready(handle.id)
    // Every run closes what it opened (run-agent-once.ts, in a finally), and one agent never runs twice at once.
    const own = await this.mcp.openForAgent({ id: handle.id, agentType: def?.agentType ?? handle.agentType, definition: def })
    this.own.set(handle.id, own)
    return async () => {
      if (this.own.get(handle.id) === own) this.own.delete(handle.id)
      await own.close()
    }
  }

  /** Tool names of the session's connected servers (for tool resolution). */
  toolNames(): string[] {
    return this.mcp.toolNames()
  }

  /** The agent's tools plus its MCP tools (the session's it was given, and its own). */
  tools(handle: AgentHandle, built: Tool[], wanted: ReadonlySet<string>): Tool[] {
    const names = new Set(built.map((t) => t.name))
    const add = (t: Tool) => !names.has(t.name) && names.add(t.name)
    const mcp = [...this.mcp.sessionTools().filter((t) => wanted.has(t.name)), ...(this.own.get(handle.id)?.tools ?? [])].filter(add)
    return [...built, ...mcp]
  }

  /** Step 8 of the tool-call pipeline for one run of this agent: its PostToolUse hooks (and stream-json's kept responses). */
  afterToolCall(handle: AgentHandle): AfterToolCall {
    return postToolHooks(this.hooks, handle, (id, response) => this.keep(id, response))
  }

  /** From now on, keep each tool call's Claude Code-shaped result until takeToolResponse reads it (stream-json's tool_use_result). */
  keepToolResponses(): void {
    this.responses ??= new Map()
  }

  takeToolResponse(toolUseId: string): Record<string, unknown> | undefined {
    const r = this.responses?.get(toolUseId)
    this.responses?.delete(toolUseId)
    return r
  }

  private keep(toolUseId: string, response: Record<string, unknown>): void {
    const map = this.responses
    if (!map) return
    map.set(toolUseId, response)
    // Never read (a call whose message was not written): bounded all the same.
    if (map.size > 1000) map.delete(map.keys().next().value as string)
  }

  /** Closes every MCP server the session started. */
  async close(): Promise<void> {
    const own = [...this.own.values()]
    this.own.clear()
    await Promise.all([...own.map((o) => o.close()), this.mcp.close()])
  }
}
