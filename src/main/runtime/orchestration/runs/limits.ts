// Spawn limits for one session: concurrent subagents, nesting depth, total agents and spend.
// Every refusal is a sentence the parent model (and the user) can read; nothing is dropped silently.

import type { SpawnLimits } from '../../../../shared/spawn-limits'

export { DEFAULT_LIMITS, type SpawnLimits } from '../../../../shared/spawn-limits'

/** What the session has spent so far (before a restart too). */
export interface Spent {
  costUsd: number
  tokens: number
}

/** Where the default turn ceiling comes from, as the reason that ends a run says it. */
export const DEFAULT_TURNS_FROM = 'the limit every agent gets, set in Settings → Limits'

/**
 * A slot held by one agent run. `aside(work)` gives the slot back while the run only waits on other agents
 * (its foreground subagents, TaskOutput on a background one) and takes it again, ahead of new spawns, when
 * the wait is over. A parent therefore never holds the slot its children need: nested spawns cannot
 * deadlock, whatever the cap.
 */
export interface SlotLease {
  aside<T>(work: Promise<T>): Promise<T>
  release(): void
}

interface Waiter {
  resolve: () => void
  reject: (e: Error) => void
  /** A run taking its slot back after a wait: served before new runs, so work in progress finishes first. */
  returning: boolean
}

/** A counting semaphore (FIFO, runs coming back from a wait first) whose waiters can be cancelled by an AbortSignal. */
export class Semaphore {
  private active = 0
  private readonly waiters: Waiter[] = []

  constructor(private readonly capacity: number) {}

  get running(): number {
    return this.active
  }

  get queued(): number {
    return this.waiters.length
  }

  /** Resolves with a release function once a slot is free. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    await this.take(false, signal)
    let released = false
    return () => {
      if (released) return
      released = true
      this.give()
    }
  }

  /** Resolves with a lease on a slot once one is free (see SlotLease). */
  async lease(signal?: AbortSignal): Promise<SlotLease> {
    await this.take(false, signal)
    return new Lease(this)
  }

  take(returning: boolean, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new Error('stopped before it started'))
    if (this.active < this.capacity) {
      this.active++
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, returning }
      // Returning runs go after the other returning ones and before every new one.
      const at = returning ? this.waiters.findIndex((w) => !w.returning) : -1
      if (at === -1) this.waiters.push(waiter)
      else this.waiters.splice(at, 0, waiter)
      signal?.addEventListener(
        'abort',
        () => {
          const i = this.waiters.indexOf(waiter)
          if (i >= 0) {
            this.waiters.splice(i, 1)
            reject(new Error('stopped while queued'))
          }
        },
        { once: true }
      )
    })
  }

  /** Hands a slot to the next waiter, or frees it. */
  give(): void {
    const next = this.waiters.shift()
    if (next) next.resolve()
    else this.active--
  }
}

class Lease implements SlotLease {
  private held = true
  private released = false
  private waits = 0
  private taking: Promise<void> | null = null

  constructor(private readonly slots: Semaphore) {}

  async aside<T>(work: Promise<T>): Promise<T> {
    if (this.released) return work
    if (this.waits++ === 0 && this.held) {
      this.held = false
      this.slots.give()
    }
    try {
      return await work
    } finally {
      if (--this.waits === 0 && !this.released) await this.takeBack()
    }
  }

  private takeBack(): Promise<void> {
    if (this.held) return Promise.resolve()
    this.taking ??= this.slots.take(true).then(() => {
      this.taking = null
      // Released meanwhile, or waiting again already: the slot is not this run's to keep.
      if (this.released || this.waits > 0) this.slots.give()
      else this.held = true
    })
    return this.taking
  }

  release(): void {
    if (this.released) return
    this.released = true
    if (this.held) {
      this.held = false
      this.slots.give()
    }
  }
}

/**
 * Spawns the session limit may refuse before the session stops: a model that keeps calling Agent once it was
 * told the limit is reached (every agent of an always-spawning model does, on every turn) would otherwise run
 * each of its hundreds of agents to its turn ceiling. Past this, every agent's next model call is refused.
 */
export const SPAWN_REFUSALS_BEFORE_STOP = 20

export class SpawnGate {
  private spawned = 0
  readonly slots: Semaphore
  /** Spawns refused so far, by the limit that refused them (output formats report them). */
  readonly refused = { depth_limit: 0, session_limit: 0, budget: 0 }

  constructor(
    readonly limits: SpawnLimits,
    /** What the session has spent so far, restarts included. */
    readonly spent: () => Spent
  ) {
    this.slots = new Semaphore(Math.max(1, limits.maxConcurrent))
  }

  get totalSpawned(): number {
    return this.spawned
  }

  /** Checks depth, count and budget for a new subagent at `depth`; returns a refusal sentence or null. */
  refusal(depth: number): string | null {
    const { maxDepth, maxAgentsPerSession } = this.limits
    if (depth > maxDepth) {
      this.refused.depth_limit++
      return `Subagent not started: nesting depth ${depth} would exceed the limit of ${maxDepth}. Do this work yourself instead of delegating it further.`
    }
    if (this.spawned >= maxAgentsPerSession) {
      this.refused.session_limit++
      const left = SPAWN_REFUSALS_BEFORE_STOP - this.refused.session_limit
      return `Subagent not started: this session already created ${this.spawned} subagents, the limit is ${maxAgentsPerSession}. Do not call Agent again; finish with the results you have. ${left > 0 ? `After ${left} more refused Agent call${left === 1 ? '' : 's'} in this session, every agent of it is stopped.` : 'The session stops now: every agent of it is stopped at its next model call.'}`
    }
    const over = this.overBudget()
    if (over) {
      this.refused.budget++
      return `Subagent not started: ${over} Finish with the results you have.`
    }
    return null
  }

  /** Which budget the session has used up, as a sentence; null while it is within both. */
  overBudget(): string | null {
    const { budgetUsd, budgetTokens } = this.limits
    const spent = this.spent()
    if (budgetUsd > 0 && Number.isFinite(budgetUsd) && spent.costUsd >= budgetUsd)
      return `the session has spent $${spent.costUsd.toFixed(4)} of its $${budgetUsd.toFixed(2)} budget.`
    if (budgetTokens > 0 && Number.isFinite(budgetTokens) && spent.tokens >= budgetTokens)
      return `the session has used ${spent.tokens.toLocaleString('en-US')} tokens of its budget of ${budgetTokens.toLocaleString('en-US')}.`
    return null
  }

  /** Why the session's agents are stopped for spawning past its limit, as a sentence; null while they are not. */
  spawnRunaway(): string | null {
    if (this.refused.session_limit < SPAWN_REFUSALS_BEFORE_STOP) return null
    return `Stopped: the session's agents kept starting subagents after its limit of ${this.limits.maxAgentsPerSession} was reached (${this.refused.session_limit} Agent calls refused), so no further model calls are made. Raise the limit in Settings → Limits, or give a task that needs fewer subagents.`
  }

  /** Counts a spawn that passed `refusal`. */
  admit(): void {
    this.spawned++
  }

  /** `work` that `waiter` only waits on (its subagents' runs): its slot is free for them meanwhile. */
  aside<T>(waiter: { slot?: SlotLease | null }, work: Promise<T>): Promise<T> {
    return waiter.slot ? waiter.slot.aside(work) : work
  }
}
