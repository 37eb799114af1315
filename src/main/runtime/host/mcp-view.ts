// The `mcp.list` call: the MCP servers a folder's sessions use, each with its state and tools. A session
// running in that folder answers with its own servers (connected once, shared by its agents); otherwise the
// servers are started just to ask them for their tools, then closed — except a project server the person
// has not approved for the folder: it is never started, only listed as waiting (`untrusted`).
import { resolve } from 'node:path'
import type { CallResponse } from '../../../shared/ipc-contract'
import { readSettingsFiles } from '../hooks'
import { loadMcpConfig } from '../mcp/load-config'
import { SessionMcp } from '../mcp/session-mcp'
import type { AgentSession } from '../orchestration'
import { approvedIn, gateMcpConfig, trustFor } from '../trust'

export interface McpListOptions {
  cwd: string
  home: string
  /** Servers from Fanout's settings. */
  fanoutServers?: Record<string, unknown>
  /** A session running in this folder, if any. */
  live?: AgentSession
  env?: Record<string, string | undefined>
  startTimeoutMs?: number
  /** Where the person's approvals of folders are kept. */
  dataDir?: string
}

export async function listMcpServers(opts: McpListOptions): Promise<CallResponse<'mcp.list'>> {
  const cwd = resolve(opts.cwd)
  const settings = readSettingsFiles({ cwd, home: opts.home })
  const config = loadMcpConfig({
    cwd,
    home: opts.home,
    settingsFiles: settings.files,
    ...(opts.fanoutServers ? { fanoutServers: opts.fanoutServers } : {}),
    ...(opts.env ? { env: opts.env } : {})
  })
  const problems = [...settings.problems, ...config.problems]
  if (opts.live) {
    const mcp = opts.live.extensions.mcp
    await mcp.ready()
    return { servers: mcp.status(), problems }
  }
  const probe = new SessionMcp({
    cwd,
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.startTimeoutMs ? { startTimeoutMs: opts.startTimeoutMs } : {}),
    report: () => undefined
  })
  const trust = trustFor({ cwd, home: opts.home, ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), settingsFiles: settings.files, mcp: config, agents: [] })
  probe.configure(gateMcpConfig(config, cwd, approvedIn(trust)))
  try {
    await probe.ready()
    return { servers: probe.status(), problems }
  } finally {
    await probe.close()
  }
}
