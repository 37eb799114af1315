import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { QuietDeadline } from './clock'

describe('QuietDeadline', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'hrtime'] }))
  afterEach(() => void vi.useRealTimers())

  it('runs once nothing has poked it for its time, pushed back by every poke', () => {
    const quiet = vi.fn()
    const d = new QuietDeadline(100, quiet)
    d.poke()
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(60)
      d.poke()
    }
    // 300 ms since the first poke, 0 since the last.
    expect(quiet).not.toHaveBeenCalled()
    vi.advanceTimersByTime(99)
    expect(quiet).not.toHaveBeenCalled()
    vi.advanceTimersByTime(2)
    expect(quiet).toHaveBeenCalledTimes(1)
    // Done: a later poke arms nothing.
    d.poke()
    vi.advanceTimersByTime(500)
    expect(quiet).toHaveBeenCalledTimes(1)
  })

  it('sets one timer per quiet period, not one per poke', () => {
    const set = vi.spyOn(globalThis, 'setTimeout')
    const d = new QuietDeadline(100, () => {})
    for (let i = 0; i < 1000; i++) d.poke()
    expect(set).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(50)
    for (let i = 0; i < 1000; i++) d.poke()
    // The first timer fires at 100 and finds 50 ms left: one more.
    vi.advanceTimersByTime(60)
    expect(set).toHaveBeenCalledTimes(2)
    d.stop()
  })

  it('never runs after stop', () => {
    const quiet = vi.fn()
    const d = new QuietDeadline(100, quiet)
    d.poke()
    d.stop()
    d.poke()
    vi.advanceTimersByTime(1000)
    expect(quiet).not.toHaveBeenCalled()
  })

  it('keeps the process alive or not, as asked', () => {
    const kept = new QuietDeadline(100, () => {})
    const loose = new QuietDeadline(100, () => {}, false)
    kept.poke()
    loose.poke()
    expect((kept as unknown as { timer: NodeJS.Timeout }).timer.hasRef()).toBe(true)
    expect((loose as unknown as { timer: NodeJS.Timeout }).timer.hasRef()).toBe(false)
    kept.stop()
    loose.stop()
  })
})
