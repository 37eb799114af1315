// One call to get a scripted server and a real model client pointed at it, with retries fast enough for
// tests. Used by the model, loop and orchestration tests.
import { createModelClient, type ModelClientConfig } from '../client'
import type { ModelClient } from '../types'
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from './server'

export interface ScriptedModel {
  server: ScriptedServer
  client: ModelClient
  close(): Promise<void>
}

export async function startScriptedModel(opts: ScriptedServerOptions, client: Partial<ModelClientConfig> = {}): Promise<ScriptedModel> {
  const server = await startScriptedServer(opts)
  return {
    server,
    client: createModelClient({ apiKey: 'scripted-test-key', baseURL: server.url, maxRetries: 3, retryBaseMs: 1, retryMaxMs: 20, ...client }),
    close: () => server.close()
  }
}
