import { describe, expect, it } from 'vitest'
import { formatClock, formatCost, formatDuration, formatRelative, formatTokens } from './format'

describe('format', () => {
  it('formats elapsed clocks, durations, tokens and cost compactly', () => {
    expect(formatClock(42_000)).toBe('0:42')
    expect(formatClock(3_723_000)).toBe('1:02:03')
    expect(formatDuration(120)).toBe('120 ms')
    expect(formatDuration(1234)).toBe('1.2 s')
    expect(formatDuration(75_000)).toBe('1:15')
    expect(formatTokens(950)).toBe('950')
    expect(formatTokens(12_345)).toBe('12k')
    expect(formatTokens(1234)).toBe('1.2k')
    expect(formatTokens(2_500_000)).toBe('2.5M')
    expect(formatCost(0)).toBe('$0.00')
    expect(formatCost(0.0042)).toBe('$0.004')
    // Something was spent: never shown as $0.000.
    expect(formatCost(0.0003)).toBe('<$0.001')
    expect(formatCost(0.0005)).toBe('$0.001')
    expect(formatCost(1.5)).toBe('$1.50')
  })

  it('rounds a cost once: just under a boundary it reads like the boundary', () => {
    expect(formatCost(0.0094)).toBe('$0.009')
    expect(formatCost(0.00996)).toBe('$0.01')
    expect(formatCost(0.01)).toBe('$0.01')
    expect(formatCost(0.0104)).toBe('$0.01')
    expect(formatCost(0.0999)).toBe('$0.10')
    expect(formatCost(99.996)).toBe('$100')
    expect(formatCost(123.4)).toBe('$123')
  })

  it('says how long ago', () => {
    const now = Date.UTC(2025, 5, 10, 12)
    expect(formatRelative(now - 10_000, now)).toBe('just now')
    expect(formatRelative(now - 5 * 60_000, now)).toBe('5 min ago')
    expect(formatRelative(now - 3 * 3_600_000, now)).toBe('3 h ago')
  })
})
