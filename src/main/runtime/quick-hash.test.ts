// The digest that tells Node runtimes and accounts apart without node:crypto: stable, sized as asked, and
// different for texts that differ anywhere, in length alone, or only in the order of their characters.
import { describe, expect, it } from 'vitest'
import { quickDigest } from './quick-hash'

describe('quickDigest', () => {
  it('is the same for the same text and sized as asked', () => {
    expect(quickDigest('v20.20.2 11.3 linux x64', 32).equals(quickDigest('v20.20.2 11.3 linux x64', 32))).toBe(true)
    for (const bytes of [4, 8, 16, 32]) expect(quickDigest('x', bytes)).toHaveLength(bytes)
    // A longer digest begins with the shorter one: each lane stands alone.
    expect(quickDigest('abc', 32).subarray(0, 8).equals(quickDigest('abc', 8))).toBe(true)
    for (const bad of [0, 3, 5, 36, 1.5]) expect(() => quickDigest('x', bad)).toThrow(RangeError)
  })

  it('differs for texts that differ by one character, by length, by order, or by a character outside Latin-1', () => {
    const texts = [
      '',
      '\u0000',
      '\u0000\u0000',
      'ab',
      'ba',
      'a',
      'v20.20.2 11.3.244.8 linux x64',
      'v20.20.3 11.3.244.8 linux x64',
      'v20.20.2 11.3.244.8 linux arm64',
      'é',
      'e\u0301',
      '😀'
    ]
    const seen = new Set(texts.map((t) => quickDigest(t, 8).toString('hex')))
    expect(seen.size).toBe(texts.length)
  })

  it('spreads: no two of 50,000 keys shaped like API keys share 8 bytes, and every bit is set about half the time', () => {
    const seen = new Set<string>()
    const ones = new Array(64).fill(0)
    for (let i = 0; i < 50_000; i++) {
      const d = quickDigest(`sk-ant-api03-${i.toString(36).padStart(90, '-')}AA`, 8)
      seen.add(d.toString('hex'))
      for (let bit = 0; bit < 64; bit++) if (d[bit >> 3]! & (1 << (bit & 7))) ones[bit]++
    }
    expect(seen.size).toBe(50_000)
    for (const n of ones) expect(Math.abs(n / 50_000 - 0.5)).toBeLessThan(0.02)
  })
})
