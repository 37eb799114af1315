// What a queued tile says: waiting for a free agent slot before it starts, or held back by the API's rate
// limits mid-run (the reason the rate limiter gave, in the status detail).
import { describe, expect, it } from 'vitest'
import { plainTail } from '../../lib/plain-preview'
import { queuedWhy, TEXT_TAIL, tileTextChars } from './tile-activity'

describe('queuedWhy', () => {
  it('says an agent waits for a slot when the detail names agent slots or there is none', () => {
    expect(queuedWhy({ statusDetail: 'waiting for one of 128 concurrent agent slots' })).toBe('Waiting for a free slot…')
    expect(queuedWhy({ statusDetail: undefined })).toBe('Waiting for a free slot…')
  })

  it('says why the rate limiter holds it back', () => {
    expect(queuedWhy({ statusDetail: 'rate limited by the API; waiting 2 s' })).toBe('Queued: rate limited by the API; waiting 2 s…')
  })
})

describe('tileTextChars', () => {
  it('keeps what a tile shows and a line more: two lines of a one-line 204×64 tile, more for taller or wider tiles', () => {
    const small = tileTextChars(204, 64, false)
    expect(small).toBe(2 * 46) // one line shown (64 - 13 - 38 < 32), 182 px at 4 px a character
    expect(tileTextChars(204, 96, false)).toBeGreaterThan(small) // two lines shown
    expect(tileTextChars(300, 64, false)).toBeGreaterThan(small)
    expect(tileTextChars(150, 44, true)).toBeLessThan(small)
  })

  it('never keeps more than before (the widest tiles) nor next to nothing', () => {
    expect(tileTextChars(520, 132, false)).toBe(TEXT_TAIL)
    expect(tileTextChars(10, 10, true)).toBe(40)
  })

  it('ends on the newest text, cut at a word with the ellipsis first', () => {
    const text = 'the parser reads each token and the lexer keeps its position so that errors can say where they happened '.repeat(5)
    const tail = plainTail(text, tileTextChars(204, 64, false))
    expect(tail.startsWith('…')).toBe(true)
    expect(text.trim().endsWith(tail.slice(1))).toBe(true)
  })
})
