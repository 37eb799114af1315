// A state file is written after what it summarizes: one that says an agent runs is never on disk before the
// agent_start line it follows (the recorder batches transcript lines), or a kill in between would leave an
// agent that no restart can start again (no task, no conversation) and that its parent is told to start anew.
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { agentStatePath } from '../store/data-dir'
import { eventsFor, tempDataDir } from '../store/test-fixtures'
import { AgentRegistry, newAgentHandle, type AgentIdentity } from './agent-registry'
import { SessionPersistence } from './persistence'

let dataDir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())

describe('session persistence', () => {
  it("writes an agent's state only once the transcript holds the event it follows", async () => {
    const sessionId = 'sess-1'
    const registry = new AgentRegistry()
    const persistence = new SessionPersistence({ dataDir, sessionId, cwd: dataDir, registry, onError: (e) => expect.fail(e.message) })
    await persistence.recorder.ready
    const seen: Array<{ state: string; transcript: string }> = []
    for (let i = 0; i < 20; i++) {
      const agentId = `worker-${i}`
      registry.add(newAgentHandle({ id: agentId, agentType: 'general-purpose', parentId: 'main', parentToolUseId: `t-${i}`, depth: 1, model: 'm', cwd: dataDir } as AgentIdentity))
      const events = eventsFor({ sessionId, agentId, parentAgentId: 'main', parentToolUseId: `t-${i}` })
      persistence.record(events.start({ prompt: `Task ${i}` }))
      const statePath = agentStatePath(dataDir, sessionId, agentId)
      // Read in one synchronous step as soon as the state appears: what a kill at that moment would leave.
      while (!existsSync(statePath)) await new Promise((r) => setImmediate(r))
      seen.push({ state: readFileSync(statePath, 'utf8'), transcript: readFileSync(persistence.transcriptFile(agentId), 'utf8') })
    }
    for (const s of seen) {
      expect(JSON.parse(s.state).status).toBe('running')
      expect(s.transcript).toContain('"type":"agent_start"')
    }
    await persistence.close()
  })
})
