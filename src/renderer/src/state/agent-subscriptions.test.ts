import { afterEach, describe, expect, it } from 'vitest'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { subscribeAgent } from './agent-subscriptions'
import { receiveEvents, resetStore, ui, useApp } from './store'

const clock = manualClock()
const main = agentEvents('s1', 'main', clock)
const a = agentEvents('s1', 'a', clock, { agentId: 'main', toolUseId: 't1' })
const b = agentEvents('s1', 'b', clock, { agentId: 'main', toolUseId: 't2' })

/** Counts what each agent's keyed subscriber is told from here on. */
function told(): { a: number; b: number; stop(): void } {
  const count = { a: 0, b: 0 }
  const offA = subscribeAgent('s1', 'a', () => count.a++)
  const offB = subscribeAgent('s1', 'b', () => count.b++)
  return {
    get a() {
      return count.a
    },
    get b() {
      return count.b
    },
    stop() {
      offA()
      offB()
    }
  }
}

afterEach(() => resetStore())

describe('agent-keyed subscriptions', () => {
  const start = () => receiveEvents([main.start(), a.start({ description: 'A' }), b.start({ description: 'B' }), a.text('Reading '), b.text('Listing ')])

  it('tells only the agents whose text streamed, when a frame holds streamed output alone', () => {
    start()
    const t = told()
    receiveEvents([a.text('the lexer'), a.thinking('hmm'), a.toolStart('t9', 'Read'), a.toolInput('t9', '{"file')])
    // tool_start is not output: that frame told both. Text and a tool's input after it tell A alone.
    expect([t.a, t.b]).toEqual([1, 1])
    receiveEvents([a.text(' and'), a.toolInput('t9', '_path":"x"}')])
    expect([t.a, t.b]).toEqual([2, 1])
    receiveEvents([b.text('files')])
    expect([t.a, t.b]).toEqual([2, 2])
    // What A's tile reads changed for A; B's text is B's alone.
    const s = useApp.getState().events.sessions.s1
    expect(s.items.b.at(-1)).toMatchObject({ kind: 'text', text: 'Listing files' })
    t.stop()
  })

  it('tells only the agents whose model calls ended, when a frame holds their usage and output alone; the session’s totals still change', () => {
    start()
    const t = told()
    let sessionTold = 0
    const offStore = useApp.subscribe(() => sessionTold++)
    receiveEvents([a.usage({ inputTokens: 10, outputTokens: 5, costUsd: 0.25 }), a.text(' more')])
    expect([t.a, t.b]).toEqual([1, 0])
    receiveEvents([b.usage({ inputTokens: 20, outputTokens: 5, costUsd: 0.5 })])
    expect([t.a, t.b]).toEqual([1, 1])
    // The header's totals read the session through the store's own subscription: told of both.
    expect(sessionTold).toBe(2)
    const s = useApp.getState().events.sessions.s1
    expect(s.usage.costUsd).toBeCloseTo(0.75)
    expect(s.agents.a.usage.inputTokens).toBe(10)
    offStore()
    t.stop()
  })

  it('tells every agent of anything else: a status, an end, a UI change', () => {
    start()
    const t = told()
    receiveEvents([a.text('x'), b.status('waiting_permission')])
    expect([t.a, t.b]).toEqual([1, 1])
    receiveEvents([a.usage({ inputTokens: 10, outputTokens: 5 }), a.turnStart(2)])
    expect([t.a, t.b]).toEqual([2, 2])
    ui.focusAgent('a')
    expect([t.a, t.b]).toEqual([3, 3])
    receiveEvents([b.end('completed', { result: 'done' })])
    expect([t.a, t.b]).toEqual([4, 4])
    t.stop()
  })

  it('tells every agent of output from an agent not known yet: the agent comes with it', () => {
    start()
    const t = told()
    const c = agentEvents('s1', 'c', clock, { agentId: 'main', toolUseId: 't3' })
    receiveEvents([c.text('No start seen for me')])
    expect([t.a, t.b]).toEqual([1, 1])
    receiveEvents([c.text(' yet.')])
    expect([t.a, t.b]).toEqual([1, 1])
    t.stop()
  })

  it('forgets a subscriber once it unsubscribes, and the hint does not outlive its update', () => {
    start()
    const t = told()
    t.stop()
    receiveEvents([a.text('y')])
    expect([t.a, t.b]).toEqual([0, 0])
    // A later update of the store's own (no events) tells everyone again, not only the last frame's agents.
    const again = told()
    receiveEvents([a.text('z')])
    useApp.setState({ dialog: 'settings' })
    expect([again.a, again.b]).toEqual([2, 1])
    again.stop()
  })
})
