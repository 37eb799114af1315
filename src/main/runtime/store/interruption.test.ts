import { describe, expect, it } from 'vitest'
import type { RecordedEvent } from './transcript/migrations'
import { transcriptPath } from './data-dir'
import { interruptedEnd, INTERRUPTED_AGENT_ERROR } from './interruption'
import { listSessions } from './list-sessions'
import { openSession } from './open-session'
import { replaySession } from './session-fold'
import { createSessionRecorder } from './session-recorder'
import { eventsFor, recordCrashed, sessionAgents, useTempDataDir } from './test-fixtures'
import { readTranscript } from './transcript/reader'
import { readViewCheckpoint } from './view-checkpoint'

let dataDir: string
useTempDataDir((dir) => (dataDir = dir))

const { sessionId, main, done, cut } = sessionAgents('sess-crash', { done: ['docs-1', 't-docs'], cut: ['explore-1', 't-explore'] })

/** A fan-out cut off mid-run: one subagent finished, the other was inside a Grep, streaming text. */
function fanOut(): RecordedEvent[] {
  return [
    main.start({ prompt: 'Crash test, fan out to 2', cwd: '/repo' }),
    main.turn(1),
    main.usage({ inputTokens: 10, costUsd: 0.01 }),
    main.ev({ type: 'tool_run', toolUseId: 't-docs', name: 'Agent', input: {} }),
    main.ev({ type: 'tool_run', toolUseId: 't-explore', name: 'Agent', input: {} }),
    done.start({ agentType: 'docs-writer' }),
    done.end('completed', { costUsd: 0.002 }),
    cut.start({ agentType: 'Explore' }),
    cut.turn(1),
    cut.usage({ outputTokens: 5, costUsd: 0.003 }),
    cut.ev({ type: 'tool_run', toolUseId: 't-glob', name: 'Glob', input: { pattern: '*' } }),
    cut.ev({ type: 'tool_end', toolUseId: 't-glob', name: 'Glob', isError: false, output: 'a.ts', durationMs: 3 }),
    cut.turn(2),
    cut.text('Now the call sites.'),
    cut.ev({ type: 'tool_run', toolUseId: 't-grep', name: 'Grep', input: { pattern: 'parse' } })
  ]
}

