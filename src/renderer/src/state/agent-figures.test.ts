import { afterEach, describe, expect, it } from 'vitest'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { onFigures, sameButFigures } from './agent-figures'
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
