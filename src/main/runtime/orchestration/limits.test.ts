import { describe, expect, it } from 'vitest'
import { Semaphore, SpawnGate, DEFAULT_LIMITS } from './limits'

describe('Semaphore', () => {
  it('never lets more than its capacity run and serves waiters in order', async () => {
    const sem = new Semaphore(2)
    let running = 0
    let peak = 0
    const order: number[] = []
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const release = await sem.acquire()
        running++
        peak = Math.max(peak, running)
        order.push(i)
        await new Promise((r) => setTimeout(r, 2))
        running--
        release()
      })
    )
    expect(peak).toBe(2)
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(sem.running).toBe(0)
  })

  it('drops a queued waiter when its signal aborts, without leaking a slot', async () => {
    const sem = new Semaphore(1)
    const release = await sem.acquire()
    const ac = new AbortController()
    const waiting = sem.acquire(ac.signal)
    expect(sem.queued).toBe(1)
    ac.abort()
    await expect(waiting).rejects.toThrow('stopped while queued')
    expect(sem.queued).toBe(0)
    release()
    const again = await sem.acquire()
    expect(sem.running).toBe(1)
    again()
    again() // releasing twice is harmless
    expect(sem.running).toBe(0)
  })
})

describe('SpawnGate', () => {
  it('refuses spawns past the depth, count and budget limits with a reason', () => {
    let spent = 0
    const gate = new SpawnGate({ ...DEFAULT_LIMITS, maxDepth: 2, maxAgentsPerSession: 2, budgetUsd: 1 }, () => spent)
    expect(gate.refusal(1)).toBeNull()
    expect(gate.refusal(3)).toMatch(/depth 3 would exceed the limit of 2/)
    gate.admit()
    gate.admit()
    expect(gate.refusal(1)).toMatch(/already created 2 subagents, the limit is 2/)
    const gate2 = new SpawnGate({ ...DEFAULT_LIMITS, budgetUsd: 1 }, () => spent)
    spent = 1.5
    expect(gate2.refusal(1)).toMatch(/spent \$1\.5000 of its \$1\.00 budget/)
  })
})
