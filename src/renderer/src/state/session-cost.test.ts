// One cost per session wherever it shows: the sidebar row, the header, the status bar and the summary read
// the host's figure (pushed with the session's row as it grows), formatted the same way, while the session
// runs and after. Only a replay frame, the session at a past moment, shows its own.
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
  it('is the host’s figure from the session’s row, whether or not its history is in the store', () => {
    const events = running()
    // The host counts cache reads and writes at their prices and agents from before a restart.
    const sessions = [{ sessionId: S, costUsd: 0.0125 }] as never
    expect(sessionCostUsd({ sessions, events, replayingSessionId: null }, S)).toBe(0.0125)
    expect(sessionCostUsd({ sessions, events: emptyEventsState(), replayingSessionId: null }, S)).toBe(0.0125)
    expect(formatCost(sessionCostUsd({ sessions, events, replayingSessionId: null }, S))).toBe('$0.01')
  })

  it('is nothing for no session or one not listed, and a replay frame’s own while it is shown', () => {
    const events = running()
    const sessions = [{ sessionId: S, costUsd: 0.25 }] as never
    expect(sessionCostUsd({ sessions, events, replayingSessionId: null }, null)).toBe(0)
    expect(sessionCostUsd({ sessions: [], events, replayingSessionId: null }, S)).toBe(0)
    expect(sessionCostUsd({ sessions, events, replayingSessionId: S }, S)).toBe(events.sessions[S].usage.costUsd)
  })
})
