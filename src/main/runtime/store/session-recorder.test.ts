import { readFile, rm, truncate } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import { openSession } from './open-session'
import { readSessionIndex } from './session-index-file'
import { createSessionRecorder } from './session-recorder'
import { eventsFor, sessionAgents, useTempDataDir } from './test-fixtures'
import { readTranscript } from './transcript/reader'
import { ViewFold } from './view-fold'

let dataDir: string
useTempDataDir((dir) => (dataDir = dir))

const { sessionId, main, child, grandchild } = sessionAgents('sess-1', { child: ['explore-1', 'toolu_1'], grandchild: ['deep-1', 'toolu_9', 'explore-1'] })

/** A small session: main spawns an Explore agent that spawns another; all usage arrives as usage events except deep-1's. */
function script(): AgentEvent[] {
  return [
    main.start({ prompt: 'Find the bug in the parser\nand fix it', description: 'Find the bug in the parser', cwd: '/repo' }),
    main.turn(1),
    main.text('Let me '),
    main.text('look.'),
    main.usage({ inputTokens: 100, outputTokens: 20, costUsd: 0.01 }),
    child.start({ agentType: 'Explore', description: 'Search parser', model: 'claude-haiku-5-5' }),
    child.turn(1),
    child.ev({ type: 'tool_run', toolUseId: 't1', name: 'Grep', input: { pattern: 'parse' } }),
    grandchild.start({ agentType: 'Plan', depth: 2 }),
    grandchild.end('completed', { inputTokens: 7, outputTokens: 3, costUsd: 0.001 }),
    child.usage({ inputTokens: 50, outputTokens: 5, costUsd: 0.002 }),
    child.status('waiting_permission'),
    child.end('failed', { inputTokens: 50, outputTokens: 5, costUsd: 0.002 }),
    main.usage({ inputTokens: 10, outputTokens: 2, costUsd: 0.003 }),
    main.end('completed')
  ]
}

