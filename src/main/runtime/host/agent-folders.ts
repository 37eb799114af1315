// The agent files and MCP servers of the folders the host works in: the agent editor and its folder watch
// (live sessions re-read their agents when files change), `agents.list`, `mcp.list`, and the MCP tool
// names the editor offers.
import { agentStats, historyKey, historyRuns, type AgentStats } from '../../../shared/budget'
import { readAgentHistory } from '../store/agent-history'
import { resolve } from 'node:path'
import { AgentEditorService } from '../agent-editor'
import { loadAgents } from '../definitions'
import type { AgentSessionOptions } from '../orchestration'
import type { HostListeners } from './host-listeners'
import type { LiveSessions } from './live-sessions'
import { listMcpServers } from './mcp-view'
import type { SessionFactory } from './session-factory'
import { errorMessage } from '../../../shared/error-message'

export interface AgentFoldersOptions {
  live: LiveSessions
  listeners: HostListeners
  factory: SessionFactory
  home: string
  env: Record<string, string | undefined>
  dataDir: string
  agentSources?: AgentSessionOptions['agentSources']
}

export class AgentFolders {
  /** The agent editor behind the `agents.*` calls. */
  readonly editor: AgentEditorService
  /** MCP tools per folder, from the last `mcp.list` (servers are only started by sessions or that call). */
  private readonly mcpToolsSeen = new Map<string, string[]>()

  constructor(private readonly o: AgentFoldersOptions) {
    this.editor = new AgentEditorService({
      home: o.home,
      ...(o.agentSources ? { sources: o.agentSources } : {}),
      onAgentsChanged: (folders) => this.agentsChanged(folders),
      mcpTools: (cwd) => this.mcpToolNames(cwd)
    })
  }

  /** Watches the agent files of the workspace and of every live session's folder. */
  watch(workspace: string): void {
    this.editor.watch([workspace, ...this.o.live.all().map((l) => l.session.cwd)])
  }

  listAgents = async ({ cwd }: { cwd: string }) => {
    const loaded = await loadAgents({ cwd: resolve(cwd), home: this.o.home })
    return { agents: loaded.agents, errors: loaded.diagnostics.filter((d) => d.severity === 'error') }
  }

  /** An agent definition's runs as the history records them; a file's own runs when the file is given. */
  history = async ({ agentType, file }: { agentType: string; file?: string }): Promise<{ stats: AgentStats | null }> => {
    const runs = historyRuns(await readAgentHistory(this.o.dataDir)).get(historyKey({ agentType, ...(file ? { file: resolve(file) } : {}) }))
    return { stats: runs?.length ? agentStats(runs) : null }
  }

  listMcpServers = async ({ cwd }: { cwd: string }) => {
    const config = await this.o.factory.config()
    const live = this.o.live.realIn(cwd)
    const listed = await listMcpServers({
      cwd,
      home: this.o.home,
      env: this.o.env,
      dataDir: this.o.dataDir,
      ...(config.settings.mcpServers ? { fanoutServers: config.settings.mcpServers } : {}),
      ...(live ? { live: live.session } : {})
    })
    // The agent editor's tools picker and effective tools use what this found.
    this.mcpToolsSeen.set(
      resolve(cwd),
      listed.servers.flatMap((s) => s.tools.map((t) => t.name))
    )
    return listed
  }

  close(): void {
    this.editor.close()
  }

  /** Agent files changed: live sessions re-read their agents (the next spawn uses the new definitions). */
  private agentsChanged(folders: string[]): void {
    // Notify once the sessions have re-read: whoever hears the notice and starts an agent gets the new files.
    const reloads = this.o.live
      .all()
      .map((live) => live.session.reload().catch((err) => console.error(`fanout: reloading agents failed: ${errorMessage(err)}`)))
    void Promise.all(reloads).then(() => this.o.listeners.notify({ type: 'agents_changed', folders }))
  }

  /** Connected MCP tools of a session in this folder, else what `mcp.list` last found there. */
  private mcpToolNames(cwd: string): string[] {
    const live = this.o.live.realIn(cwd)
    const connected = live ? live.session.extensions.mcp.status().flatMap((s) => (s.status === 'connected' ? s.tools.map((t) => t.name) : [])) : []
    return [...new Set([...connected, ...(this.mcpToolsSeen.get(cwd) ?? [])])]
  }
}
