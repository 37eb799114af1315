import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { MAX_WAIT_MS, newTextCadence, takeDueEvents, turnsFor } from './text-cadence'

const clock = manualClock()
const agents = ['a', 'b', 'c', 'd'].map((id) => agentEvents('s', id, clock))
const [a, b, c] = agents
const FRAME = 16.7
const text = (e: AgentEvent) => (e.type === 'text_delta' ? `${e.agentId}:${e.text}` : `${e.agentId}:${e.type}`)
const fleet = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => agentEvents('s', `${prefix}${i}`, clock))

/**
 * Runs frames at `interval` ms; each frame, every agent of `who` has a delta waiting, and its model call's
 * figures too every `figuresEvery` frames. Returns, per frame, which agents' text and which agents'
 * figures it drew, and what is left waiting.
 */
function run(who: ReturnType<typeof agentEvents>[], count: number, interval: number | number[], figuresEvery = 0) {
  const cadence = newTextCadence()
  let pending: AgentEvent[] = []
  let t = 1000
  const texts: string[][] = []
  const figures: string[][] = []
  for (let f = 0; f < count; f++) {
    t += Array.isArray(interval) ? interval[Math.floor(f / 7) % interval.length] : interval
    pending = [...pending, ...who.flatMap((x) => (figuresEvery && f % figuresEvery === 0 ? [x.text(`${f}`), x.usage({ outputTokens: f })] : [x.text(`${f}`)]))]
    const { due, later } = takeDueEvents(pending, cadence, t)
    pending = later
    texts.push(due.filter((e) => e.type === 'text_delta').map(text))
    figures.push([...new Set(due.filter((e) => e.type === 'usage').map((e) => e.agentId))])
  }
  return { texts, figures, pending }
}

describe('takeDueEvents', () => {
  it("draws every agent's text at the next frame, with many agents at full frame rate", () => {
    const many = fleet('t', 64)
    const { texts, pending } = run(many, 30, FRAME)
    texts.forEach((drawn, f) => expect(drawn).toEqual(many.map((x) => `${x.text('').agentId}:${f}`)))
    expect(pending).toEqual([])
  })

  it('with more than a dozen agents, draws a third of their figures each frame; the text before the figures is drawn now, the text after them waits with them', () => {
    const many = fleet('m', 16)
    const { texts, figures } = run(many, 6, FRAME, 3)
    // Frame 0 draws everyone (one frame is no rate); frame 3's figures go in thirds over frames 3, 4 and 5.
    expect(figures[0]).toHaveLength(16)
    expect(figures[3].length + figures[4].length + figures[5].length).toBe(16)
    for (const f of [3, 4, 5]) expect(figures[f].length).toBeLessThanOrEqual(6)
    // At frame 3, every agent's text of frame 3 (before its figures) is drawn; the figures of one not in turn,
    // and its text of frame 4 after them, are drawn together in its turn, in order.
    expect(texts[3]).toHaveLength(16)
    const late = figures[5][0]
    expect(texts[4]).not.toContain(`${late}:4`)
    expect(texts[5]).toEqual(expect.arrayContaining([`${late}:4`, `${late}:5`]))
  })

  it('with a few agents, their figures take turns in halves; with slow frames, nothing waits', () => {
    const { figures } = run(agents, 4, FRAME, 1)
    expect(figures.slice(1).map((f) => f.length)).toEqual([2, 2, 2])
    const slow = run(agents, 5, MAX_WAIT_MS.few + 8, 1)
    for (const f of slow.figures) expect(f).toHaveLength(4)
    for (const t of slow.texts) expect(t).toHaveLength(4)
  })

  it('with many agents at ~30 Hz (a busy machine), still draws half their figures a frame; slower, all', () => {
    expect(turnsFor(16.7, true)).toBe(3)
    expect(turnsFor(33.4, true)).toBe(2)
    expect(turnsFor(MAX_WAIT_MS.many + 1, true)).toBe(1)
    expect(turnsFor(16.7, false)).toBe(2)
    expect(turnsFor(33.4, false)).toBe(1)
    const { figures } = run(fleet('h', 16), 20, 33.4, 1)
    expect(figures.slice(2).map((f) => f.length)).toEqual(Array(18).fill(8))
  })

  it("holds an agent's figures back no more frames than the turns allow, when the frame rate changes under it", () => {
    const many = fleet('r', 16)
    const { figures } = run(many, 120, [16.7, 33.4, 25, 16.7, 45], 1)
    const lastDrawn = new Map<string, number>()
    let longest = 0
    figures.forEach((drawn, f) => {
      for (const id of drawn) lastDrawn.set(id, f)
      for (const x of many) longest = Math.max(longest, f - (lastDrawn.get(x.text('').agentId) ?? f))
    })
    expect(longest).toBeLessThanOrEqual(2) // thirds: held at most two frames
  })

  it('draws all of an agent at once, figures first, when anything but text and figures of it is waiting', () => {
    const cadence = newTextCadence()
    takeDueEvents([a.text('0'), b.text('0'), c.text('0')], cadence, 1000)
    // Frame 1, in halves: b's turn, not a's or c's.
    const { due, later } = takeDueEvents(
      [a.usage({ outputTokens: 1 }), c.text('1'), c.usage({ outputTokens: 1 }), a.toolStart('t1', 'Read'), c.text('2')],
      cadence,
      1000 + FRAME
    )
    expect(due.map(text)).toEqual(['a:usage', 'c:1', 'a:tool_start'])
    expect(later.map(text)).toEqual(['c:usage', 'c:2'])
    // Its turn: figures and the text after them together.
    expect(takeDueEvents(later, cadence, 1000 + 2 * FRAME).due.map(text)).toEqual(['c:usage', 'c:2'])
  })
})
