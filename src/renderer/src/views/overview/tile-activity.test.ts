// What a queued tile says: waiting for a free agent slot before it starts, or held back by the API's rate
// limits mid-run (the reason the rate limiter gave, in the status detail).
import { describe, expect, it } from 'vitest'
import { queuedWhy } from './tile-activity'

describe('queuedWhy', () => {
  it('says an agent waits for a slot when the detail names agent slots or there is none', () => {
    expect(queuedWhy({ statusDetail: 'waiting for one of 128 concurrent agent slots' })).toBe('Waiting for a free slot…')
    expect(queuedWhy({ statusDetail: undefined })).toBe('Waiting for a free slot…')
  })

  it('says why the rate limiter holds it back', () => {
    expect(queuedWhy({ statusDetail: 'rate limited by the API; waiting 2 s' })).toBe('Queued: rate limited by the API; waiting 2 s…')
  })
})