describe('session recorder', () => {
  it('routes each event to its agent transcript and keeps session.json with the tree, statuses and usage', async () => {
    const rec = createSessionRecorder({ dataDir, sessionId, cwd: '/repo' })
    const events = script()
    for (const e of events) rec.record(e)
    await rec.close()

    const dir = join(dataDir, 'sessions', sessionId)
    for (const id of ['main', 'explore-1', 'deep-1']) {
      const t = await readTranscript(join(dir, 'agents', `${id}.jsonl`))
      expect(t.issues).toEqual([])
      expect(t.header).toMatchObject({ agentId: id, sessionId, version: 2 })
      expect(t.events.every((e) => e.agentId === id)).toBe(true)
    }
    const mainT = await readTranscript(join(dir, 'agents', 'main.jsonl'))
    expect(mainT.header?.parentAgentId).toBeNull()
    expect(mainT.events.filter((e) => e.type === 'text_delta')).toMatchObject([{ text: 'Let me look.' }]) // coalesced
    expect((await readTranscript(join(dir, 'agents', 'deep-1.jsonl'))).header?.parentAgentId).toBe('explore-1')

    const idx = await readSessionIndex(dataDir, sessionId)
    expect(idx).toMatchObject({ version: 1, sessionId, cwd: '/repo', title: 'Find the bug in the parser', status: 'completed', writer: null })
    expect(idx!.agents['explore-1']).toMatchObject({
      parentAgentId: 'main',
      parentToolUseId: 'toolu_1',
      agentType: 'Explore',
      description: 'Search parser',
      model: 'claude-haiku-5-5',
      status: 'failed',
      turnCount: 1,
      toolUses: 1,
      usage: { inputTokens: 50, outputTokens: 5, costUsd: 0.002 } // usage events counted once, not again from agent_end
    })
    expect(idx!.agents['explore-1'].endedAt).toBeGreaterThan(idx!.agents['explore-1'].startedAt)
    expect(idx!.agents['deep-1'].usage).toMatchObject({ inputTokens: 7, costUsd: 0.001 }) // from agent_end: no usage events
    expect(idx!.agents.main.usage).toMatchObject({ inputTokens: 110, outputTokens: 22 })
    expect(idx!.usage).toMatchObject({ inputTokens: 167, outputTokens: 30 })
    expect(idx!.costUsd).toBeCloseTo(0.016, 10)
  })

  it('does not rewrite session.json for every event of a burst; flush brings it up to date', async () => {
    const rec = createSessionRecorder({ dataDir, sessionId, cwd: '/repo', indexIntervalMs: 60_000 })
    await rec.ready
    expect(Object.keys((await readSessionIndex(dataDir, sessionId))!.agents)).toEqual([])
    rec.record(main.start())
    for (let i = 1; i <= 500; i++) rec.record(main.turn(i))
    await rec.flushAgent('main') // the transcript goes out; the index waits for its interval
    expect(Object.keys((await readSessionIndex(dataDir, sessionId))!.agents)).toEqual([])
    expect((await readTranscript(rec.transcriptFile('main'))).events).toHaveLength(501)
    await rec.flush()
    expect((await readSessionIndex(dataDir, sessionId))!.agents.main.turnCount).toBe(500)
    await rec.close()
  })

  it('reports an unusable agent id or an event after close instead of throwing into the event bus', async () => {
    const errors: string[] = []
    const rec = createSessionRecorder({ dataDir, sessionId, cwd: '/repo', onError: (e) => errors.push(e.message) })
    const bad = eventsFor({ sessionId, agentId: '../escape', parentAgentId: null, parentToolUseId: null })
    expect(() => rec.record(bad.start())).not.toThrow()
    await rec.close()
    rec.record(main.start())
    expect(errors).toEqual([
      expect.stringContaining('Invalid agent id "../escape"'),
      expect.stringContaining('recorder is closed; dropped a agent_start event of agent main')
    ])
  })

  it('continues an existing session: same transcripts (no second header), the tree kept, a resumed agent counted', async () => {
    const first = createSessionRecorder({ dataDir, sessionId, cwd: '/repo' })
    for (const e of script()) first.record(e)
    await first.close()

    const second = createSessionRecorder({ dataDir, sessionId, cwd: '/elsewhere' })
    second.record(child.start({ agentType: 'Explore', description: 'Search parser', prompt: 'continue' }))
    second.record(child.usage({ inputTokens: 1, costUsd: 0.5 }))
    second.record(child.end('completed'))
    await second.close()

    const t = await readTranscript(second.transcriptFile('explore-1'))
    expect(t.issues).toEqual([])
    expect(t.events.filter((e) => e.type === 'agent_start')).toHaveLength(2)
    const idx = (await readSessionIndex(dataDir, sessionId))!
    expect(Object.keys(idx.agents).sort()).toEqual(['deep-1', 'explore-1', 'main'])
    expect(idx.cwd).toBe('/repo')
    expect(idx.agents['explore-1']).toMatchObject({ runs: 2, status: 'completed', usage: { inputTokens: 51, costUsd: 0.502 } })
  })
})