describe('a run a crash cut off', () => {
  it('ends as interrupted at its last event, with that run’s turns, tool runs and usage', () => {
    const events = fanOut().filter((e) => e.agentId === 'explore-1')
    const end = interruptedEnd(events)!
    expect(end).toMatchObject({
      type: 'agent_end',
      agentId: 'explore-1',
      parentAgentId: 'main',
      status: 'interrupted',
      error: INTERRUPTED_AGENT_ERROR,
      numTurns: 2,
      toolUses: 2,
      ts: events.at(-1)!.ts
    })
    expect(end.usage).toMatchObject({ outputTokens: 5, costUsd: 0.003 })
    expect(end.durationMs).toBe(events.at(-1)!.ts - events[0].ts)
    // A run that ended, or nothing at all, needs no end.
    expect(interruptedEnd(fanOut().filter((e) => e.agentId === 'docs-1'))).toBeNull()
    expect(interruptedEnd([])).toBeNull()
    // A second run that was cut off counts only itself.
    const again = [...fanOut().filter((e) => e.agentId === 'docs-1'), done.start(), done.turn(1)]
    expect(interruptedEnd(again)).toMatchObject({ numTurns: 1, toolUses: 0, usage: { costUsd: 0 } })
  })

  it('ends every run it cut off at the session’s last recorded moment: an agent waiting on the model worked until then', async () => {
    // The main agent's last event is its Agent calls; the subagent went on for a while after that.
    const events = fanOut()
    await recordCrashed(dataDir, sessionId, events)
    const last = events.at(-1)!
    const { index, agents } = await openSession(dataDir, sessionId)
    const mainEnd = agents.main.events.at(-1)!
    expect(mainEnd).toMatchObject({ type: 'agent_end', status: 'interrupted', ts: last.ts })
    expect(index.agents.main.endedAt).toBe(last.ts)
    const { state } = await replaySession(dataDir, sessionId, { checkpoint: false })
    // Elapsed time is true: not 0:00 for an agent whose own last event was its start.
    expect(state.agents.main.endedAt! - state.agents.main.startedAt).toBeGreaterThan(0)
    expect(state.agents.main.endedAt).toBe(last.ts)
  })

  it('reopens as interrupted: the session, the main agent and the subagent cut off; the finished one stays done', async () => {
    await recordCrashed(dataDir, sessionId, fanOut())
    const opened = await openSession(dataDir, sessionId)
    expect(opened.index.status).toBe('interrupted')
    expect(opened.interrupted.map((e) => e.agentId).sort()).toEqual(['explore-1', 'main'])
    expect(opened.index.agents['explore-1']).toMatchObject({ status: 'interrupted', error: INTERRUPTED_AGENT_ERROR })
    expect(opened.index.agents['docs-1'].status).toBe('completed')
    expect(opened.index.costUsd).toBeCloseTo(0.015) // counted once
    const { sessions } = await listSessions(dataDir)
    expect(sessions[0]).toMatchObject({ status: 'interrupted', agentCount: 3 })
  })

  it('is left alone while its writer still works', async () => {
    const recorder = createSessionRecorder({ dataDir, sessionId, cwd: '/repo' })
    for (const e of fanOut()) recorder.record(e)
    await recorder.flush()
    const opened = await openSession(dataDir, sessionId)
    expect(opened.interrupted).toEqual([])
    expect(opened.index.agents['explore-1'].status).toBe('running')
    expect(opened.index.status).toBe('running')
    await recorder.close()
  })

  it('folds to a state where nothing runs: no clock, its tool call cancelled, a notice where it stopped', async () => {
    const events = fanOut()
    await recordCrashed(dataDir, sessionId, events)
    const { state, index } = await replaySession(dataDir, sessionId)
    expect(index.status).toBe('interrupted')
    // Its time stops at its last event.
    expect(state.agents['explore-1']).toMatchObject({ status: 'interrupted', endedAt: events.at(-1)!.ts })
    expect(index.agents['explore-1'].endedAt).toBe(events.at(-1)!.ts)
    expect(state.agents.main.status).toBe('interrupted')
    expect(state.agents.main.endedAt).not.toBeNull()
    expect(state.tools['t-grep'].status).toBe('cancelled')
    expect(state.items['explore-1'].at(-1)).toMatchObject({ kind: 'notice', text: INTERRUPTED_AGENT_ERROR })
    expect(state.items['explore-1'].some((i) => i.kind === 'text' && i.streaming)).toBe(false)
  })

  it('folds as interrupted when its events came many to a millisecond (their seq runs ahead of their time)', async () => {
    // A live session numbers events in microseconds or, faster than that, one more than the last.
    let seq = 0
    const events = fanOut().map((e) => ({ ...e, ts: 1000, seq: (seq = Math.max(1000 * 1000, seq + 1)) }))
    await recordCrashed(dataDir, sessionId, events)
    const { state } = await replaySession(dataDir, sessionId)
    expect(state.agents['explore-1'].status).toBe('interrupted')
    expect(state.agents.main.status).toBe('interrupted')
  })

  it('does not read a checkpoint folded while its agents ran once their writer is gone', async () => {
    const recorder = createSessionRecorder({ dataDir, sessionId, cwd: '/repo' })
    for (const e of fanOut()) recorder.record(e)
    await recorder.flush()
    await replaySession(dataDir, sessionId, { refresh: true }) // checkpointed while running
    expect((await readViewCheckpoint(dataDir, sessionId))?.index.agents['explore-1'].status).toBe('running')
    await recorder.close() // the writer goes away; the transcripts did not change
    const { state } = await replaySession(dataDir, sessionId)
    expect(state.agents['explore-1'].status).toBe('interrupted')
  })

  it('is recorded by the process that takes the session over, before anything new', async () => {
    await recordCrashed(dataDir, sessionId, fanOut())
    const recorder = createSessionRecorder({ dataDir, sessionId, cwd: '/repo' })
    await recorder.ready
    recorder.record(cut.start({ agentType: 'Explore' })) // resumed
    recorder.record(cut.end('completed'))
    await recorder.close()
    const t = await readTranscript(transcriptPath(dataDir, sessionId, 'explore-1'))
    expect(t.events.slice(-3).map((e) => [e.type, 'status' in e ? e.status : ''])).toEqual([
      ['agent_end', 'interrupted'],
      ['agent_start', ''],
      ['agent_end', 'completed']
    ])
    const mainT = await readTranscript(transcriptPath(dataDir, sessionId, 'main'))
    expect(mainT.events.at(-1)).toMatchObject({ type: 'agent_end', status: 'interrupted' })
    const opened = await openSession(dataDir, sessionId)
    expect(opened.interrupted).toEqual([]) // on disk now
    expect(opened.index.agents['explore-1'].status).toBe('completed')
    expect(opened.index.agents.main.status).toBe('interrupted')
  })

  it('makes the session interrupted when agents still working after the main agent’s turn were cut off', async () => {
    const events = fanOut()
    events.splice(5, 0, { ...main.end('completed'), ts: events[4].ts }) // the main agent ended its turn; its agents went on
    await recordCrashed(dataDir, sessionId, events)
    expect((await openSession(dataDir, sessionId)).index.status).toBe('interrupted')
  })
})

describe('agents started in the same millisecond', () => {
  it('reopen in the order the live session saw them', async () => {
    const ts = Date.now()
    // Ids that sort against their order, so neither the name nor the directory listing gives it.
    const ids = ['z-first', 'm-second', 'a-third']
    const events: RecordedEvent[] = [{ ...main.start({ cwd: '/repo' }), ts: ts - 10 }]
    for (const agentId of ids) events.push({ ...eventsFor({ sessionId, agentId, parentAgentId: 'main', parentToolUseId: `t-${agentId}` }).start(), ts })
    await recordCrashed(dataDir, sessionId, events)
    const { state } = await replaySession(dataDir, sessionId)
    expect(state.agentOrder).toEqual(['main', ...ids])
  })
})
