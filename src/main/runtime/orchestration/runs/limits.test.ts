import { describe, expect, it } from 'vitest'
import { Semaphore, SpawnGate, DEFAULT_LIMITS, SPAWN_REFUSALS_BEFORE_STOP } from './limits'

/** A tree of runs, each holding a lease while it works and setting it aside while its children run. */
async function tree(sem: Semaphore, width: number, depth: number, log: { peak: number; running: number; done: number }): Promise<void> {
  const lease = await sem.lease()
  log.running++
  log.peak = Math.max(log.peak, log.running)
  await new Promise((r) => setTimeout(r, 0))
  if (depth > 0) {
    log.running--
    await lease.aside(Promise.all(Array.from({ length: width }, () => tree(sem, width, depth - 1, log))))
    log.running++
  }
  log.running--
  log.done++
  lease.release()
}

describe('SlotLease', () => {
  it('a parent waiting on its children gives them its slot: a 3x3x3 tree finishes under every cap from 1 to 5', async () => {
    for (let cap = 1; cap <= 5; cap++) {
      const sem = new Semaphore(cap)
      const log = { peak: 0, running: 0, done: 0 }
      await Promise.all(Array.from({ length: 3 }, () => tree(sem, 3, 2, log)))
      expect(log.done).toBe(3 + 9 + 27)
      expect(log.peak).toBeLessThanOrEqual(cap)
      expect(sem.running).toBe(0)
      expect(sem.queued).toBe(0)
    }
  })

  it('a run coming back from a wait goes before runs that never started', async () => {
    const sem = new Semaphore(1)
    const parent = await sem.lease()
    let childDone!: () => void
    const order: string[] = []
    const back = parent.aside(new Promise<void>((r) => (childDone = r))).then(() => order.push('parent back'))
    const fresh = await sem.lease() // took the slot the parent gave up
    const later = sem.lease().then((l) => {
      order.push('later')
      l.release()
    })
    childDone()
    await new Promise((r) => setTimeout(r, 0)) // the parent now queues to come back, behind nobody
    fresh.release()
    await back
    parent.release()
    await later
    expect(order).toEqual(['parent back', 'later'])
    expect(sem.running).toBe(0)
  })

  it('overlapping waits give the slot back once and take it back once; a release during a wait keeps no slot', async () => {
    const sem = new Semaphore(1)
    const lease = await sem.lease()
    let a!: () => void
    let b!: () => void
    const wa = lease.aside(new Promise<void>((r) => (a = r)))
    const wb = lease.aside(new Promise<void>((r) => (b = r)))
    expect(sem.running).toBe(0)
    a()
    await wa
    expect(sem.running).toBe(0) // b still waits: the slot stays free
    b()
    await wb
    expect(sem.running).toBe(1)
    const w = lease.aside(new Promise<void>(() => undefined)) // a wait that never ends (its agent is stopped)
    lease.release()
    expect(sem.running).toBe(0)
    void w
  })
})

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
    let tokens = 0
    const gate = new SpawnGate({ ...DEFAULT_LIMITS, maxDepth: 2, maxAgentsPerSession: 2, budgetUsd: 1 }, () => ({ costUsd: spent, tokens }))
    expect(gate.refusal(1)).toBeNull()
    expect(gate.refusal(3)).toMatch(/depth 3 would exceed the limit of 2/)
    gate.admit()
    gate.admit()
    expect(gate.refusal(1)).toMatch(/already created 2 subagents, the limit is 2/)
    const gate2 = new SpawnGate({ ...DEFAULT_LIMITS, budgetUsd: 1, budgetTokens: 50_000 }, () => ({ costUsd: spent, tokens }))
    spent = 1.5
    expect(gate2.refusal(1)).toMatch(/spent \$1\.5000 of its \$1\.00 budget/)
    spent = 0.5
    expect(gate2.refusal(1)).toBeNull()
    tokens = 50_000
    expect(gate2.refusal(1)).toBe('Subagent not started: the session has used 50,000 tokens of its budget of 50,000. Finish with the results you have.')
  })

  it('stops the session once its agents keep spawning past the count limit, telling the model how many calls are left', () => {
    const gate = new SpawnGate({ ...DEFAULT_LIMITS, maxAgentsPerSession: 1 }, () => ({ costUsd: 0, tokens: 0 }))
    gate.admit()
    expect(gate.refusal(1)).toMatch(/Do not call Agent again; .* After 19 more refused Agent calls in this session, every agent of it is stopped\.$/)
    for (let n = 2; n < SPAWN_REFUSALS_BEFORE_STOP; n++) gate.refusal(1)
    expect(gate.spawnRunaway()).toBeNull()
    expect(gate.refusal(1)).toMatch(/The session stops now/)
    expect(gate.spawnRunaway()).toMatch(/^Stopped: the session's agents kept starting subagents after its limit of 1 was reached \(20 Agent calls refused\)/)
  })
})
