import { describe, expect, it } from 'vitest'
import { GROWTH_SETTLE_MS, grow, NO_GROWTH, type Growth } from './growth-room'

/** The room after each arrival, `gap` ms apart. */
function arrive(counts: number[], gap: number): number[] {
  let g: Growth = NO_GROWTH
  return counts.map((n, i) => (g = grow(g, n, 1000 + i * gap)).room)
}

describe('room for a growing fan-out', () => {
  it('lays agents that come together out for exactly their number', () => {
    expect(grow(NO_GROWTH, 6, 1000).room).toBe(6)
    expect(grow(NO_GROWTH, 64, 1000).room).toBe(64)
  })

  it('keeps room for more while agents arrive one by one: a few shapes, not one per agent', () => {
    const rooms = arrive(
      Array.from({ length: 64 }, (_, i) => i + 1),
      31
    )
    expect(rooms.slice(0, 9)).toEqual([1, 2, 4, 4, 8, 8, 8, 8, 16])
    expect(new Set(rooms).size).toBe(7)
    expect(rooms.every((room, i) => room >= i + 1)).toBe(true)
  })

  it('settles on the agents there are once none has arrived for a while, and at once when one leaves the grid', () => {
    let g = grow(grow(grow(NO_GROWTH, 4, 0), 5, 100), 6, 200)
    expect(g.room).toBe(8)
    expect(grow(g, 6, 200 + GROWTH_SETTLE_MS - 1).room).toBe(8)
    expect(grow(g, 6, 200 + GROWTH_SETTLE_MS).room).toBe(6)
    expect(grow(g, 5, 300).room).toBe(5)
    // Agents a slow model writes, each after the last has settled, are laid out for their number.
    g = grow(g, 6, 200 + GROWTH_SETTLE_MS)
    expect(grow(g, 7, 300 + 2 * GROWTH_SETTLE_MS).room).toBe(7)
  })
})
