// How the host makes its sessions: the settings in force, a model client (a missing key as a message the
// person can act on), and the options every session of this host shares, for new and reopened ones alike.
import { homedir } from 'node:os'
import { HostCallError } from '../../../shared/host-call-error'
import { MissingCredentialsError } from '../model/errors'
import type { ModelClient } from '../model/types'
import { AgentSession, type AgentSessionOptions } from '../orchestration'
import { createClientFromConfig, loadRuntimeConfig, type KeyStore, type RuntimeConfig } from '../setup'
import { loadSettings } from '../store'
import { chooseModel, FOLDER_LEVELS, settingsEnv, settingsLayers } from '../store/claude-settings'
import { checkFolderTrust } from '../trust'
import { sessionCallError } from './session-files'

export interface SessionFactoryOptions {
  env: Record<string, string | undefined>
  dataDir: string
  keyStore: KeyStore
  home?: string
  /** Replaces the real model client (tests and the e2e suite). */
  createClient?: () => ModelClient
  /** Options passed to every session (tests: ripgrep, stall timeouts). */
  sessionDefaults?: Partial<AgentSessionOptions>
  /** This program as a person names it, written in the lock of every session it runs (see AgentSessionOptions.owner). */
  owner?: string
}

const NO_KEY = 'There is no Anthropic API key yet. Add one in Settings (or start Fanout with ANTHROPIC_API_KEY set) to run agents.'

export class SessionFactory {
  constructor(private readonly o: SessionFactoryOptions) {}

  /** Settings are read afresh for each call, so a change in Settings applies to the next run. */
  config = (): Promise<RuntimeConfig> => loadRuntimeConfig({ env: this.o.env, dataDir: this.o.dataDir })

  async client(config: RuntimeConfig): Promise<ModelClient> {
    if (this.o.createClient) {
      try {
        return this.o.createClient()
      } catch (err) {
        if (err instanceof MissingCredentialsError) throw new HostCallError('unavailable', NO_KEY)
        throw err
      }
    }
    const made = await createClientFromConfig(config, { env: this.o.env, keyStore: this.o.keyStore })
    if ('error' in made) throw new HostCallError('unavailable', made.missingKey ? NO_KEY : made.error)
    return made.client
  }

  async create(config: RuntimeConfig, client: ModelClient, opts: Partial<AgentSessionOptions> & { cwd: string }): Promise<AgentSession> {
    return AgentSession.create({ ...this.base(config, client), ...(await this.claudeSettings(config, opts.cwd)), ...opts })
  }

  /**
   * What Claude Code's settings files choose for a session in `cwd`, read by the same functions the CLI reads
   * them with (store/claude-settings.ts): the main agent's `model` (ANTHROPIC_MODEL, then the most specific
   * file's, then Fanout's defaultModel) and the `env` its commands, hooks and MCP servers get — a folder's own
   * files' only once the person trusts the folder, as in the CLI.
   */
  private async claudeSettings(config: RuntimeConfig, cwd: string): Promise<{ model?: string; env?: Record<string, string> }> {
    const home = this.o.home ?? homedir()
    const managed = this.o.sessionDefaults?.managedSettingsFile
    const layers = settingsLayers({ cwd, home, ...(managed !== undefined ? { managedFile: managed } : {}) })
    const folderEnv = layers.some((l) => FOLDER_LEVELS.includes(l.level) && l.value.env !== undefined)
    const trusted =
      folderEnv &&
      (await checkFolderTrust({ cwd, home, dataDir: this.o.dataDir, env: this.o.env, ...(managed !== undefined ? { managedFile: managed } : {}) })).state ===
        'trusted'
    const { env } = settingsEnv(layers, trusted)
    const { model } = chooseModel({ env: { ...this.o.env, ...env }, layers, fallback: config.settings.defaultModel })
    return { ...(model ? { model } : {}), ...(Object.keys(env).length ? { env } : {}) }
  }

  /** A recorded session opened again from its transcripts; `not_found` when there is none. */
  async open(sessionId: string, config: RuntimeConfig, client: ModelClient): Promise<AgentSession> {
    try {
      // Coordinator mode comes back from the session's own record; teams follow the settings.
      return await AgentSession.open({ sessionId, teams: config.settings.agentTeams, ...this.base(config, client), dataDir: this.o.dataDir })
    } catch (err) {
      throw sessionCallError(err, sessionId)
    }
  }

  /** What every session of this host gets: the client, the settings in force, the data folder. */
  private base(config: RuntimeConfig, client: ModelClient) {
    return {
      client,
      aliases: config.aliases,
      limits: config.limits,
      context: config.context,
      model: config.settings.defaultModel,
      permissionMode: config.settings.defaultPermissionMode,
      ...(config.settings.defaultEffort ? { defaultEffort: config.settings.defaultEffort } : {}),
      dataDir: this.o.dataDir,
      owner: this.o.owner ?? 'Fanout',
      // Read when the main agent asks to merge, so a choice made in the Changes view meanwhile counts.
      mergeStrategy: async () => (await loadSettings(this.o.dataDir)).settings.mergeStrategy,
      ...(config.settings.mcpServers ? { mcpServers: config.settings.mcpServers } : {}),
      ...(config.settings.passEnvironment ? { passEnvironment: config.settings.passEnvironment } : {}),
      ...(this.o.home ? { home: this.o.home } : {}),
      ...this.o.sessionDefaults
    }
  }
}
