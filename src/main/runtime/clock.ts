// A monotonic clock in milliseconds, for durations. Not `performance.now()`: on Node 20 the first touch of the
// global `performance` loads perf_hooks and eight more of Node's modules (~1.5 ms), which `fanout run` did
// before its first model request only to time it. Only differences of two readings mean anything.
export function monotonicMs(): number {
  const [s, ns] = process.hrtime()
  return s * 1e3 + ns / 1e6
}

/**
 * A deadline that activity pushes back: `onQuiet` runs once nothing has poked it for `ms`. A poke only stamps
 * the time; the one timer, when it fires early, is set again for what is left. The usual way (re-arming a
 * timer at every poke) goes through Node's timer list each time: a stream's watchdog did so at every event, a
 * thousand times in a 16-agent run, and that list's code turning hot in a fresh process had V8 compile it
 * while agents were starting (cost-and-prompt-cache.md).
 */
export class QuietDeadline {
  private last = 0
  private timer: ReturnType<typeof setTimeout> | null = null
  private done = false

  constructor(
    private readonly ms: number,
    private readonly onQuiet: () => void,
    /** Whether its timer keeps the process alive (as a plain setTimeout does). Default true. */
    private readonly keepsAlive = true
  ) {}

  /** Activity now: the deadline is `ms` from here. Arms the timer if it is not armed. */
  poke(): void {
    if (this.done) return
    this.last = monotonicMs()
    if (!this.timer) this.arm(this.ms)
  }

  /** No deadline any more; later pokes do nothing. */
  stop(): void {
    this.done = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private arm(ms: number): void {
    this.timer = setTimeout(this.fire, ms)
    if (!this.keepsAlive) this.timer.unref()
  }

  private readonly fire = (): void => {
    this.timer = null
    const left = this.ms - (monotonicMs() - this.last)
    // A timer may fire a fraction of a millisecond before its time by this clock (Node's is the loop's, in ms).
    if (left > 0.5) return this.arm(left)
    this.done = true
    this.onQuiet()
  }
}
