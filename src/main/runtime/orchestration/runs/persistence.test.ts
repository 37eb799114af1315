// What is on disk at any moment a kill could land is consistent: a state file that says an agent runs is
// never there before the agent_start line it follows (the recorder batches transcript lines), or a restart
// would find an agent it cannot start again; and a parent's Agent call is never answered (its tool_end) before
// the child's agent_end is written, or a restart would run a finished agent again and report it twice.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { reply } from '../../model/scripted'
import { agentStatePath } from '../../store/data-dir'
import { eventsFor, tempDataDir } from '../../store/test-fixtures'
import { AgentRegistry, newAgentHandle, type AgentIdentity } from './agent-registry'
import { SessionPersistence } from './persistence'
import { closeFixtures, makeFixture } from '../testing/session-fixture'
import { mainAgent } from '../testing/scripted-agents'

let dataDir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())
afterEach(closeFixtures)

/** Worker `i` of the main agent, in the registry, with the events it records. */
function worker(registry: AgentRegistry, sessionId: string, i: number) {
  const agentId = `worker-${i}`
  registry.add(
    newAgentHandle({
      id: agentId,
      agentType: 'general-purpose',
      parentId: 'main',
      parentToolUseId: `t-${i}`,
      depth: 1,
      model: 'm',
      cwd: dataDir
    } as AgentIdentity)
  )
  return { agentId, events: eventsFor({ sessionId, agentId, parentAgentId: 'main', parentToolUseId: `t-${i}` }) }
}

describe('session persistence', () => {
  it("writes an agent's state only once the transcript holds the event it follows", async () => {
    const sessionId = 'sess-1'
    const registry = new AgentRegistry()
    const persistence = new SessionPersistence({ dataDir, sessionId, cwd: dataDir, registry, onError: (e) => expect.fail(e.message) })
    await persistence.recorder.ready
    const seen: Array<{ state: string; transcript: string }> = []
    for (let i = 0; i < 20; i++) {
      const { agentId, events } = worker(registry, sessionId, i)
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

  it("answers a parent's Agent call only once the child's agent_end is in its transcript", async () => {
    const f = await makeFixture([
      { name: 'child', match: /^Task \d+$/, turns: [], then: (req) => reply.text(`done ${req.firstUserText}`) },
      mainAgent(
        [
          reply.toolUses(
            Array.from({ length: 12 }, (_, i) => ({ name: 'Agent', input: { description: `t${i}`, prompt: `Task ${i}`, subagent_type: 'general-purpose' } }))
          )
        ],
        reply.text('all done')
      )
    ])
    const children = new Map<string, string>() // parentToolUseId -> child agent id
    const missing: string[] = []
    let answered = 0
    f.session.subscribe((e) => {
      if (e.type === 'agent_start' && e.parentToolUseId) children.set(e.parentToolUseId, e.agentId)
      if (e.type !== 'tool_end' || e.name !== 'Agent') return
      answered++
      // Read in the same synchronous step as the answer: what a kill right after it would leave.
      const child = children.get(e.toolUseId)!
      const file = join(f.dataDir, 'sessions', f.session.sessionId, 'agents', `${child}.jsonl`)
      if (!existsSync(file) || !readFileSync(file, 'utf8').includes('"type":"agent_end"')) missing.push(child)
    })
    expect(await f.session.run('Fan out.')).toMatchObject({ status: 'completed', result: 'all done' })
    expect(answered).toBe(12)
    expect(missing).toEqual([])
  })

  describe("the state a run ends with: written whole (a subagent's at once, the session's last with the next batch), fsynced a moment later with the others", () => {
    function setUp(opts: { endSyncMs?: number; failSync?: boolean } = {}) {
      const sessionId = 'sess-end'
      const registry = new AgentRegistry()
      const synced: string[] = []
      const errors: string[] = []
      const persistence = new SessionPersistence({
        dataDir,
        sessionId,
        cwd: dataDir,
        registry,
        onError: (e) => errors.push(e.message),
        syncFile: async (file) => {
          if (opts.failSync) throw new Error('EIO: i/o error, fsync')
          synced.push(file)
        },
        ...(opts.endSyncMs !== undefined ? { endSyncMs: opts.endSyncMs } : {})
      })
      const end = (i: number, status: 'completed' | 'failed' = 'completed') => {
        const { agentId, events } = worker(registry, sessionId, i)
        persistence.record(events.start({ prompt: `Task ${i}` }))
        persistence.record(events.end(status))
        return agentStatePath(dataDir, sessionId, agentId)
      }
      return { persistence, synced, errors, end }
    }
    const until = async (ok: () => boolean) => {
      while (!ok()) await new Promise((r) => setTimeout(r, 5))
    }

    it('is on disk whole as soon as it is written (a kill loses nothing), and fsynced once, at the checkpoint after close', async () => {
      const { persistence, synced, end } = setUp({ endSyncMs: 60_000 })
      await persistence.recorder.ready
      const files = [end(0), end(1, 'failed'), end(2)]
      await until(() => files.every((f) => existsSync(f)))
      expect(files.map((f) => JSON.parse(readFileSync(f, 'utf8')).status)).toEqual(['completed', 'failed', 'completed'])
      // Nothing fsynced on the run's path: not at the write, not at close (`fanout run` prints its answer then).
      await persistence.close()
      expect(synced).toEqual([])
      await persistence.checkpoint()
      expect([...synced].sort()).toEqual([...files].sort())
      // Each once: a second checkpoint has nothing left to sync.
      await persistence.checkpoint()
      expect(synced).toHaveLength(3)
    })

    it('is fsynced by itself a moment later in a session that stays open', async () => {
      const { persistence, synced, end } = setUp({ endSyncMs: 20 })
      await persistence.recorder.ready
      const files = [end(0), end(1)]
      await until(() => synced.length === 2)
      expect([...synced].sort()).toEqual([...files].sort())
      await persistence.close()
    })

    it("the session's last end waits for the batch: the answer's flush leaves it (the transcript has the end), a full flush or close writes it", async () => {
      const { persistence, end } = setUp({ endSyncMs: 60_000 })
      await persistence.recorder.ready
      const file = end(0)
      const transcript = persistence.transcriptFile('worker-0')
      await persistence.flush({ endState: false })
      expect(readFileSync(transcript, 'utf8')).toContain('"type":"agent_end"')
      expect(existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).status : 'none').not.toBe('completed')
      await persistence.flush()
      expect(JSON.parse(readFileSync(file, 'utf8')).status).toBe('completed')
      const other = end(1, 'failed')
      await persistence.flush({ endState: false })
      await persistence.close()
      expect(JSON.parse(readFileSync(other, 'utf8')).status).toBe('failed')
    })

    it('says so when the fsync fails', async () => {
      const { persistence, errors, end } = setUp({ failSync: true })
      await persistence.recorder.ready
      const file = end(0)
      await persistence.close()
      await persistence.checkpoint()
      expect(errors).toEqual([expect.stringContaining(`Could not save the state in ${file} to disk: EIO`)])
    })
  })
})
