import { describe, expect, it } from 'vitest'
import { formatClock, formatCost, formatDateTime, formatDuration, formatRelative, formatShortDateTime, formatTime, formatTokens } from './format'

/** Each input formats to its text; a failure names the input. */
function expectEach(format: (n: number) => string, cases: Array<[number, string]>) {
  for (const [n, text] of cases) expect(format(n), `${format.name}(${n})`).toBe(text)
}

describe('format', () => {
  it('formats elapsed clocks, durations, tokens and cost compactly', () => {
    expectEach(formatClock, [
      [42_000, '0:42'],
      [3_723_000, '1:02:03']
    ])
    expectEach(formatDuration, [
      [120, '120 ms'],
      [1234, '1.2 s'],
      [75_000, '1:15']
    ])
    expectEach(formatTokens, [
      [950, '950'],
      [12_345, '12k'],
      [1234, '1.2k'],
      [2_500_000, '2.5M']
    ])
    expectEach(formatCost, [
      [0, '$0.00'],
      [0.0042, '$0.004'],
      // Something was spent: never shown as $0.000.
      [0.0003, '<$0.001'],
      [0.0005, '$0.001'],
      [1.5, '$1.50']
    ])
  })

  it('rounds a cost once: just under a boundary it reads like the boundary', () => {
    expectEach(formatCost, [
      [0.0094, '$0.009'],
      [0.00996, '$0.01'],
      [0.01, '$0.01'],
      [0.0104, '$0.01'],
      [0.0999, '$0.10'],
      [99.996, '$100'],
      [123.4, '$123']
    ])
  })

  it('says how long ago', () => {
    const now = Date.UTC(2025, 5, 10, 12)
    expect(formatRelative(now - 10_000, now)).toBe('just now')
    expect(formatRelative(now - 5 * 60_000, now)).toBe('5 min ago')
    expect(formatRelative(now - 3 * 3_600_000, now)).toBe('3 h ago')
  })

  it('writes dates as Date writes them in the same locale, with formatters made once', () => {
    const now = Date.UTC(2025, 5, 10, 12)
    for (const ts of [now, now - 40 * 86_400_000, Date.UTC(2023, 0, 2, 3, 4, 5)]) {
      expect(formatDateTime(ts)).toBe(new Date(ts).toLocaleString())
      expect(formatTime(ts)).toBe(new Date(ts).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }))
      expect(formatShortDateTime(ts)).toBe(
        new Date(ts).toLocaleString(undefined, { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false })
      )
    }
    expect(formatRelative(now - 40 * 86_400_000, now)).toBe(new Date(now - 40 * 86_400_000).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }))
    expect(formatRelative(Date.UTC(2023, 0, 2), now)).toBe(
      new Date(Date.UTC(2023, 0, 2)).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' })
    )
  })
})
