// The view a recorder keeps folded while it records: closing writes the view checkpoint from it, without
// reading a transcript back, and that checkpoint is exactly what a replay of the transcripts folds.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import type { SessionState } from '../../../shared/view/session-state'
import { openSession } from './open-session'
import { foldSession, replaySession } from './session-fold'
import { createSessionRecorder } from './session-recorder'
import { eventsFor, recordCrashed, tempDataDir } from './test-fixtures'
import { readTranscript } from './transcript/reader'
import { readViewCheckpoint } from './view-checkpoint'
import { FOLD_BACKLOG, ViewFold } from './view-fold'
import type { RecordedEvent } from './transcript/migrations'

// Counts transcript reads; every call still reads the file.
vi.mock('./transcript/reader', async (importOriginal) => {
  const mod = await importOriginal<typeof import('./transcript/reader')>()
  return { ...mod, readTranscript: vi.fn(mod.readTranscript) }
})
const reads = vi.mocked(readTranscript)

let dataDir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())

const sessionId = 'sess-fold'
const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 }

// Events as a live session emits them: every one with a seq, strictly increasing across the session.
let seq = 1_700_000_000_000_000
const withSeq = (e: AgentEvent): AgentEvent => ({ ...e, seq: ++seq })
const agent = (agentId: string, parentAgentId: string | null, parentToolUseId: string | null) => {
  const b = eventsFor({ sessionId, agentId, parentAgentId, parentToolUseId })
  return {
    start: (o: Parameters<typeof b.start>[0] = {}) => withSeq(b.start(o)),
    text: (t: string) => withSeq(b.text(t)),
    thinking: (t: string) => withSeq(b.ev({ type: 'thinking_delta', text: t })),
    ev: (p: Parameters<typeof b.ev>[0]) => withSeq(b.ev(p)),
    message: (m: Parameters<typeof b.message>[0]) => withSeq(b.message(m)),
    say: (text: string) => withSeq(b.message({ role: 'assistant', content: text })),
    user: (text: string) => withSeq(b.message({ role: 'user', content: text })),
    end: (status: Parameters<typeof b.end>[0] = 'completed') => withSeq(b.end(status))
  }
}

/**
 * Two agents streaming at once: deltas an assistant message repeats, deltas a retry voids, deltas a failed
 * turn leaves as the only record, tool input streamed in pieces, and one agent's deltas merged into one
 * line around the other agent's events (its place moves to its last piece).
 */
function busySession(): AgentEvent[] {
  const main = agent('main', null, null)
  const child = agent('child-1', 'main', 't-agent')
  return [
    main.start({ cwd: '/repo', prompt: 'Survey the repo' }),
    main.user('Survey the repo'),
    main.ev({ type: 'turn_start', turn: 1 }),
    main.thinking('Let me '),
    main.thinking('delegate.'),
    main.ev({ type: 'tool_start', toolUseId: 't-agent', name: 'Agent' }),
    main.ev({ type: 'tool_input_delta', toolUseId: 't-agent', partialJson: '{"description":' }),
    main.ev({ type: 'tool_input_delta', toolUseId: 't-agent', partialJson: '"Look"}' }),
    main.message({ role: 'assistant', content: [{ type: 'tool_use', id: 't-agent', name: 'Agent', input: { description: 'Look' } }] }),
    main.ev({ type: 'tool_run', toolUseId: 't-agent', name: 'Agent', input: { description: 'Look' } }),
    child.start({ description: 'Look' }),
    child.ev({ type: 'turn_start', turn: 1 }),
    child.text('Half an '),
    main.ev({ type: 'status', status: 'running', detail: 'waiting for Look' }),
    child.text('answer, '),
    child.ev({ type: 'error', message: 'Overloaded', retrying: true }),
    child.text('A whole '),
    main.ev({ type: 'usage', model: 'claude-sonnet-5-5', usage: { ...usage, inputTokens: 30, costUsd: 0.01 } }),
    child.text('answer.'),
    child.say('A whole answer.'),
    child.ev({ type: 'turn_end', turn: 1, stopReason: 'end_turn' }),
    child.ev({ type: 'turn_start', turn: 2 }),
    child.text('Cut '),
    main.ev({ type: 'message_received', from: 'child-1', text: 'progress: looking' }),
    child.text('off.'),
    child.ev({ type: 'error', message: 'Overloaded (gave up)', retrying: false }),
    child.ev({ type: 'turn_end', turn: 2, stopReason: 'error' }),
    child.end('failed'),
    main.ev({ type: 'tool_end', toolUseId: 't-agent', name: 'Agent', isError: true, output: 'Look failed', durationMs: 9 }),
    main.text('The helper '),
    main.text('failed.'),
    main.say('The helper failed.'),
    main.ev({ type: 'turn_end', turn: 1, stopReason: 'end_turn' }),
    main.end('completed')
  ]
}

