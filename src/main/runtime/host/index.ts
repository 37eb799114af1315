// Placeholder created by the UI work (issue 5) so the adapters type-check; the lead replaces this file
// with the real host over the runtime (orchestration, store, permissions, settings).
import type { RuntimeHost } from '../../../shared/host'

export interface RuntimeHostOptions {
  cwd: string
  dataDir?: string
  keyStore?: { get(): Promise<string | null>; set(key: string): Promise<void> }
}

export async function createRuntimeHost(_options: RuntimeHostOptions): Promise<RuntimeHost> {
  throw new Error('The runtime host is not integrated yet (src/main/runtime/host is a placeholder).')
}
