// Trusted folders: what a folder brings that would run or grant something by itself takes effect only once
// the person approves it for that folder (per change of its content). See scan.ts for what is listed,
// folder-trust.ts for who approves, gate.ts for how the rest is kept out.
import type { LoadedAgent } from '../../../shared/agent-definition'
import type { FolderTrust } from '../../../shared/trust'
import { loadClaudeMd, type ClaudeMdEntry } from '../context'
import { projectRootOf } from '../context/project-root'
import { loadAgents, type LoadAgentsOptions } from '../definitions'
import { readSettingsFiles, type SettingsFile } from '../hooks/settings-files'
import { loadMcpConfig, type McpConfig } from '../mcp/load-config'
import { loadPlugins } from '../plugins'
import { claudeMcpApprovals } from './claude-approvals'
import { evaluateTrust } from './folder-trust'
import { collectItems } from './scan'

export { answerTrust, approvedIn, evaluateTrust, listHash, type TrustDecision, type TrustOptions } from './folder-trust'
export { gateAgents, gateClaudeMd, gateMcpConfig, gateSettingsFiles, permissionWithhold, type Approved, type GatedAgents } from './gate'
export { collectItems, type Collected } from './scan'
export { folderKey, forgetFolder, readFolderAnswer, trustStorePath } from './trust-store'
export { describeWaiting, howToApprove } from './wording'

export interface TrustForInput {
  cwd: string
  home: string
  /** Where the person's answers are kept (the data folder). */
  dataDir?: string
  /** The folder whose answers apply; default cwd. */
  trustFolder?: string
  /** `--trust-project`. */
  trustAll?: boolean
  settingsFiles: readonly SettingsFile[]
  mcp: McpConfig
  agents: readonly LoadedAgent[]
  claudeMd?: { entries: readonly ClaudeMdEntry[]; root: string }
  problems?: string[]
}

/** The folder's items and the state of each, from configuration already read. */
export function trustFor(input: TrustForInput): FolderTrust {
  const collected = collectItems({
    folder: input.cwd,
    settingsFiles: input.settingsFiles,
    mcpServers: input.mcp.servers,
    agents: input.agents,
    ...(input.claudeMd ? { claudeMd: input.claudeMd } : {})
  })
  return evaluateTrust(
    { ...collected, problems: input.problems ?? [] },
    {
      ...(input.dataDir ? { dataDir: input.dataDir } : {}),
      trustFolder: input.trustFolder ?? input.cwd,
      ...(input.trustAll ? { trustAll: true } : {}),
      claudeApproves: claudeMcpApprovals({
        cwd: input.cwd,
        home: input.home,
        settingsFiles: input.settingsFiles,
        claudeProject: input.mcp.claudeProject ?? null
      })
    }
  )
}

export interface CheckFolderOptions {
  cwd: string
  home: string
  dataDir?: string
  env?: Record<string, string | undefined>
  managedFile?: string | null
  agentSources?: Omit<LoadAgentsOptions, 'cwd' | 'home'>
  fanoutServers?: Record<string, unknown>
  trustAll?: boolean
  /** `--plugin-dir` folders. */
  pluginDirs?: readonly string[]
}

/** Reads a folder's configuration the way a session would and says what of it waits, is approved or declined. */
export async function checkFolderTrust(opts: CheckFolderOptions): Promise<FolderTrust> {
  const settings = readSettingsFiles({ cwd: opts.cwd, home: opts.home, ...(opts.managedFile !== undefined ? { managedFile: opts.managedFile } : {}) })
  const plugins = loadPlugins({ cwd: opts.cwd, home: opts.home, settingsFiles: settings.files, ...(opts.pluginDirs ? { pluginDirs: opts.pluginDirs } : {}) })
  const mcp = loadMcpConfig({
    cwd: opts.cwd,
    home: opts.home,
    settingsFiles: settings.files,
    pluginServers: plugins.servers,
    ...(opts.fanoutServers ? { fanoutServers: opts.fanoutServers } : {}),
    ...(opts.env ? { env: opts.env } : {})
  })
  const [agents, entries, root] = await Promise.all([
    loadAgents({ cwd: opts.cwd, home: opts.home, ...opts.agentSources }),
    loadClaudeMd({ cwd: opts.cwd, home: opts.home }),
    projectRootOf(opts.cwd)
  ])
  return trustFor({
    cwd: opts.cwd,
    home: opts.home,
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.trustAll ? { trustAll: true } : {}),
    settingsFiles: [...settings.files, ...plugins.hookFiles],
    mcp,
    agents: agents.agents,
    claudeMd: { entries, root },
    problems: [...settings.problems, ...plugins.problems, ...mcp.problems]
  })
}
