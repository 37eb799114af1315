import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { MAX_WAIT_MS, newTextCadence, takeDueEvents, turnsFor } from './text-cadence'

const clock = manualClock()
const agents = ['a', 'b', 'c', 'd'].map((id) => agentEvents('s', id, clock))
const [a, b, c] = agents
const FRAME = 16.7
const text = (e: AgentEvent) => (e.type === 'text_delta' ? `${e.agentId}:${e.text}` : `${e.agentId}:${e.type}`)

/** Runs frames at `interval` ms; each frame, every agent has one delta waiting. Returns what each frame drew. */
function frames(count: number, interval: number): string[][] {
  const cadence = newTextCadence()
  let pending: AgentEvent[] = []
  const drawn: string[][] = []
  for (let f = 0; f < count; f++) {
    pending = [...pending, ...agents.map((x) => x.text(`${f}`))]
    const { due, later } = takeDueEvents(pending, cadence, 1000 + f * interval)
    pending = later
    drawn.push(due.map(text))
  }
  return drawn
}

describe('takeDueEvents', () => {
  it('at full frame rate, draws half the agents in one frame and the other half in the next, losing nothing', () => {
    const drawn = frames(4, FRAME)
    expect(drawn[0]).toEqual(['a:0', 'b:0', 'c:0', 'd:0']) // not at full rate yet: one frame is no rate
    expect(drawn[1]).toEqual(['b:1', 'd:1'])
    expect(drawn[2]).toEqual(['a:1', 'c:1', 'a:2', 'c:2'])
    expect(drawn[3]).toEqual(['b:2', 'd:2', 'b:3', 'd:3'])
  })

  it('with more than a dozen agents streaming, draws a third of them each frame, then halves again when fewer stream', () => {
    const many = Array.from({ length: 16 }, (_, i) => agentEvents('s', `m${i}`, clock))
    const cadence = newTextCadence()
    let pending: AgentEvent[] = []
    const drawnAt: number[][] = Array.from({ length: 16 }, () => [])
    const run = (streaming: typeof many, from: number, count: number) => {
      for (let f = from; f < from + count; f++) {
        pending = [...pending, ...streaming.map((x) => x.text(`${f}`))]
        const { due, later } = takeDueEvents(pending, cadence, 1000 + f * FRAME)
        pending = later
        for (const e of due) drawnAt[Number(e.agentId.slice(1))].push(f)
      }
    }
    run(many, 0, 30)
    // Each agent is drawn every third frame: ten times in 30 frames (the first frame draws everyone).
    for (const frames of drawnAt) expect(new Set(frames).size).toBeGreaterThanOrEqual(10)
    for (const frames of drawnAt) expect(new Set(frames).size).toBeLessThanOrEqual(11)
    const perFrame = Array.from({ length: 30 }, (_, f) => drawnAt.filter((fs) => fs.includes(f)).length)
    expect(Math.max(...perFrame.slice(1))).toBeLessThanOrEqual(6)
    // Four keep streaming; once the others have been quiet a while, the four take turns in halves again.
    for (const fs of drawnAt) fs.length = 0
    run(many.slice(0, 4), 30, 80)
    const lastFrames = Array.from({ length: 10 }, (_, i) => 100 + i)
    const drawnInLast = lastFrames.map((f) => drawnAt.filter((fs) => fs.includes(f)).length)
    expect(drawnInLast.every((n) => n === 2)).toBe(true)
    expect(pending.every((e) => Number(e.agentId.slice(1)) < 4)).toBe(true) // nothing of the others is left behind
  })

  it('keeps nothing back when frames are slow', () => {
    for (const f of frames(5, MAX_WAIT_MS.few + 8)) expect(f).toHaveLength(4)
  })

  it('with many agents at ~30 Hz (a busy machine), still draws half of them a frame; slower, all', () => {
    expect(turnsFor(16.7, true)).toBe(3)
    expect(turnsFor(33.4, true)).toBe(2)
    expect(turnsFor(MAX_WAIT_MS.many + 1, true)).toBe(1)
    expect(turnsFor(16.7, false)).toBe(2)
    expect(turnsFor(33.4, false)).toBe(1)
    const many = Array.from({ length: 16 }, (_, i) => agentEvents('s', `h${i}`, clock))
    const cadence = newTextCadence()
    let pending: AgentEvent[] = []
    const perFrame: number[] = []
    for (let f = 0; f < 20; f++) {
      pending = [...pending, ...many.map((x) => x.text(`${f}`))]
      const { due, later } = takeDueEvents(pending, cadence, 1000 + f * 33.4)
      pending = later
      perFrame.push(new Set(due.map((e) => e.agentId)).size)
    }
    expect(perFrame.slice(2)).toEqual(Array(18).fill(8))
  })

  it('holds an agent back no more frames than the turns allow, when the frame rate changes under it', () => {
    const many = Array.from({ length: 16 }, (_, i) => agentEvents('s', `r${i}`, clock))
    const cadence = newTextCadence()
    let pending: AgentEvent[] = []
    let t = 1000
    const lastDrawn = new Map<string, number>()
    let longest = 0
    for (let f = 0; f < 120; f++) {
      t += [16.7, 33.4, 25, 16.7, 45][Math.floor(f / 7) % 5]
      pending = [...pending, ...many.map((x) => x.text(`${f}`))]
      const { due, later } = takeDueEvents(pending, cadence, t)
      pending = later
      for (const e of due) lastDrawn.set(e.agentId, f)
      for (const x of many) longest = Math.max(longest, f - (lastDrawn.get(x.text('').agentId) ?? f))
    }
    expect(longest).toBeLessThanOrEqual(2) // thirds: held at most two frames
  })

  it('draws an agent at once, text first, when anything but text of it is waiting', () => {
    const cadence = newTextCadence()
    takeDueEvents([a.text('0'), b.text('0')], cadence, 1000)
    const { due, later } = takeDueEvents([a.text('1'), b.text('1'), c.text('1'), a.toolStart('t1', 'Read'), b.text('2')], cadence, 1000 + FRAME)
    expect(due.map(text)).toEqual(['a:1', 'b:1', 'a:tool_start', 'b:2'])
    expect(later.map(text)).toEqual(['c:1'])
  })

  it("lets an agent's figures (usage) take their turn with its text, in its order", () => {
    const cadence = newTextCadence()
    takeDueEvents([a.text('0'), b.text('0')], cadence, 1000)
    const { due, later } = takeDueEvents([a.text('1'), b.text('1'), b.usage({ outputTokens: 10 }), a.usage({ outputTokens: 10 })], cadence, 1000 + FRAME)
    expect(due.map(text)).toEqual(['b:1', 'b:usage'])
    expect(later.map(text)).toEqual(['a:1', 'a:usage'])
    // Its turn: text and figures together.
    expect(takeDueEvents(later, cadence, 1000 + 2 * FRAME).due.map(text)).toEqual(['a:1', 'a:usage'])
  })
})
