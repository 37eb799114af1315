// The e2e suite's RuntimeHost: the real host and runtime, with the Anthropic API replaced by the
// scripted Messages server (e2e-model.ts). Everything else — agents, tools, permissions, worktrees,
// transcripts, settings and the key store — is the product's own.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createModelClient } from '../../src/main/runtime/model/client'
import { MissingCredentialsError } from '../../src/main/runtime/model/errors'
import { startScriptedServer, type Respond } from '../../src/main/runtime/model/scripted'
import { LocalRuntimeHost } from '../../src/main/runtime/host'
import { SandboxRuntime } from '../../src/main/runtime/security/sandbox/sandbox-runtime'
import { credentialsPath, saveApiKey } from '../../src/main/runtime/store'
import type { RuntimeHost } from '../../src/shared/host'
import { e2eScript } from './e2e-model'

const E2E_KEY = `e2e-${randomBytes(18).toString('base64url')}`

export interface E2eHostOptions {
  cwd: string
  dataDir: string
  /** Whether an API key is already stored (false shows the first-run screen). */
  hasApiKey?: boolean
  /** Scales scripted delays: <1 runs faster. */
  speed?: number
  /** Replaces the e2e model's script (a test that needs one particular reply). */
  respond?: Respond
  /** More of settings.json (e.g. `context` for long sessions). */
  settings?: Record<string, unknown>
  /** The scripted server's context window (default each model's own, as the API has it). */
  contextWindow?: number
  /** Sessions find no bubblewrap, so the Bash sandbox cannot start (its notice, and asking instead). */
  sandboxUnavailable?: boolean
  /** Stands in for the desktop's file manager, which this machine has none of (Open folder in the Changes view). */
  openPath?: (path: string) => Promise<string | null>
}

export async function createE2eHost(opts: E2eHostOptions): Promise<RuntimeHost> {
  mkdirSync(opts.dataDir, { recursive: true })
  // Room for 32 agents at once, so the layout test sees them all running.
  writeFileSync(join(opts.dataDir, 'settings.json'), JSON.stringify({ limits: { maxConcurrent: 64 }, ...opts.settings }))
  if (opts.hasApiKey) await saveApiKey(opts.dataDir, 'sk-ant-e2e-stored-key')
  const speed = opts.speed ?? 1
  const server = await startScriptedServer({
    respond: opts.respond ?? e2eScript({ speed }),
    latencyMs: Math.round(120 * speed),
    recordRequests: false,
    ...(opts.contextWindow ? { contextWindow: opts.contextWindow } : {})
  })
  const host = new LocalRuntimeHost({
    cwd: opts.cwd,
    dataDir: opts.dataDir,
    home: join(opts.dataDir, 'home'),
    env: {},
    // As without the scripted server: no key saved (first run, "Skip for now"), no session.
    createClient: () => {
      if (!existsSync(credentialsPath(opts.dataDir))) throw new MissingCredentialsError()
      // Not a word: the key is registered as a secret and redacted wherever it shows, and the key 'scripted'
      // made the demo's screenshots read "This is a [REDACTED] demo".
      return createModelClient({ apiKey: E2E_KEY, baseURL: server.url, maxRetries: 1, env: {} })
    },
    sessionDefaults: {
      managedSettingsFile: null,
      ...(opts.sandboxUnavailable ? { sandboxRuntime: new SandboxRuntime({ bwrapPath: '/nonexistent/bwrap' }) } : {})
    },
    ...(opts.openPath ? { openPath: opts.openPath } : {})
  })
  const close = host.close.bind(host)
  host.close = async () => {
    await close()
    await server.close()
  }
  return host
}
