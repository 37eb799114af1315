// The one place the e2e suite gets its RuntimeHost. TEMPORARY: a scripted stand-in (fake-host.ts).
// Integration: replace the body with the real host over the scripted model server, e.g.
//   const model = await startScriptedModelServer(fanoutScript)
//   return createRuntimeHost({ cwd, dataDir, env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'test' } })
// The specs only use what this returns and the UI.
import type { RuntimeHost } from '../../src/shared/host'
import { createFakeHost } from './fake-host'

export interface E2eHostOptions {
  cwd: string
  dataDir: string
  /** Whether an API key is already configured (false shows the first-run screen). */
  hasApiKey?: boolean
  /** Scales scripted delays: <1 runs faster. */
  speed?: number
}

export async function createE2eHost(opts: E2eHostOptions): Promise<RuntimeHost> {
  return createFakeHost(opts)
}
