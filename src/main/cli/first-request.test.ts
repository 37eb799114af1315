import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// The steps that change the process itself (V8's flags, a collector, the redaction's index) are not this test's.
vi.mock('./feedback-tiering', () => ({ feedbackFromFirstCall: vi.fn() }))
vi.mock('./idle-gc', () => ({ collectWhileIdle: vi.fn() }))
vi.mock('../../shared/redact', () => ({ prepareRedaction: vi.fn() }))

import { firstRequestSteps } from './first-request'
import { feedbackFromFirstCall } from './feedback-tiering'

describe("the answer's steps, rehearsed while the model works", () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => {
    vi.useRealTimers()
    vi.clearAllMocks()
  })

  it("runs them after the first request is on its way and after each later request of the main agent, never a subagent's", () => {
    const rehearse = vi.fn()
    const seen = firstRequestSteps(rehearse, 'main-1')
    seen({ type: 'agent_start', agentId: 'main-1' })
    vi.advanceTimersByTime(1000)
    expect(rehearse).not.toHaveBeenCalled()

    seen({ type: 'model_request', agentId: 'main-1' })
    // Not as the request is built: it is on its way first.
    expect(rehearse).not.toHaveBeenCalled()
    vi.advanceTimersByTime(100)
    expect(rehearse).toHaveBeenCalledTimes(1)
    expect(feedbackFromFirstCall).toHaveBeenCalledTimes(1)

    // Sixteen subagents' requests: their hand-offs are the fan-out's critical path, nothing is rehearsed there.
    for (let i = 0; i < 16; i++) seen({ type: 'model_request', agentId: `worker-${i}` })
    vi.advanceTimersByTime(1000)
    expect(rehearse).toHaveBeenCalledTimes(1)

    // The main agent's summary request, every report in: the answer is rehearsed on the run as it now is.
    seen({ type: 'model_request', agentId: 'main-1' })
    vi.advanceTimersByTime(100)
    expect(rehearse).toHaveBeenCalledTimes(2)
    // What acts once (V8's feedback, the collector) still acted once.
    expect(feedbackFromFirstCall).toHaveBeenCalledTimes(1)
  })

  it('a rehearsal that throws is dropped: the run goes on and the next one still runs', () => {
    const rehearse = vi.fn(() => {
      throw new Error('a step that failed in rehearsal')
    })
    const seen = firstRequestSteps(rehearse, 'main-1')
    seen({ type: 'model_request', agentId: 'main-1' })
    expect(() => vi.advanceTimersByTime(100)).not.toThrow()
    seen({ type: 'model_request', agentId: 'main-1' })
    expect(() => vi.advanceTimersByTime(100)).not.toThrow()
    expect(rehearse).toHaveBeenCalledTimes(2)
  })

  it('without a main agent named, only the first request rehearses', () => {
    const rehearse = vi.fn()
    const seen = firstRequestSteps(rehearse)
    seen({ type: 'model_request', agentId: 'main-1' })
    seen({ type: 'model_request', agentId: 'main-1' })
    vi.advanceTimersByTime(1000)
    expect(rehearse).toHaveBeenCalledTimes(1)
  })
})
