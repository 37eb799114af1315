// An agent type without a color of its own is one color wherever it appears, and keeps clear of the colors
// the folder's agent files declare — the review saw Explore in orange, green and blue beside an orange
// docs-writer and a green test-writer.
import { describe, expect, it } from 'vitest'
import { agentColorName, agentColorStyle, declaredColors, typeColors } from './agent-colors'

const TYPES = ['Explore', 'Plan', 'general-purpose', 'Bash', 'fanout-guide', 'worker', 'researcher', 'a', 'zz-top']

describe('agent colors', () => {
  it('a color of its own wins, whatever its case', () => {
    expect(agentColorName('Orange', 'docs-writer')).toBe('orange')
    expect(agentColorStyle('green', 'test-writer')).toEqual({ '--agent-color': 'var(--agent-green)', '--agent-text': 'var(--agent-green-text)' })
  })

  it('an uncolored type gets one color from its type alone: every instance, every session', () => {
    const reserved = declaredColors([{ color: 'purple' }, { color: 'green' }, { color: 'orange' }])
    for (const type of TYPES) {
      const first = agentColorName(undefined, type, reserved)
      // A fresh set with the same colors (another session, a reload) gives the same answer.
      expect(agentColorName(undefined, type, new Set(['orange', 'green', 'purple']))).toBe(first)
      expect(agentColorName('', type, reserved)).toBe(first)
    }
  })

  it('keeps clear of the colors agent files declare, and of red (it reads as failed)', () => {
    const reserved = declaredColors([{ color: 'purple' }, { color: 'green' }, { color: 'Orange' }, { color: 'not-a-color' }, {}])
    expect([...reserved].sort()).toEqual(['green', 'orange', 'purple'])
    for (const type of TYPES) {
      const c = agentColorName(undefined, type, reserved)
      expect(reserved.has(c), `${type} is ${c}`).toBe(false)
      expect(c).not.toBe('red')
    }
  })

  it('still picks a color when the files declare every one', () => {
    const all = new Set(['red', 'orange', 'yellow', 'green', 'cyan', 'blue', 'purple', 'pink'])
    const c = agentColorName(undefined, 'Explore', all)
    expect(all.has(c)).toBe(true)
    expect(agentColorName(undefined, 'Explore', all)).toBe(c)
  })

  it('the main agent without a color is neutral; an invalid color counts as none', () => {
    const bar = (style: object) => (style as Record<string, string>)['--agent-color']
    expect(bar(agentColorStyle(undefined, 'main', { isRoot: true }))).toBe('var(--agent-main)')
    expect(bar(agentColorStyle('chartreuse', 'main', { isRoot: true }))).toBe('var(--agent-main)')
    expect(bar(agentColorStyle('blue', 'main', { isRoot: true }))).toBe('var(--agent-blue)')
    expect(agentColorStyle('chartreuse', 'Explore')).toEqual(agentColorStyle(undefined, 'Explore'))
  })
})

describe('the colors of a folder\'s types', () => {
  const builtIns = ['general-purpose', 'Explore', 'Plan', 'Bash', 'fanout-guide'].map((agentType) => ({ agentType }))

  it('gives the uncolored types of one folder different colors while free ones last (the review saw all built-ins pink)', () => {
    for (const own of [[], [{ agentType: 'verifier', color: 'cyan' }], [{ agentType: 'verifier', color: 'cyan' }, { agentType: 'docs-writer', color: 'orange' }, { agentType: 'test-writer', color: 'green' }]]) {
      const { reserved, byType } = typeColors([...builtIns, ...own])
      const picked = builtIns.map((d) => byType.get(d.agentType)!)
      expect(new Set(picked).size, picked.join(', ')).toBe(Math.min(builtIns.length, 7 - reserved.size))
      for (const c of picked) expect(reserved.has(c)).toBe(false)
      for (const d of own) expect(byType.get(d.agentType)).toBe(d.color)
    }
  })

  it('is the same for the same definitions, in any order', () => {
    const defs = [...builtIns, { agentType: 'verifier', color: 'cyan' }]
    expect([...typeColors(defs).byType].sort()).toEqual([...typeColors([...defs].reverse()).byType].sort())
  })
})
