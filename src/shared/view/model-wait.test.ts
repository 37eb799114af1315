// "Waiting for the model" and context use, as folded from events: a wait opens when a request goes out and
// closes at whatever of the reply comes first, and each one is kept for the timeline.
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../events'
import { mainAgentFold } from '../testing/main-agent-fold'
import { contextUse, contextWindowOf } from './context-use'
import { modelWaitMs, waitingForModelSince } from './model-wait'

describe('waiting for the model', () => {
  it('opens at the request and closes at the first delta, whichever kind', () => {
    for (const first of ['text', 'thinking', 'tool'] as const) {
      const t = mainAgentFold()
      const t0 = t.clock.now()
      let a = t.apply(t.main.start(), t.main.turnStart(1), t.main.request())
      expect(waitingForModelSince(a)).toBe(t0)
      t.clock.advance(12_000)
      expect(modelWaitMs(a, t.clock.now())).toBe(12_000)
      a = t.apply(first === 'text' ? t.main.text('Hi') : first === 'thinking' ? t.main.thinking('Hmm') : t.main.toolStart('tu-1', 'Read'))
      expect(waitingForModelSince(a), first).toBeNull()
      expect(a.waits).toEqual([{ kind: 'model', start: t0, end: t0 + 12_000 }])
      t.clock.advance(5000)
      // Closed: the total no longer grows.
      expect(modelWaitMs(a, t.clock.now())).toBe(12_000)
    }
  })

  it('a delta of a reply already streaming leaves the agent object as it was (no render per delta)', () => {
    const t = mainAgentFold()
    const a = t.apply(t.main.start(), t.main.request(), t.main.text('one'))
    expect(t.apply(t.main.text(' two'))).toBe(a)
  })

  it('closes when the call ends without a delta: its whole message, its usage, an error, the turn or the agent ending', () => {
    const enders = (t: ReturnType<typeof mainAgentFold>): AgentEvent[] => [
      t.main.assistant('whole'),
      t.main.usage({ inputTokens: 10 }),
      t.main.error('Overloaded (529)', true),
      t.main.error('Invalid request (400)', false),
      t.main.turnEnd(1),
      t.main.end('stopped')
    ]
    for (let i = 0; i < 6; i++) {
      const t = mainAgentFold()
      t.apply(t.main.start(), t.main.request())
      t.clock.advance(300)
      const a = t.apply(enders(t)[i])
      expect(waitingForModelSince(a), enders(t)[i].type).toBeNull()
      expect(a.waits.at(-1)).toMatchObject({ kind: 'model', end: a.waits.at(-1)!.start + 300 })
    }
  })

  it('a retry opens a new wait for its own request; each wait stays on the timeline', () => {
    const t = mainAgentFold()
    t.apply(t.main.start(), t.main.request(1))
    t.clock.advance(1000)
    t.apply(t.main.error('Overloaded (529). Retrying in 2 s (attempt 2 of 9).', true))
    t.clock.advance(2000)
    let a = t.apply(t.main.request(2))
    expect(waitingForModelSince(a)).toBe(t.clock.now())
    t.clock.advance(500)
    a = t.apply(t.main.text('ok'), t.main.usage({ inputTokens: 1 }), t.main.turnEnd(1), t.main.request(1))
    expect(a.waits.map((w) => [w.kind, w.end === null ? null : w.end - w.start])).toEqual([
      ['model', 1000],
      ['model', 500],
      ['model', null]
    ])
  })

  it('a permission wait and a model wait never overlap', () => {
    const t = mainAgentFold()
    t.apply(t.main.start(), t.main.request())
    t.clock.advance(100)
    t.apply(t.main.toolStart('tu', 'Bash'), t.main.toolRun('tu', 'Bash', { command: 'ls' }), t.main.status('waiting_permission'))
    t.clock.advance(100)
    const a = t.apply(t.main.status('running'), t.main.request())
    expect(a.waits.map((w) => w.kind)).toEqual(['model', 'permission', 'model'])
    expect(a.waits.filter((w) => w.end === null)).toHaveLength(1)
  })

  it('a transcript cut off while waiting (a crash) closes the wait when the agent is ended as interrupted', () => {
    const t = mainAgentFold()
    t.apply(t.main.start(), t.main.request())
    t.clock.advance(4000)
    const a = t.apply(t.main.end('interrupted', { error: 'Fanout stopped' }))
    expect(waitingForModelSince(a)).toBeNull()
    expect(modelWaitMs(a, t.clock.now() + 60_000)).toBe(4000)
  })
})

describe('context use', () => {
  it('is the latest call’s prompt (cached or not) plus its reply, against the model’s window', () => {
    const t = mainAgentFold()
    let a = t.apply(t.main.start({ model: 'sonnet' }))
    expect(contextUse(a)).toBeNull()
    a = t.apply(t.main.usage({ inputTokens: 2000, cacheReadTokens: 30_000, cacheWriteTokens: 8000, outputTokens: 10_000 }, 'claude-sonnet-4-5'))
    expect(contextUse(a)).toEqual({ tokens: 50_000, window: 200_000, fraction: 0.25 })
    // The next call replaces the figure; it does not add to it.
    a = t.apply(t.main.usage({ inputTokens: 100, cacheReadTokens: 59_900 }, 'claude-sonnet-4-5'))
    expect(contextUse(a)!.tokens).toBe(60_000)
    expect(contextWindowOf('claude-sonnet-4-5[1m]')).toBe(1_000_000)
  })
})
