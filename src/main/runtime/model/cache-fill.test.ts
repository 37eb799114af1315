import { describe, expect, it } from 'vitest'
import { planFill, prefixTokens, withCacheFill } from './cache-fill'
import type { ModelRequest } from './types'

const HAIKU = 'claude-haiku-4-5-20251001' // cache minimum 4,096 tokens
const listing = Array.from({ length: 800 }, (_, i) => `src/feature-${i}/index.ts`).join('\n')
const request = (system: string, sharers: number, text = listing, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model: HAIKU,
  system,
  messages: [{ role: 'user', content: 'task' }],
  cacheFill: { text, sharers },
  ...extra
})
const prompt = (tokens: number) => 'x'.repeat(tokens * 4)

describe('planFill: filling a prefix up to the cache minimum when it pays', () => {
  it('fills a 2,500-token prefix for three siblings and more, never for two (a write costs more than they save)', () => {
    expect(planFill(request(prompt(2500), 2)).text).toBe('')
    for (const n of [3, 16, 64]) {
      const plan = planFill(request(prompt(2500), n))
      expect(plan.text).not.toBe('')
      expect(plan.cost.filled).toBeLessThan(plan.cost.plain)
      expect(prefixTokens({ system: `${prompt(2500)}\n\n${plan.text}` })).toBeGreaterThanOrEqual(4096)
    }
    // Sixteen siblings pay about a third of what the unfilled prefix costs them.
    const sixteen = planFill(request(prompt(2500), 16)).cost
    expect(sixteen.filled / sixteen.plain).toBeLessThan(0.35)
  })

  it('a short prefix far under the minimum is not worth filling: reading 4,700 tokens at a tenth costs what 500 cost whole', () => {
    for (const n of [3, 16, 64]) expect(planFill(request(prompt(500), n)).text).toBe('')
    expect(planFill(request(prompt(1500), 16)).text).not.toBe('')
  })

  it('leaves alone a prefix already cached, one without enough helpful context (no padding), and requests that cache nothing', () => {
    expect(planFill(request(prompt(5000), 16)).text).toBe('')
    expect(planFill(request(prompt(2500), 16, 'a short note\n')).text).toBe('')
    expect(planFill(request(prompt(2500), 16, listing, { promptCaching: false })).text).toBe('')
  })

  it('cuts the context at a line end, and sends the very same system prompt on every turn of a run', () => {
    const r = request(prompt(2500), 16)
    const first = withCacheFill(r)
    const second = withCacheFill({ ...r, messages: [...r.messages, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }] })
    expect(first.system).toBe(second.system)
    expect('cacheFill' in first).toBe(false)
    expect((first.system as string).endsWith('index.ts')).toBe(true)
    expect((first.system as string).length).toBeLessThan(prompt(2500).length + listing.length)
  })
})
