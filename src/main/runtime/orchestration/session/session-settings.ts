// What the files say, as of the session's last reload: agent definitions, CLAUDE.md, MCP servers, hooks and
// permission settings re-read, with what the folder brings and the person has not approved kept out (trust/);
// Claude Code's `worktree.baseRef`; and the effort and thinking the main agent runs with.
import type { FolderTrust } from '../../../../shared/trust'
import { effortFromSettingsFiles } from '../../model/effort-settings'
import { trustFor } from '../../trust'
import { readBaseRefSetting, type WorktreeBaseRef } from '../../worktrees'
import type { MainAgentConfig } from '../runs/main-agent'
import type { SessionExtensions } from './extensions'
import type { SessionDefinitions } from './session-definitions'
import type { AgentSessionOptions } from './session-options'
import type { SessionPermissions } from './session-permissions'
import { applyFolderTrust } from './session-trust'

/** The parts a reload re-reads and configures. */
export interface SettingsParts {
  options: AgentSessionOptions
  home: string
  definitions: SessionDefinitions
  extensions: SessionExtensions
  permissions: SessionPermissions
  /** The main agent's configuration: its default mode and effort come from the settings. */
  mainConfig: MainAgentConfig
}

export class SessionSettings {
  /** What the folder brings that runs or grants by itself, and whether each is approved. */
  folderTrust: FolderTrust | null = null
  /** Problems with the effort settings of the Claude Code settings files. */
  notes: string[] = []
  /** Claude Code's `worktree.baseRef`. */
  baseRef: WorktreeBaseRef = 'head'
  /** false: thinking off where the model allows it (the session's option, else `alwaysThinkingEnabled` in the settings files). */
  thinking: boolean | undefined
  /** The effort a reopened session ran with (its main agent's state): kept unless this opening chooses another. */
  restoredEffort: string | number | undefined

  constructor(private readonly p: SettingsParts) {
    this.thinking = p.options.thinking
  }

  /** Re-reads everything; what changed on disk applies to the next spawn. */
  async reload(): Promise<void> {
    const { options, definitions, extensions, home } = this.p
    const cwd = options.cwd
    const { agents, claudeMd } = await definitions.reload()
    const read = extensions.read()
    this.folderTrust = trustFor({
      cwd,
      home,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.trustFolder ? { trustFolder: options.trustFolder } : {}),
      ...(options.trustProject ? { trustAll: true } : {}),
      settingsFiles: read.settingsFiles,
      mcp: read.mcp,
      agents,
      claudeMd,
      problems: read.problems
    })
    const { withhold } = applyFolderTrust(this.folderTrust, read, { cwd, headless: options.headless === true, definitions, extensions })
    this.baseRef = readBaseRefSetting({
      cwd,
      home,
      // The folder's own `worktree.baseRef` ("fresh" fetches from its remote) counts once the person trusted it.
      projectTrusted: this.folderTrust.state === 'trusted' || options.trustProject === true,
      ...(options.managedSettingsFile !== undefined ? { managedFile: options.managedSettingsFile } : {})
    }).value
    const settings = this.p.permissions.reload(withhold)
    // CLI flag (options.permissionMode, applied above this) > the settings files' defaultMode > Fanout's own default.
    const defaultMode = settings?.defaultMode ?? options.fallbackPermissionMode
    if (defaultMode) this.p.mainConfig.defaultMode = defaultMode
    else delete this.p.mainConfig.defaultMode
    this.applyEffort()
  }

  /** Effort and thinking: the session's own choice (or the one it ran with), else the Claude Code settings files, else Fanout's default. */
  applyEffort(): void {
    const { options, mainConfig } = this.p
    const fromFiles = effortFromSettingsFiles(this.p.extensions.settingsFiles)
    this.notes = fromFiles.problems
    const effort = options.effort ?? this.restoredEffort ?? fromFiles.effort ?? options.defaultEffort
    if (effort !== undefined) mainConfig.effort = effort
    else delete mainConfig.effort
    this.thinking = options.thinking ?? fromFiles.thinking
  }
}
