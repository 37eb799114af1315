import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { FULL_RATE_FRAME_MS, newTextCadence, takeDueEvents } from './text-cadence'

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

  it('keeps nothing back when frames are slow', () => {
    for (const f of frames(5, FULL_RATE_FRAME_MS + 1)) expect(f).toHaveLength(4)
  })

  it('draws an agent at once, text first, when anything but text of it is waiting', () => {
    const cadence = newTextCadence()
    takeDueEvents([a.text('0'), b.text('0')], cadence, 1000)
    const { due, later } = takeDueEvents([a.text('1'), b.text('1'), c.text('1'), a.toolStart('t1', 'Read'), b.text('2')], cadence, 1000 + FRAME)
    expect(due.map(text)).toEqual(['a:1', 'b:1', 'a:tool_start', 'b:2'])
    expect(later.map(text)).toEqual(['c:1'])
  })
})
