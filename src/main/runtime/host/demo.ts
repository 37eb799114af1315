// The scripted model behind the demo session: an in-process Messages API server answering from the demo
// script, and a client pointed at it. Lives as long as its session.
import { createModelClient } from '../model/client'
import { startScriptedServer } from '../model/scripted'
import type { ModelClient } from '../model/types'
import { DEMO_PROMPT, demoScript, WATCHABLE_PACE, type DemoPace, type KeyStored } from './demo-script'

export interface DemoModel {
  client: ModelClient
  prompt: string
  close(): Promise<void>
}

/** At a pace to be watched (see WATCHABLE_PACE) unless told otherwise. */
export async function startDemoModel(opts: { latencyMs?: number; keyStored?: KeyStored; pace?: DemoPace } = {}): Promise<DemoModel> {
  const respond = demoScript({ pace: opts.pace ?? WATCHABLE_PACE, ...(opts.keyStored ? { keyStored: opts.keyStored } : {}) })
  const server = await startScriptedServer({ respond, latencyMs: opts.latencyMs ?? 250, recordRequests: false })
  const client = createModelClient({ apiKey: 'scripted-demo', baseURL: server.url, maxRetries: 1, env: {} })
  return { client, prompt: DEMO_PROMPT, close: () => server.close() }
}