async function record(events: AgentEvent[], flushDelayMs = 16): Promise<void> {
  const recorder = createSessionRecorder({
    dataDir,
    sessionId,
    cwd: '/repo',
    flushDelayMs,
    onError: (err) => {
      throw err
    }
  })
  await recorder.ready
  for (const e of events) recorder.record(e)
  reads.mockClear()
  await recorder.close()
}

/** What a replay of the transcripts (no checkpoint) folds, and the index it rebuilds. */
async function replayed() {
  const opened = await openSession(dataDir, sessionId, { skipSettledDeltas: true })
  return { state: foldSession(opened), index: opened.index }
}

describe('closing a recorder', () => {
  it('writes the view checkpoint without reading a transcript back', async () => {
    await record(busySession())
    expect(reads).not.toHaveBeenCalled()
    const cp = await readViewCheckpoint<SessionState>(dataDir, sessionId)
    expect(cp).not.toBeNull()
    const fromCheckpoint = await replaySession(dataDir, sessionId)
    expect(fromCheckpoint.seen).toBeUndefined() // the checkpoint was used, not a replay
    expect(fromCheckpoint.state.items['child-1'].map((i) => ('text' in i ? i.text : i.kind))).toContain('Cut off.')
  })

  it('can leave the checkpoint until after the lock is let go: it covers the transcripts as close left them, and a later writer makes it stale, never wrong', async () => {
    const recorder = createSessionRecorder({ dataDir, sessionId, cwd: '/repo' })
    await recorder.ready
    for (const e of busySession()) recorder.record(e)
    await recorder.close({ checkpoint: false })
    expect(await readViewCheckpoint(dataDir, sessionId)).toBeNull() // the answer can be printed first
    await recorder.checkpoint()
    const cp = await readViewCheckpoint<SessionState>(dataDir, sessionId)
    expect(cp!.state).toEqual((await replayed()).state)

    // The same, with another process taking the session over before the late checkpoint lands.
    await cleanup()
    ;({ dir: dataDir, cleanup } = await tempDataDir())
    const first = createSessionRecorder({ dataDir, sessionId, cwd: '/repo' })
    await first.ready
    for (const e of busySession()) first.record(e)
    await first.close({ checkpoint: false })
    const main = agent('main', null, null)
    await record([main.start({ cwd: '/repo', prompt: 'Go on' }), main.user('Go on'), main.say('Went on.'), main.end('completed')])
    await first.checkpoint() // late: after the second writer's close
    const fromDisk = await replaySession(dataDir, sessionId)
    expect(fromDisk.state).toEqual((await replayed()).state)
    expect(fromDisk.state.items.main.map((i) => ('text' in i ? i.text : i.kind))).toContain('Went on.')
  })

  it('checkpoints exactly what a replay of the transcripts folds, however the lines were batched', async () => {
    for (const flushDelayMs of [0, 16, 1000]) {
      await cleanup()
      ;({ dir: dataDir, cleanup } = await tempDataDir())
      await record(busySession(), flushDelayMs)
      const cp = await readViewCheckpoint<SessionState>(dataDir, sessionId)
      const replay = await replayed()
      expect(cp!.state).toEqual(replay.state)
      expect((await replaySession(dataDir, sessionId)).index).toEqual(replay.index)
    }
  })

  it('checkpoints a session taken over after a crash the way a replay reads it, runs cut off included', async () => {
    const main = agent('main', null, null)
    const child = agent('child-1', 'main', 't-agent')
    // The first process crashed while main streamed and its child worked.
    await recordCrashed(dataDir, sessionId, [
      main.start({ cwd: '/repo' }),
      main.ev({ type: 'tool_run', toolUseId: 't-agent', name: 'Agent', input: { description: 'Look' } }),
      child.start({ description: 'Look' }),
      child.text('Still looking'),
      main.text('Waiting on the '),
      main.text('helper')
    ])
    // A second process takes the session over and runs a follow-up to its end.
    await record([
      main.start({ cwd: '/repo', prompt: 'Go on' }),
      main.user('Go on'),
      main.text('Going '),
      main.text('on.'),
      main.say('Going on.'),
      main.end('completed')
    ])
    expect(reads).not.toHaveBeenCalled()
    const cp = await readViewCheckpoint<SessionState>(dataDir, sessionId)
    const replay = await replayed()
    expect(cp!.state).toEqual(replay.state)
    expect(cp!.state.agents['child-1'].status).toBe('interrupted')
    expect(cp!.state.items.main.map((i) => ('text' in i ? i.text : i.kind))).toEqual(expect.arrayContaining(['Waiting on the helper', 'Going on.']))
    expect((await replaySession(dataDir, sessionId)).index).toEqual(replay.index)
  })

  it('folds each event in its place while it records, even one that arrived while another agent streamed', async () => {
    // The recorder folds as it goes (at each index write). A team message is keyed by how many events
    // came before it: folded ahead of the child's reply that streamed before it, its key would differ
    // from a replay's.
    const main = agent('main', null, null)
    const child = agent('child-1', 'main', 't-agent')
    const team = {
      name: 'crew',
      description: 'docs',
      leadAgentId: 'main',
      members: [{ name: 'ada', agentId: 'child-1', agentType: 'general-purpose', status: 'working' as const }],
      tasks: [],
      requests: [],
      status: 'active' as const,
      createdAt: 1
    }
    const recorder = createSessionRecorder({
      dataDir,
      sessionId,
      cwd: '/repo',
      indexIntervalMs: 1,
      onError: (err) => {
        throw err
      }
    })
    await recorder.ready
    const pause = () => new Promise((resolve) => setTimeout(resolve, 30)) // an index write, and a fold, happen
    for (const e of [
      main.start({ cwd: '/repo' }),
      main.ev({ type: 'team', team }),
      child.start({ description: 'Look' }),
      child.ev({ type: 'turn_start', turn: 1 })
    ])
      recorder.record(e)
    await pause()
    recorder.record(child.text('Partial reply'))
    recorder.record(main.ev({ type: 'message_received', from: 'child-1', text: 'progress: halfway' }))
    recorder.record(main.ev({ type: 'status', status: 'running' }))
    await pause()
    for (const e of [child.ev({ type: 'turn_end', turn: 1, stopReason: 'error' }), child.end('failed'), main.end('completed')]) recorder.record(e)
    await pause()
    reads.mockClear()
    await recorder.close()
    expect(reads).not.toHaveBeenCalled()
    const cp = await readViewCheckpoint<SessionState>(dataDir, sessionId)
    const replay = await replayed()
    expect(cp!.state.teamMessages).toHaveLength(1)
    expect(cp!.state).toEqual(replay.state)
  })

  it('still checkpoints a session closed while a run had no end, through a replay that ends it as interrupted', async () => {
    const main = agent('main', null, null)
    await record([main.start({ cwd: '/repo' }), main.text('Half a reply')])
    const cp = await readViewCheckpoint<SessionState>(dataDir, sessionId)
    expect(cp!.state).toEqual((await replayed()).state)
    expect(cp!.state.agents.main.status).toBe('interrupted')
  })

  it('does not sort the lines held behind an open stream again at every line', () => {
    // One agent thinks at length (its deltas undecided until its stream ends) while 63 others run tools: every
    // line after its first delta waits, however many come.
    const fold = new ViewFold(sessionId)
    const agents = Array.from({ length: 64 }, (_, i) => agent(`a${i}`, null, null))
    const line = (e: AgentEvent) => {
      fold.line(e as RecordedEvent)
      fold.foldBacklog() // as the recorder does at every line
    }
    for (const a of agents) line(a.start({ cwd: '/repo' }))
    for (const a of agents) line(a.ev({ type: 'turn_start', turn: 1 }))
    const [thinker, ...workers] = agents
    for (let i = 0; i < 80; i++) {
      line(thinker.thinking(`step ${i}. `))
      for (const [n, a] of workers.entries()) {
        const id = `t${n}-${i}`
        line(a.ev({ type: 'tool_start', toolUseId: id, name: 'Read' }))
        line(a.ev({ type: 'tool_run', toolUseId: id, name: 'Read', input: { file_path: `f${i}` } }))
        line(a.ev({ type: 'tool_end', toolUseId: id, name: 'Read', output: 'ok', isError: false, durationMs: 1 }))
      }
    }
    const waiting = fold.pending
    expect(waiting).toBeGreaterThan(10_000)
    // A try per FOLD_BACKLOG lines come since the last, not one per line (it was ~13,000 here).
    expect(fold.attempts).toBeLessThanOrEqual(Math.ceil(waiting / FOLD_BACKLOG) + 1)
    // The thinking ends: at the next index write's fold, everything folds, in place order.
    line(thinker.ev({ type: 'turn_end', turn: 1, stopReason: 'end_turn' }))
    fold.fold()
    expect(fold.pending).toBe(0)
    const state = fold.finish()
    expect(state.items.a0[0]).toMatchObject({ kind: 'thinking', text: expect.stringMatching(/^step 0\. .*step 79\. $/) })
    expect(Object.keys(state.tools)).toHaveLength(63 * 80)
  })
})
