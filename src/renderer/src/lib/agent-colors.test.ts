// An agent type without a color of its own is one color wherever it appears, and that color depends on its
// type's name alone: editing another agent's color (the review saw Explore turn from blue to green when
// docs-writer was saved as blue) changes nothing else.
import { describe, expect, it } from 'vitest'
import { agentColorName, agentColorStyle } from './agent-colors'

const TYPES = ['Explore', 'Plan', 'general-purpose', 'Bash', 'fanout-guide', 'worker', 'researcher', 'a', 'zz-top']

describe('agent colors', () => {
  it('a color of its own wins, whatever its case', () => {
    expect(agentColorName('Orange', 'docs-writer')).toBe('orange')
    expect(agentColorStyle('green', 'test-writer')).toEqual({ '--agent-color': 'var(--agent-green)', '--agent-text': 'var(--agent-green-text)' })
  })

  it('an uncolored type gets one color from its name alone, never red (it reads as failed)', () => {
    for (const type of TYPES) {
      const first = agentColorName(undefined, type)
      expect(agentColorName('', type)).toBe(first)
      expect(agentColorName('not-a-color', type)).toBe(first)
      expect(first).not.toBe('red')
    }
  })

  it('the built-in types each have their own color', () => {
    const builtIns = ['general-purpose', 'Explore', 'Plan', 'Bash', 'fanout-guide']
    expect(new Set(builtIns.map((t) => agentColorName(undefined, t))).size).toBe(builtIns.length)
  })

  it('the main agent without a color is neutral; an invalid color counts as none', () => {
    const bar = (style: object) => (style as Record<string, string>)['--agent-color']
    expect(bar(agentColorStyle(undefined, 'main', { isRoot: true }))).toBe('var(--agent-main)')
    expect(bar(agentColorStyle('chartreuse', 'main', { isRoot: true }))).toBe('var(--agent-main)')
    expect(bar(agentColorStyle('blue', 'main', { isRoot: true }))).toBe('var(--agent-blue)')
    expect(agentColorStyle('chartreuse', 'Explore')).toEqual(agentColorStyle(undefined, 'Explore'))
  })
})
