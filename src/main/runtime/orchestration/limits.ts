// Spawn limits for one session: concurrent subagents, nesting depth, total agents and spend.
// Every refusal is a sentence the parent model (and the user) can read; nothing is dropped silently.

export interface SpawnLimits {
  /** Subagents running at once; further spawns wait in a queue (status `queued`). */
  maxConcurrent: number
  /** Deepest allowed nesting: the main agent is depth 0, its subagents depth 1. */
  maxDepth: number
  /** Total subagents one session may create. */
  maxAgentsPerSession: number
  /** Session spend ceiling in USD; 0 or Infinity means no ceiling. */
  budgetUsd: number
}

export const DEFAULT_LIMITS: SpawnLimits = { maxConcurrent: 20, maxDepth: 3, maxAgentsPerSession: 200, budgetUsd: 0 }

/** A FIFO counting semaphore whose waiters can be cancelled by an AbortSignal. */
export class Semaphore {
  private active = 0
  private readonly waiters: Array<{ resolve: () => void; reject: (e: Error) => void }> = []

  constructor(private readonly capacity: number) {}

  get running(): number {
    return this.active
  }

  get queued(): number {
    return this.waiters.length
  }

  /** Resolves with a release function once a slot is free. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw new Error('stopped before it started')
    if (this.active < this.capacity) {
      this.active++
      return this.releaser()
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = { resolve, reject }
      this.waiters.push(waiter)
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
    return this.releaser()
  }

  private releaser(): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.waiters.shift()
      if (next) next.resolve()
      else this.active--
    }
  }
}

export class SpawnGate {
  private spawned = 0
  readonly slots: Semaphore
  /** Spawns refused so far, by the limit that refused them (output formats report them). */
  readonly refused = { depth_limit: 0, session_limit: 0, budget: 0 }

  constructor(
    readonly limits: SpawnLimits,
    private readonly spentUsd: () => number
  ) {
    this.slots = new Semaphore(Math.max(1, limits.maxConcurrent))
  }

  get totalSpawned(): number {
    return this.spawned
  }

  /** Checks depth, count and budget for a new subagent at `depth`; returns a refusal sentence or null. */
  refusal(depth: number): string | null {
    const { maxDepth, maxAgentsPerSession, budgetUsd } = this.limits
    if (depth > maxDepth) {
      this.refused.depth_limit++
      return `Subagent not started: nesting depth ${depth} would exceed the limit of ${maxDepth}. Do this work yourself instead of delegating it further.`
    }
    if (this.spawned >= maxAgentsPerSession) {
      this.refused.session_limit++
      return `Subagent not started: this session already created ${this.spawned} subagents, the limit is ${maxAgentsPerSession}. Finish with the results you have.`
    }
    if (this.overBudget()) {
      this.refused.budget++
      return `Subagent not started: the session has spent $${this.spentUsd().toFixed(4)} of its $${budgetUsd.toFixed(2)} budget. Finish with the results you have.`
    }
    return null
  }

  overBudget(): boolean {
    const { budgetUsd } = this.limits
    return budgetUsd > 0 && Number.isFinite(budgetUsd) && this.spentUsd() >= budgetUsd
  }

  /** Counts a spawn that passed `refusal`. */
  admit(): void {
    this.spawned++
  }
}
