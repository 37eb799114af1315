// The runtime host behind the app and browser mode (see src/shared/host.ts for the interface).
import type { RuntimeHost } from '../../../shared/host'
import { LocalRuntimeHost, type RuntimeHostOptions } from './runtime-host'

export type { RuntimeHostOptions } from './runtime-host'
export { LocalRuntimeHost } from './runtime-host'
export { DEMO_PROMPT } from './demo-script'

export async function createRuntimeHost(options: RuntimeHostOptions): Promise<RuntimeHost> {
  return new LocalRuntimeHost(options)
}