describe('openSession', () => {
  it('keeps the title the app gave the session, live and reopened, also after another process takes it over', async () => {
    const title = 'Try code-reviewer: Find the bug in the parser'
    const rec = createSessionRecorder({ dataDir, sessionId, cwd: '/repo', title })
    for (const e of script()) rec.record(e)
    await rec.close()
    expect((await readSessionIndex(dataDir, sessionId))?.title).toBe(title)
    expect((await openSession(dataDir, sessionId)).index.title).toBe(title)
    // A follow-up in a later process: its recorder names no title, the recorded one stays.
    const again = createSessionRecorder({ dataDir, sessionId, cwd: '/repo' })
    again.record(main.start({ prompt: 'Now something else' }))
    again.record(main.end('completed'))
    await again.close()
    expect((await openSession(dataDir, sessionId)).index.title).toBe(title)
  })

  it('reopens a session from its transcripts alone, with the same index the recorder kept', async () => {
    const rec = createSessionRecorder({ dataDir, sessionId, cwd: '/repo' })
    for (const e of script()) rec.record(e)
    await rec.close()
    const kept = (await readSessionIndex(dataDir, sessionId))!
    await rm(join(dataDir, 'sessions', sessionId, 'session.json'))

    const s = await openSession(dataDir, sessionId)
    expect(s.rebuilt).toBe(true)
    expect(s.notes).toEqual(['session.json is missing; the session was rebuilt from its transcripts'])
    expect({ ...s.index, cwd: kept.cwd, createdAt: kept.createdAt, updatedAt: kept.updatedAt }).toEqual(kept)
    expect(Object.keys(s.agents).sort()).toEqual(['deep-1', 'explore-1', 'main'])
    expect(s.agents.main.events[0]).toMatchObject({ type: 'agent_start', prompt: 'Find the bug in the parser\nand fix it' })
  })

  it('after a crash mid-write (torn transcript, stale session.json) shows every complete event and the latest statuses', async () => {
    const rec = createSessionRecorder({ dataDir, sessionId, cwd: '/repo', indexIntervalMs: 60_000 })
    await rec.ready
    const events = script()
    for (const e of events.slice(0, 9)) rec.record(e) // up to deep-1's start
    await rec.flush()
    rec.record(events[9]) // deep-1 ends: transcript only, the index waits
    for (const e of events.slice(10, 13)) rec.record(e) // explore-1 fails
    await Promise.all(['deep-1', 'explore-1'].map((id) => rec.flushAgent(id))) // in the transcripts; the index waits
    // The crash: the process dies in the middle of writing explore-1's last line.
    const file = rec.transcriptFile('explore-1')
    const size = Buffer.byteLength(await readFile(file, 'utf8'))
    await truncate(file, size - 30)

    const s = await openSession(dataDir, sessionId)
    expect(s.rebuilt).toBe(true)
    expect(s.index.agents['deep-1'].status).toBe('completed')
    expect(s.index.agents['explore-1'].status).toBe('waiting_permission') // its agent_end line was torn
    expect(s.agents['explore-1'].events.map((e) => e.type)).toEqual(['agent_start', 'turn_start', 'tool_run', 'usage', 'status'])
    expect(s.notes.some((n) => n.includes('explore-1.jsonl') && n.includes('incomplete last line'))).toBe(true)
    expect(s.index.status).toBe('running') // this process (its writer) is alive
    await rec.close()
    // Recording again after the crash appends cleanly after the torn fragment, once the run it cut off is closed.
    const again = createSessionRecorder({ dataDir, sessionId, cwd: '/repo' })
    again.record(events[12])
    await again.close()
    const t = await readTranscript(file)
    expect(t.events.slice(-2)).toEqual([expect.objectContaining({ type: 'agent_end', status: 'interrupted' }), events[12]])
    expect(t.issues.map((i) => i.kind)).toEqual(['corrupt-line'])
  })

  it('folds the view at a quiet moment, not while agents are busy: a fold then would be in a hand-off between them', async () => {
    const folds: number[] = []
    const spy = vi.spyOn(ViewFold.prototype, 'fold').mockImplementation(function (this: ViewFold) {
      folds.push(Date.now())
    })
    const rec = createSessionRecorder({ dataDir, sessionId, cwd: '/repo', indexIntervalMs: 20 })
    try {
      await rec.ready
      // The clock is the test's: a slow machine's pause between two events must not read as quiet.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'hrtime'] })
      rec.record(main.start({ prompt: 'go', cwd: '/repo' }))
      // Busy for ten times the index's interval: an event every 5 ms, each one that changes session.json.
      for (let turn = 1; turn <= 40; turn++) {
        rec.record(main.turn(turn))
        vi.advanceTimersByTime(5)
      }
      expect(folds).toEqual([])
      // Quiet: folded soon after.
      vi.advanceTimersByTime(100)
      expect(folds.length).toBeGreaterThan(0)
    } finally {
      vi.useRealTimers()
      spy.mockRestore()
      await rec.close()
    }
  })

  it('says clearly when there is no such session', async () => {
    await expect(openSession(dataDir, 'missing')).rejects.toThrow(`No session missing in ${join(dataDir, 'sessions')}`)
  })
})
