import { describe, expect, it } from 'vitest'
import { lengthVerdict } from './length-limit'

describe('lengthVerdict', () => {
  it('says nothing while short, counts near the limit, and refuses over it with a sentence', () => {
    expect(lengthVerdict(10, 100)).toEqual({ over: false, text: null })
    expect(lengthVerdict(95, 100)).toEqual({ over: false, text: '95 of 100 characters' })
    expect(lengthVerdict(612_345, 500_000, 'This prompt')).toEqual({
      over: true,
      text: 'This prompt is 612,345 characters; Fanout sends at most 500,000. Shorten it (or put the long part in a file and refer to it) to send.'
    })
  })
})
