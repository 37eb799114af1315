// The host's settings calls: read and change settings.json, store the write-only key, and test the
// endpoint. The key is only ever read here to make a client; no answer carries it.
import type { HostNotice, SettingsPatch } from '../../../shared/ipc-contract'
import { HostCallError } from '../../../shared/host-call-error'
import { registerSecret } from '../../../shared/redact'
import { loadRuntimeConfig, type KeyStore } from '../setup'
import { ensureDataDir, updateSettings } from '../store'
import { readBaseRefSetting } from '../worktrees'
import { testConnection } from './connection-test'
import { settingsView, storePatch, type KeySource } from './settings-view'
import { writeUserWorktreeBaseRef } from './user-claude-settings'
import { errorMessage } from '../../../shared/error-message'

export interface SettingsCallsOptions {
  env: Record<string, string | undefined>
  dataDir: string
  keyStore: KeyStore
  notify(notice: HostNotice): void
  /** The workspace: its Claude Code settings say where agent worktrees start (worktree.baseRef). */
  cwd(): string
  home: string
  managedSettingsFile?: string | null
}

export class SettingsCalls {
  constructor(private readonly o: SettingsCallsOptions) {}

  get = async () => ({ settings: await this.now() })

  update = async (patch: SettingsPatch) => {
    try {
      if (patch.worktreeBaseRef) await writeUserWorktreeBaseRef(this.o.home, patch.worktreeBaseRef)
      await updateSettings(this.o.dataDir, storePatch(patch))
    } catch (err) {
      throw new HostCallError('invalid_request', errorMessage(err))
    }
    return this.changed()
  }

  setApiKey = async ({ apiKey }: { apiKey: string }) => {
    registerSecret(apiKey)
    await ensureDataDir(this.o.dataDir)
    await this.o.keyStore.set(apiKey)
    return this.changed()
  }

  /** Whether Fanout has a key to run real agents with (stored, or from the environment). */
  hasKey = async (): Promise<boolean> => (await this.keySource()) !== 'none'

  testConnection = async ({ baseUrl }: { baseUrl?: string | null }) =>
    testConnection(await loadRuntimeConfig({ env: this.o.env, dataDir: this.o.dataDir }), baseUrl, { env: this.o.env, keyStore: this.o.keyStore })

  private async changed() {
    const settings = await this.now()
    this.o.notify({ type: 'settings_changed', settings })
    return { settings }
  }

  private async keySource(): Promise<KeySource> {
    if (await this.o.keyStore.get().catch(() => null)) return 'stored'
    return this.o.env.ANTHROPIC_API_KEY || this.o.env.ANTHROPIC_AUTH_TOKEN ? 'environment' : 'none'
  }

  private async now() {
    const config = await loadRuntimeConfig({ env: this.o.env, dataDir: this.o.dataDir })
    const baseRef = readBaseRefSetting({
      cwd: this.o.cwd(),
      home: this.o.home,
      ...(this.o.managedSettingsFile !== undefined ? { managedFile: this.o.managedSettingsFile } : {})
    })
    return settingsView(config.settings, await this.keySource(), { value: baseRef.value, file: baseRef.file, scope: baseRef.scope })
  }
}
