import { describe, expect, it } from 'vitest'
import type { AgentEvent } from './events'
import { BUSY_STREAMS, createEventPump } from './event-pump'

const base = { parentAgentId: null, parentToolUseId: null, sessionId: 's1', ts: 1 }
const text = (agentId: string, t: string): AgentEvent => ({ ...base, agentId, type: 'text_delta', text: t })
const thinking = (agentId: string, t: string): AgentEvent => ({ ...base, agentId, type: 'thinking_delta', text: t })
const input = (agentId: string, toolUseId: string, partialJson: string): AgentEvent => ({ ...base, agentId, type: 'tool_input_delta', toolUseId, partialJson })
const status = (agentId: string): AgentEvent => ({ ...base, agentId, type: 'status', status: 'waiting_permission' })
const turn = (agentId: string): AgentEvent => ({ ...base, agentId, type: 'turn_start', turn: 2 })

/** A manual clock: timers fire only when the test says so. */
function harness() {
  const batches: AgentEvent[][] = []
  let pending: (() => void) | null = null
  let scheduled = 0
  const waits: number[] = []
  const pump = createEventPump({
    send: (b) => batches.push(b),
    schedule: (fn, ms) => {
      scheduled++
      waits.push(ms)
      pending = fn
      return () => (pending = null)
    }
  })
  const tick = () => {
    const fn = pending
    pending = null
    fn?.()
  }
  return { pump, batches, tick, waits, scheduledCount: () => scheduled, hasTimer: () => pending !== null }
}

