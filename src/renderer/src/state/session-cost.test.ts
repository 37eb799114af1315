// One cost per session wherever it shows: the sidebar row and the header read the same figure, formatted
// the same way, while the session runs and after.
import { describe, expect, it } from 'vitest'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { applyEvents } from '../../../shared/view/reducer'
import { emptyEventsState } from '../../../shared/view/session-state'
import { formatCost } from '../lib/format'
import { sessionCostUsd } from './selectors'

const S = 's1'

function running() {
  const clock = manualClock()
  const main = agentEvents(S, 'main', clock)
  const sub = agentEvents(S, 'a', clock, { agentId: 'main', toolUseId: 'tu-a' })
  return applyEvents(emptyEventsState(), [
    main.start(),
    main.usage({ inputTokens: 100, outputTokens: 10, costUsd: 0.0042 }),
    sub.start(),
    sub.usage({ inputTokens: 100, outputTokens: 10, costUsd: 0.00576 })
  ])
}

describe('a session’s cost', () => {
  it('is the fold of its events once its history is here: the header’s figure, not the list’s older one', () => {
    const events = running()
    // The session list was refreshed when the subagent started, before its usage came in.
    const summary = { sessionId: S, costUsd: 0.0042 }
    const header = events.sessions[S].usage.costUsd
    expect(sessionCostUsd(events, { [S]: true }, summary)).toBe(header)
    expect(formatCost(sessionCostUsd(events, { [S]: true }, summary))).toBe(formatCost(header))
    expect(formatCost(header)).toBe('$0.01')
  })

  it('is the session list’s while its history is not (all of it) in the store', () => {
    const events = running()
    expect(sessionCostUsd(events, {}, { sessionId: S, costUsd: 0.25 })).toBe(0.25)
    expect(sessionCostUsd(emptyEventsState(), { [S]: true }, { sessionId: S, costUsd: 0.25 })).toBe(0.25)
  })
})
