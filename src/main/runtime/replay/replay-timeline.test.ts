// Replay against the live view: events go through the recorder as a live session's do (deltas merged
// into lines, interleaved with other agents), and at every moment the replay offers, its frame equals the
// live fold of every event up to that seq. Moments inside a merged line are never offered.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import type { RecordedEvent } from '../store/transcript/migrations'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { applyEvents } from '../../../shared/view/reducer'
import { emptyEventsState, emptySession, type SessionState } from '../../../shared/view/session-state'
import { recordClosed, tempDataDir } from '../store/test-fixtures'
import { ReplaySession, steps } from './replay-timeline'

let dataDir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())

const SID = 'replay-1'

/** A two-agent fan-out whose streams interleave, seq'd as the bus does. */
function liveEvents(): AgentEvent[] {
  const clock = manualClock()
  const main = agentEvents(SID, 'main', clock)
  const a = agentEvents(SID, 'a', clock, { agentId: 'main', toolUseId: 'ta' })
  const b = agentEvents(SID, 'b', clock, { agentId: 'main', toolUseId: 'tb' })
  const out: AgentEvent[] = []
  let seq = 1_700_000_000_000_000
  const push = (e: AgentEvent) => {
    out.push({ ...e, seq: ++seq })
    clock.advance(3)
  }
  push(main.start({ prompt: 'Fan out' }))
  push(
    main.assistant([
      { type: 'tool_use', id: 'ta', name: 'Agent', input: {} },
      { type: 'tool_use', id: 'tb', name: 'Agent', input: {} }
    ])
  )
  push(main.toolRun('ta', 'Agent', {}))
  push(main.toolRun('tb', 'Agent', {}))
  push(a.start({ description: 'Alpha task' }))
  push(b.start({ description: 'Beta task' }))
  for (let i = 0; i < 6; i++) {
    push(a.text(`alpha ${i} `))
    push(b.text(`beta ${i} `))
  }
  push(a.assistant('alpha 0 alpha 1 alpha 2 alpha 3 alpha 4 alpha 5 '))
  push(a.toolRun('t1', 'Read', { file_path: 'x.ts' }))
  push(b.permissionRequest('r1', 'Bash', { command: 'ls' }, { toolUseId: 'tb1' }))
  push(a.toolEnd('t1', 'Read', 'file body'))
  push(b.permissionResponse('r1', 'allow'))
  push(a.end('completed', { result: 'alpha done' }))
  push(b.end('completed', { result: 'beta done' }))
  push(main.end('completed', { result: 'both done' }))
  return out
}

async function record(events: AgentEvent[]): Promise<void> {
  // A long flush delay: each agent's consecutive deltas merge into one line, as under load.
  await recordClosed({ dataDir, sessionId: SID, cwd: '/work/project', flushDelayMs: 1000 }, events)
}

const liveAt = (events: AgentEvent[], seq: number): SessionState =>
  applyEvents(
    emptyEventsState(),
    events.filter((e) => e.seq! <= seq)
  ).sessions[SID] ?? emptySession(SID)

/** What a person sees: agents, transcripts, tools and requests (not counters of lines). */
function seen(s: SessionState) {
  return { agents: s.agents, items: s.items, tools: s.tools, permissions: s.permissions, queue: s.permissionQueue, usage: s.usage, order: s.agentOrder }
}

describe('replay', () => {
  it('shows at every moment it offers exactly the live view at that seq', async () => {
    const live = liveEvents()
    await record(live)
    const replay = await ReplaySession.load(dataDir, SID)
    // Merged lines: fewer lines than events, and the moments inside them are not offered.
    expect(replay.events.length).toBeLessThan(live.length)
    expect(replay.stepCount).toBeLessThan(replay.events.length)
    let compared = 0
    for (let step = 0; step < replay.stepCount; step++) {
      const { state, seq } = replay.frame(step)
      expect(seen(state), `step ${step} at ${seq}`).toEqual(seen(liveAt(live, seq)))
      compared++
    }
    expect(compared).toBeGreaterThan(5)
    // A moment between offered ones shows the last offered one before it.
    const mid = replay.frame(replay.stepAt(live[10].seq!))
    expect(mid.seq).toBeLessThanOrEqual(live[10].seq!)
    // The last frame is the session as it ended.
    expect(seen(replay.frame(replay.stepCount - 1).state)).toEqual(seen(liveAt(live, Infinity)))
  })

  it('plays forward in steps that rebuild the same frames', async () => {
    const live = liveEvents()
    await record(live)
    const replay = await ReplaySession.load(dataDir, SID)
    let state = replay.frame(2).state
    let at = replay.frame(2).seq
    for (;;) {
      const { steps: next, done } = replay.stepsAfter(at, 3)
      for (const s of next) {
        state = applyEvents({ sessions: { [SID]: state } }, s).sessions[SID]
        at = s[s.length - 1].seq!
        expect(seen(state)).toEqual(seen(liveAt(live, at)))
      }
      if (done) break
    }
    expect(at).toBe(live.at(-1)!.seq)
    const tl = replay.timeline()
    expect(tl.marks.map((m) => m.kind)).toEqual(['start', 'start', 'start', 'permission', 'end', 'end', 'end'])
    expect(tl.activity.reduce((x, y) => x + y, 0)).toBe(replay.events.length)
  })

  it('keyframes give the same frames as folding from the start, on a long session', () => {
    const clock = manualClock()
    const a = agentEvents(SID, 'main', clock)
    const events: AgentEvent[] = [a.start()]
    for (let i = 0; i < 3000; i++) events.push(a.turnStart(i), a.text(`t${i}`), a.assistant(`t${i}`), a.turnEnd(i))
    const seqd = events.map((e, i) => ({ ...e, seq: 1000 + i }))
    const replay = ReplaySession.fromEvents(SID, seqd)
    for (const step of [0, 499, 500, 501, 7777, 12000]) expect(seen(replay.frame(step).state)).toEqual(seen(liveAt(seqd, replay.frame(step).seq)))
  })

  it('never ends a step inside a merged line', () => {
    const e = (seq: number, firstSeq?: number) =>
      ({
        type: 'turn_start',
        turn: 1,
        agentId: 'x',
        parentAgentId: null,
        parentToolUseId: null,
        sessionId: SID,
        ts: 1,
        seq,
        ...(firstSeq ? { firstSeq } : {})
      }) as RecordedEvent
    // Lines by place: 1, 2, 3 (merged from 1.5), 4, 6 (merged from 5), 7.
    const { places } = steps([e(1), e(2), e(3, 1.5), e(4), e(6, 5), e(7)])
    expect(places).toEqual([1, 3, 4, 6, 7])
  })
})
