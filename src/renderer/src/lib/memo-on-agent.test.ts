import { describe, expect, it } from 'vitest'
import { memoOnAgent } from './memo-on-agent'

interface Agent {
  id: string
  status: string
  usage: { outputTokens: number }
}
const Buttons = (_: { agent: Agent; size: number }) => null
// React keeps a memo's comparison on the element type it returns: true means "render again not needed".
const same = (memoized: unknown, before: object, after: object) => (memoized as { compare(a: object, b: object): boolean }).compare(before, after)

describe('memoOnAgent', () => {
  const M = memoOnAgent(Buttons, ['id', 'status'])
  const a: Agent = { id: 'a', status: 'running', usage: { outputTokens: 10 } }

  it('does not render again for a new agent object whose named fields are the same (a model call’s usage)', () => {
    expect(same(M, { agent: a, size: 13 }, { agent: { ...a, usage: { outputTokens: 99 } }, size: 13 })).toBe(true)
  })

  it('renders again when a named field or another prop changes', () => {
    expect(same(M, { agent: a, size: 13 }, { agent: { ...a, status: 'completed' }, size: 13 })).toBe(false)
    expect(same(M, { agent: a, size: 13 }, { agent: a, size: 14 })).toBe(false)
    expect(same(M, { agent: a, size: 13 }, { agent: a })).toBe(false)
  })
})