describe('event pump', () => {
  it('holds text until the frame timer fires, then sends one batch', () => {
    const h = harness()
    h.pump.push(text('a', 'Hel'))
    h.pump.push(text('a', 'lo'))
    expect(h.batches).toEqual([])
    h.tick()
    expect(h.batches).toHaveLength(1)
    expect(h.batches[0]).toEqual([text('a', 'Hello')])
    expect(h.scheduledCount()).toBe(1)
  })

  it('merges deltas per agent even when agents interleave, keeping each agent in order', () => {
    const h = harness()
    for (let i = 0; i < 50; i++) {
      h.pump.push(text('a', `a${i} `))
      h.pump.push(text('b', `b${i} `))
    }
    h.tick()
    const [batch] = h.batches
    expect(batch).toHaveLength(2)
    expect((batch[0] as any).text).toBe(Array.from({ length: 50 }, (_, i) => `a${i} `).join(''))
    expect((batch[1] as any).text).toBe(Array.from({ length: 50 }, (_, i) => `b${i} `).join(''))
  })

  it('does not merge across a different event of the same agent, nor across streams', () => {
    const h = harness()
    h.pump.push([
      text('a', '1'),
      turn('a'),
      text('a', '2'),
      thinking('a', 'hm'),
      text('a', '3'),
      input('a', 't1', '{"a'),
      input('a', 't2', '{"b'),
      input('a', 't2', '":1}')
    ])
    h.tick()
    expect(h.batches[0].map((e) => e.type)).toEqual([
      'text_delta',
      'turn_start',
      'text_delta',
      'thinking_delta',
      'text_delta',
      'tool_input_delta',
      'tool_input_delta'
    ])
    expect((h.batches[0][6] as any).partialJson).toBe('{"b":1}')
  })

  it('gives a merged delta the place in the stream (seq) of its last part', () => {
    const h = harness()
    h.pump.push([
      { ...text('a', 'He'), seq: 10 },
      { ...text('a', 'll'), seq: 11 },
      { ...text('a', 'o'), seq: 12 }
    ])
    h.tick()
    expect(h.batches[0]).toEqual([{ ...text('a', 'Hello'), seq: 12 }])
  })

  it('sends what is queued at a barrier (an empty push), so no merged delta spans it', () => {
    const h = harness()
    h.pump.push([{ ...text('a', 'Hel'), seq: 1 }])
    h.pump.push([])
    h.pump.push([{ ...text('a', 'lo'), seq: 2 }])
    expect(h.batches).toEqual([[{ ...text('a', 'Hel'), seq: 1 }]])
    h.tick()
    expect(h.batches[1]).toEqual([{ ...text('a', 'lo'), seq: 2 }])
    h.pump.push([])
    expect(h.batches).toHaveLength(2) // nothing queued: nothing sent
  })

  it('sends a status change at once, with the text queued before it, never behind text', () => {
    const h = harness()
    h.pump.push(text('a', 'working'))
    h.pump.push(text('b', 'also'))
    h.pump.push(status('b'))
    expect(h.batches).toHaveLength(1)
    expect(h.batches[0].map((e) => `${e.agentId}:${e.type}`)).toEqual(['a:text_delta', 'b:text_delta', 'b:status'])
    expect(h.hasTimer()).toBe(false)
    // Text after the urgent event starts a new batch.
    h.pump.push(text('a', ' more'))
    expect(h.batches).toHaveLength(1)
    h.tick()
    expect(h.batches[1]).toEqual([text('a', ' more')])
  })

  it.each(['agent_start', 'agent_end', 'permission_request', 'tool_run', 'tool_end', 'error'] as const)('flushes immediately on %s', (type) => {
    const h = harness()
    h.pump.push({ ...base, agentId: 'a', type } as unknown as AgentEvent)
    expect(h.batches).toHaveLength(1)
  })

  it('never mutates the events it was given', () => {
    const h = harness()
    const first = text('a', 'x')
    h.pump.push(first)
    h.pump.push(text('a', 'y'))
    h.pump.push(text('a', 'z'))
    h.tick()
    expect(first).toEqual(text('a', 'x'))
    expect((h.batches[0][0] as any).text).toBe('xyz')
  })

  it('sends a large burst without waiting for the timer', () => {
    const batches: AgentEvent[][] = []
    const pump = createEventPump({ send: (b) => batches.push(b), schedule: () => () => {}, maxBatch: 10 })
    pump.push(Array.from({ length: 10 }, (_, i) => turn(`agent${i}`)))
    expect(batches).toHaveLength(1)
    expect(batches[0]).toHaveLength(10)
  })

  it('close flushes what is queued and drops later events', () => {
    const h = harness()
    h.pump.push(text('a', 'last words'))
    h.pump.close()
    h.pump.push(text('a', 'ignored'))
    h.tick()
    expect(h.batches).toEqual([[text('a', 'last words')]])
  })

  describe('with many agents streaming, a batch gathers for two frames', () => {
    const streamFrom = (h: ReturnType<typeof harness>, agents: number) => {
      for (let i = 0; i < agents; i++) h.pump.push(text(`agent${i}`, 'word '))
    }

    it('waits ~one frame while few stream, ~two once a batch carried more than BUSY_STREAMS agents, one again when they stop', () => {
      const h = harness()
      streamFrom(h, BUSY_STREAMS)
      h.tick()
      streamFrom(h, BUSY_STREAMS + 1)
      h.tick()
      streamFrom(h, 64)
      h.tick()
      streamFrom(h, 3)
      h.tick()
      streamFrom(h, 3)
      h.tick()
      expect(h.waits).toEqual([16, 16, 33, 33, 16])
      // Nothing is lost or reordered by the longer wait: every batch holds one merged delta per agent.
      expect(h.batches.map((b) => b.length)).toEqual([BUSY_STREAMS, BUSY_STREAMS + 1, 64, 3, 3])
    })

    it('counts agents from timer to timer: a status sent at once, with part of a batch, does not end the longer wait', () => {
      const h = harness()
      streamFrom(h, 20)
      h.tick()
      // 20 agents stream on; one of them asks for permission half-way (sent at once, with what came before it).
      for (let i = 0; i < 5; i++) h.pump.push(text(`agent${i}`, 'more '))
      h.pump.push(status('agent4'))
      for (let i = 5; i < 20; i++) h.pump.push(text(`agent${i}`, 'more '))
      h.tick()
      streamFrom(h, 20)
      h.tick()
      expect(h.batches.map((b) => b.length)).toEqual([20, 6, 15, 20])
      expect(h.waits).toEqual([16, 33, 33, 33])
    })

    it('the intervals and the threshold can be set', () => {
      const waits: number[] = []
      let due: (() => void) | null = null
      const pump = createEventPump({
        send: () => {},
        schedule: (fn, ms) => (waits.push(ms), (due = fn), () => {}),
        intervalMs: 8,
        busyIntervalMs: 50,
        busyStreams: 1
      })
      for (const batch of [[text('a', 'x')], [text('a', 'x'), text('b', 'y')], [text('a', 'z')], [text('a', 'z')]]) {
        pump.push(batch)
        ;(due as (() => void) | null)?.()
      }
      expect(waits).toEqual([8, 8, 50, 8])
    })
  })
})
