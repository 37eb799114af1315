// Budget bars and estimates in the UI state, folded from events: a subagent's bar counts its subagents'
// spend, turns amber at the warning and red once reached; the session's budget on the main agent counts
// every agent; the last estimate of an agent is kept for the approval surface.
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../events'
import { agentEvents, manualClock } from '../testing/event-builder'
import { budgetUse } from './budget-use'
import { applyEvents } from './reducer'
import { emptyEventsState } from './session-state'

const clock = manualClock()
const main = agentEvents('s1', 'main', clock)
const lead = agentEvents('s1', 'lead', clock, { agentId: 'main', toolUseId: 't1' })
const worker = agentEvents('s1', 'worker', clock, { agentId: 'lead', toolUseId: 't2' })
const budget = (agent: typeof lead, level: 'warning' | 'reached'): AgentEvent =>
  ({ ...agent.status('running'), type: 'budget', level, limit: { usd: 1 }, from: 'call', spent: { usd: 0.9, tokens: 0 } }) as AgentEvent

describe('budget bars', () => {
  it("a subagent's bar is its subtree's spend against its budget: blue, amber at the warning, red once reached", () => {
    let s = applyEvents(emptyEventsState(), [
      main.start({ budget: { usd: 10, from: 'session' } }),
      lead.start({ depth: 1, budget: { usd: 1, from: 'call' } }),
      worker.start({ depth: 2 }),
      lead.usage({ costUsd: 0.2, inputTokens: 1000 }),
      worker.usage({ costUsd: 0.3, inputTokens: 2000 })
    ])
    const use = () => budgetUse(s.sessions.s1, 'lead')
    expect(use()).toMatchObject({ percent: 50, level: 'ok', label: '$0.50 of $1.00' })
    expect(use()!.detail).toContain('the budget its Agent call gave it')
    expect(budgetUse(s.sessions.s1, 'worker')).toBeNull()
    s = applyEvents(s, [worker.usage({ costUsd: 0.35 }), budget(lead, 'warning')])
    expect(use()).toMatchObject({ percent: 85, level: 'warning' })
    s = applyEvents(s, [worker.usage({ costUsd: 0.2 }), budget(lead, 'reached')])
    expect(use()).toMatchObject({ percent: 100, level: 'reached' })
    // The session's budget on the main agent counts every agent.
    expect(budgetUse(s.sessions.s1, 'main')).toMatchObject({ label: '$1.05 of $10.00', percent: 11 })
  })

  it('keeps the latest estimate of each agent that fans out', () => {
    const estimate = { agents: [{ toolUseId: 't1', agentType: 'scout', low: 0.1, median: 0.2, high: 0.4, runs: 3 }], low: 0.1, median: 0.2, high: 0.4 }
    const s = applyEvents(emptyEventsState(), [main.start(), { ...main.status('running'), type: 'estimate', estimate } as AgentEvent])
    expect(s.sessions.s1.estimates).toEqual({ main: estimate })
  })
})
