// An agent the rate limiter holds back mid-run (model/rate-limiter.ts): `queued` with the reason, a queued
// span on its timeline, then running again and waiting on the model once its request goes.
import { describe, expect, it } from 'vitest'
import { mainAgentFold } from '../testing/main-agent-fold'
import { waitingForModelSince } from './model-wait'
import { ACTIVE_STATUSES } from './session-state'

describe('an agent held back by the rate limiter', () => {
  it('shows as queued with the reason while it waits, then running and waiting on the model', () => {
    const { clock, main, apply } = mainAgentFold()
    apply(main.start(), main.turnStart(1))
    const t0 = clock.now()
    let a = apply(main.status('queued', 'rate limited by the API; waiting 2 s'))
    expect(a.status).toBe('queued')
    expect(a.statusDetail).toBe('rate limited by the API; waiting 2 s')
    expect(ACTIVE_STATUSES.has(a.status)).toBe(true)
    clock.advance(2000)
    a = apply(main.status('running'), main.request())
    expect(a.status).toBe('running')
    expect(a.statusDetail).toBeUndefined()
    expect(a.waits).toEqual([
      { kind: 'queued', start: t0, end: t0 + 2000 },
      { kind: 'model', start: t0 + 2000, end: null }
    ])
    expect(waitingForModelSince(a)).toBe(t0 + 2000)
  })
})
