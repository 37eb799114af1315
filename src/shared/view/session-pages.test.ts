import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../events'
import { agentEvents, manualClock } from '../testing/event-builder'
import { applyEvents } from './reducer'
import { mergeOlderPage, splitSession } from './session-pages'
import { emptyEventsState, type SessionState } from './session-state'

const S = 's1'

/** A main agent with `turns` finished turns (thought, text, a tool), a subagent, a tool still running and a reply still streaming. */
function session(turns: number): { state: SessionState; clock: ReturnType<typeof manualClock>; main: ReturnType<typeof agentEvents> } {
  const clock = manualClock()
  const main = agentEvents(S, 'main', clock)
  const sub = agentEvents(S, 'sub', clock, { agentId: 'main', toolUseId: 'call-sub' })
  const events: AgentEvent[] = [main.start(), main.user('Check every module.')]
  for (let t = 1; t <= turns; t++) {
    const id = `tu-${t}`
    events.push(
      main.turnStart(t),
      main.assistant([
        { type: 'thinking', thinking: `Turn ${t}.`, signature: 's' },
        { type: 'text', text: `Reading module ${t}.` },
        { type: 'tool_use', id, name: 'Read', input: { file_path: `m${t}.ts` } }
      ]),
      main.toolRun(id, 'Read', { file_path: `m${t}.ts` }),
      main.usage({ inputTokens: 10, outputTokens: 2, costUsd: 0.001 }),
      main.toolEnd(id, 'Read', `contents of m${t}.ts`),
      main.user([{ type: 'tool_result', tool_use_id: id, content: `contents of m${t}.ts` }]),
      main.turnEnd(t, 'tool_use')
    )
    clock.advance(10)
  }
  events.push(
    main.turnStart(turns + 1),
    main.toolStart('call-sub', 'Agent'),
    main.toolRun('call-sub', 'Agent', { description: 'Sub', prompt: 'Look' }),
    sub.start({ depth: 1, description: 'Sub' }),
    sub.user('Look'),
    sub.text('Looking at the fi'),
    main.toolStart('tu-live', 'Bash'),
    main.toolRun('tu-live', 'Bash', { command: 'npm test' }),
    main.text('While that runs, ')
  )
  return { state: applyEvents(emptyEventsState(), events).sessions[S], clock, main }
}

const joined = (parts: ReturnType<typeof splitSession>, head = parts.head) => parts.pages.reduce(mergeOlderPage, head)

describe('splitSession', () => {
  it('sends the newest items of each transcript first, with the tools they show and every tool still running', () => {
    const { state } = session(40)
    const { head, olderItems, pages } = splitSession(state, { headItems: 10, pageItems: 25 })
    expect(head.items.main).toEqual(state.items.main.slice(-head.items.main.length))
    expect(head.items.main.length).toBeGreaterThanOrEqual(10)
    expect(olderItems.main).toBe(state.items.main.length - head.items.main.length)
    expect(head.items.sub).toEqual(state.items.sub) // short: whole
    for (const item of head.items.main) if (item.kind === 'tool') expect(head.tools[item.toolUseId]).toBe(state.tools[item.toolUseId])
    expect(head.tools['tu-live']?.status).toBe('running')
    // Everything but the older items is whole: agents (the stream's start counted from the cut), totals, counts.
    expect(head.agents).toEqual({ ...state.agents, main: { ...state.agents.main, streamFrom: state.agents.main.streamFrom! - olderItems.main } })
    expect(head.usage).toEqual(state.usage)
    expect(head.toolCount).toBe(state.toolCount)
    expect(Object.keys(head.tools).length).toBeLessThan(state.toolCount)
    expect(pages.length).toBeGreaterThan(2)
    expect(pages.every((p) => Object.values(p.items).reduce((n, items) => n + items.length, 0) <= 25)).toBe(true)
  })

  it('joined again, the parts are the state the host folded: nothing lost, nothing out of order', () => {
    const { state } = session(40)
    expect(joined(splitSession(state, { headItems: 10, pageItems: 25 }))).toEqual(state)
    expect(joined(splitSession(state, { headItems: 500 }))).toEqual(state)
  })

  it('keeps a reply still streaming whole in the head, and live events agree whenever the older pages arrive', () => {
    const { state, clock, main } = session(40)
    const parts = splitSession(state, { headItems: 1, pageItems: 25 })
    expect(parts.head.agents.main.streamFrom).toBe(state.agents.main.streamFrom! - parts.olderItems.main)
    const live = () => [
      main.text('the tests run.'),
      main.toolEnd('tu-live', 'Bash', 'ok'),
      main.assistant([
        { type: 'text', text: 'While that runs, the tests run.' },
        { type: 'tool_use', id: 'tu-live', name: 'Bash', input: { command: 'npm test' } }
      ])
    ]
    clock.advance(5)
    const events = live()
    const expected = applyEvents({ sessions: { [S]: state } }, events).sessions[S]
    const early = applyEvents({ sessions: { [S]: parts.head } }, events).sessions[S]
    expect(joined(parts, early)).toEqual(expected)
    const half = mergeOlderPage(parts.head, parts.pages[0])
    const middle = applyEvents({ sessions: { [S]: half } }, events).sessions[S]
    expect(parts.pages.slice(1).reduce(mergeOlderPage, middle)).toEqual(expected)
  })
})
