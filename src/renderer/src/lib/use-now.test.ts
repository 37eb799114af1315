// Relative times ("just now", "2 min ago") move on as time passes, with the page left open.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createClock, relativeLabel } from './use-now'

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-03-02T10:00:00Z') }))
afterEach(() => vi.useRealTimers())

describe('relative time labels', () => {
  it('tell their listeners when time has moved on, and read "2 min ago" two minutes later', () => {
    const clock = createClock(5000)
    const { subscribe, label } = relativeLabel(Date.now(), clock)
    const heard = vi.fn()
    const off = subscribe(heard)
    expect(label()).toBe('just now')
    vi.advanceTimersByTime(30_000)
    expect(label()).toBe('just now')
    vi.advanceTimersByTime(90_000)
    expect(heard).toHaveBeenCalled()
    expect(label()).toBe('2 min ago')
    vi.advanceTimersByTime(2 * 3_600_000)
    expect(label()).toBe('2 h ago')
    off()
  })

  it('keep one timer for all labels, and none once nobody listens', () => {
    const clock = createClock(5000)
    const offs = [1, 2, 3].map(() => relativeLabel(Date.now(), clock).subscribe(() => {}))
    expect(vi.getTimerCount()).toBe(1)
    for (const off of offs) off()
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('clocks in slices', () => {
  it('tell each listener once a period, a share of them at each slice, with one timer', () => {
    const clock = createClock(1000, 4)
    const heard = Array.from({ length: 8 }, () => vi.fn())
    const offs = heard.map((h) => clock.subscribe(h))
    expect(vi.getTimerCount()).toBe(1)
    vi.advanceTimersByTime(250)
    expect(heard.filter((h) => h.mock.calls.length === 1)).toHaveLength(2)
    expect(clock.now()).toBe(Date.now())
    vi.advanceTimersByTime(750)
    expect(heard.map((h) => h.mock.calls.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1])
    vi.advanceTimersByTime(1000)
    expect(heard.map((h) => h.mock.calls.length)).toEqual([2, 2, 2, 2, 2, 2, 2, 2])
    for (const off of offs) off()
    expect(vi.getTimerCount()).toBe(0)
  })
})
