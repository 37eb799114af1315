// Assembles what every front end (CLI, app, browser mode) needs before it can run agents: the data
// folder, Fanout's settings, and a model client from the stored key or the environment.
import { homedir } from 'node:os'
import type { ContextSettings } from './compaction/context-settings'
import { registerEnvironmentSecrets } from '../../shared/redact'
import { isSecretEnvEntry } from './security/child-env'
import { registerCredentialFileSecrets } from './security/credential-files'
import type { ModelAliases } from './model/aliases'
import { createModelClient, type ModelClientConfig } from './model/client'
import { MissingCredentialsError } from './model/errors'
import type { ModelClient } from './model/types'
import type { SpawnLimits } from './orchestration/runs/limits'
import { loadApiKey, loadSettings, resolveDataDir, saveApiKey, type SecretCodec, type Settings } from './store'
import { errorMessage } from '../../shared/error-message'

export interface RuntimeConfig {
  dataDir: string
  settings: Settings
  /** Problems found in settings.json (each a sentence; the defaults were used for those fields). */
  settingsProblems: string[]
  aliases: ModelAliases
  limits: SpawnLimits
  /** Context management for every session (settings.json `context`). */
  context: ContextSettings
}

/** Where the API key is kept: the credentials file by default, safeStorage in the Electron app. */
export interface KeyStore {
  get(): Promise<string | null>
  set(key: string): Promise<void>
}

/** The credentials file in the data folder (0600), optionally encrypted by `codec`. */
export function credentialsKeyStore(dataDir: string, codec?: SecretCodec): KeyStore {
  return { get: () => loadApiKey(dataDir, codec), set: (key) => saveApiKey(dataDir, key, codec) }
}

export async function loadRuntimeConfig(opts: { env?: Record<string, string | undefined>; dataDir?: string } = {}): Promise<RuntimeConfig> {
  const dataDir = opts.dataDir ?? resolveDataDir(opts.env ?? process.env)
  const loaded = await loadSettings(dataDir)
  return {
    dataDir,
    settings: loaded.settings,
    settingsProblems: loaded.problems,
    aliases: { ...loaded.settings.modelAliases },
    limits: { ...loaded.settings.limits },
    context: { ...loaded.settings.context }
  }
}

/**
 * A model client from (in order) the stored key, ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN; the endpoint
 * from settings, else ANTHROPIC_BASE_URL. Returns the reason instead when there are no credentials.
 */
export async function createClientFromConfig(
  config: RuntimeConfig,
  opts: { env?: Record<string, string | undefined>; keyStore?: KeyStore; client?: Partial<ModelClientConfig> } = {}
): Promise<{ client: ModelClient } | { error: string; missingKey?: true }> {
  const env = opts.env ?? process.env
  registerEnvironmentSecrets(env, isSecretEnvEntry)
  registerCredentialFileSecrets(env.HOME || homedir())
  let stored: string | null
  try {
    stored = await (opts.keyStore ?? credentialsKeyStore(config.dataDir)).get()
  } catch (err) {
    return { error: `The stored API key could not be read: ${errorMessage(err)}` }
  }
  try {
    const client = createModelClient({
      ...(stored ? { apiKey: stored } : {}),
      ...(config.settings.baseURL ? { baseURL: config.settings.baseURL } : {}),
      cacheSharing: config.settings.promptCacheSharing,
      env,
      ...opts.client
    })
    return { client }
  } catch (err) {
    if (err instanceof MissingCredentialsError) return { error: err.message, missingKey: true }
    throw err
  }
}
