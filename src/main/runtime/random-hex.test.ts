// Names drawn from the pool are hex of the asked length and each call gets bytes of its own, across refills.
import { describe, expect, it } from 'vitest'
import { randomHex, randomUuid } from './random-hex'

describe('randomHex', () => {
  it('gives hex of twice the bytes asked, fresh bytes at each call across many refills', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 20_000; i++) {
      const h = randomHex(i % 3 === 0 ? 8 : 4)
      expect(h).toMatch(i % 3 === 0 ? /^[0-9a-f]{16}$/ : /^[0-9a-f]{8}$/)
      seen.add(h)
    }
    // Each byte is handed out once: a repeat is chance alone (~2% for one among the 13,333 4-byte draws).
    expect(seen.size).toBeGreaterThan(19_990)
  })

  it('refuses a length the pool cannot give', () => {
    expect(() => randomHex(0)).toThrow(RangeError)
    expect(() => randomHex(5000)).toThrow(RangeError)
  })

  it('spells version 4 UUIDs as crypto.randomUUID does, each one new', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 5_000; i++) {
      const id = randomUuid()
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      seen.add(id)
    }
    expect(seen.size).toBe(5_000)
  })
})
