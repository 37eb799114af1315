import { afterEach, describe, expect, it, vi } from 'vitest'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { createMountBudget } from '../lib/mount-budget'
import { onFigures, sameButFigures, setFigureBudget } from './agent-figures'
import { receiveEvents, resetStore, useApp } from './store'

const clock = manualClock()
const main = agentEvents('s1', 'main', clock)
const a = agentEvents('s1', 'a', clock, { agentId: 'main', toolUseId: 't1' })
const agentA = () => useApp.getState().events.sessions.s1!.agents.a!

afterEach(() => resetStore())

describe('an agent that changed only in its figures', () => {
  it('is the same but for its figures after a model call of a streaming agent ends (tokens, cost, context, model)', () => {
    receiveEvents([main.start(), a.start({ description: 'A' }), a.request(), a.text('Reading the lexer')])
    const first = agentA()
    // The first answer sizes the context and names the model that answered: figures too.
    receiveEvents([a.usage({ inputTokens: 800, outputTokens: 100 }, 'claude-sonnet-4-5')])
    expect(agentA().contextTokens).toBe(900)
    expect(sameButFigures(first, agentA())).toBe(true)
    receiveEvents([a.request(), a.text('Now the parser')])
    const before = agentA()
    receiveEvents([a.usage({ inputTokens: 900, outputTokens: 120, cacheReadTokens: 4000, costUsd: 0.0009 }, 'claude-sonnet-4-5')])
    const after = agentA()
    expect(after).not.toBe(before)
    expect(after.usage).not.toEqual(before.usage)
    expect(sameButFigures(before, after)).toBe(true)
  })

  it('is not, when the call that ends is one the agent was still waiting on (the wait closes: "waiting on model" goes)', () => {
    receiveEvents([main.start(), a.start({ description: 'A' }), a.request()])
    const before = agentA()
    receiveEvents([a.usage({ inputTokens: 900, outputTokens: 120 })])
    expect(sameButFigures(before, agentA())).toBe(false)
  })

  it('is not, when anything else changed, was added or was taken away', () => {
    receiveEvents([main.start(), a.start({ description: 'A' }), a.text('Reading')])
    const before = agentA()
    expect(sameButFigures(before, { ...before, turn: before.turn + 1 })).toBe(false)
    expect(sameButFigures(before, { ...before, status: 'completed' })).toBe(false)
    expect(sameButFigures(before, { ...before, lastError: { message: 'overloaded', retrying: true, ts: 1 } })).toBe(false)
    expect(sameButFigures(before, { ...before, toolIds: [...before.toolIds, 't9'] })).toBe(false)
    expect(sameButFigures(before, { ...before, waits: [...before.waits, { kind: 'model', start: 2, end: null }] })).toBe(false)
    expect(sameButFigures(before, { ...before, toolIds: [...before.toolIds], waits: [...before.waits] })).toBe(true)
    const { description: _, ...without } = before
    expect(sameButFigures(before, without as typeof before)).toBe(false)
    expect(sameButFigures(before, { ...before, usage: { ...before.usage, costUsd: 1 }, contextTokens: 5000 })).toBe(true)
  })
})

describe('onFigures', () => {
  it('draws at once, then at each new figure of its agent, not at its text or at another agent', () => {
    const b = agentEvents('s1', 'b', clock, { agentId: 'main', toolUseId: 't2' })
    receiveEvents([main.start(), a.start({ description: 'A' }), b.start({ description: 'B' }), a.request(), a.text('Reading')])
    const drawn: number[] = []
    const stop = onFigures('s1', 'a', (agent) => drawn.push(agent.usage.inputTokens))
    receiveEvents([a.text(' the lexer'), b.usage({ inputTokens: 5 })])
    receiveEvents([a.usage({ inputTokens: 900 }), a.text(' and more')])
    receiveEvents([a.usage({ inputTokens: 100 })])
    stop()
    receiveEvents([a.usage({ inputTokens: 1 })])
    expect(drawn).toEqual([0, 900, 1000])
  })
})

describe('figures of many agents changing at once', () => {
  let frames: Array<() => void> = []
  let frameNo = 0
  const runFrame = () => {
    frameNo++
    const due = frames
    frames = []
    for (const f of due) f()
  }
  afterEach(() => {
    vi.unstubAllGlobals()
    setFigureBudget()
  })

  it('draws as many as a frame has room for, the rest in the next frames, oldest first and each with its newest figures', () => {
    const ids = ['a', 'b', 'c', 'd', 'e']
    const agents = Object.fromEntries(ids.map((id, i) => [id, agentEvents('s1', id, clock, { agentId: 'main', toolUseId: `t${i}` })]))
    receiveEvents([main.start(), ...ids.map((id) => agents[id].start({ description: id.toUpperCase() }))])
    frames = []
    vi.stubGlobal('requestAnimationFrame', (cb: () => void) => frames.push(cb))
    vi.stubGlobal('cancelAnimationFrame', () => {})
    setFigureBudget(createMountBudget(2, () => frameNo))
    const drawn: string[] = []
    const stops = Object.fromEntries(ids.map((id) => [id, onFigures('s1', id, (agent) => drawn.push(`${id}${agent.usage.inputTokens}`))]))
    // Each is drawn once at once, whatever the frame's room: a figure's first drawing never waits.
    expect(drawn).toEqual(['a0', 'b0', 'c0', 'd0', 'e0'])
    drawn.length = 0
    // Five agents' calls end in one frame (the store applies live events at the frame): two draw in it.
    receiveEvents(ids.map((id) => agents[id].usage({ inputTokens: 100 })))
    runFrame()
    expect(drawn).toEqual(['a100', 'b100'])
    // D's tile goes away while it waits, and E's next call ends: D never draws; C and E draw in the next frame,
    // and E's newest figures, come in that frame when it had no room left, in the one after.
    stops.d()
    receiveEvents([agents.e.usage({ inputTokens: 5 })])
    runFrame()
    expect(drawn).toEqual(['a100', 'b100', 'c100', 'e100'])
    runFrame()
    expect(drawn).toEqual(['a100', 'b100', 'c100', 'e100', 'e105'])
    runFrame()
    expect(drawn).toHaveLength(5)
    // Nothing waits here now: the next change draws in the frame the store applies it. (The store itself may
    // hold an agent's figures a frame or two for its turn among the agents streaming: text-cadence.ts.)
    receiveEvents([agents.c.usage({ inputTokens: 7 })])
    for (let i = 0; i < 3 && !drawn.includes('c107'); i++) {
      runFrame()
      const applied = useApp.getState().events.sessions.s1.agents.c.usage.inputTokens === 107
      expect(drawn.includes('c107')).toBe(applied)
    }
    expect(drawn).toContain('c107')
    for (const id of ['a', 'b', 'c', 'e']) stops[id]()
    expect(frames).toEqual([])
  })
})
