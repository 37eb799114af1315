// Transcript writers' batches, written on one shared timer per delay (jsonl-writer.ts).
/**
 * One timer per delay for all writers with values waiting, not one per writer per batch: each agent of a fan-out
 * has its own transcript, and a timer for each of their batches went through Node's timer list as many times
 * (see clock.ts, QuietDeadline). A batch waits at most its delay, as before; one that began just before a tick
 * set by another writer is written with that tick, sooner.
 */
export class BatchTick {
  private due = new Set<() => void>()
  private timer: ReturnType<typeof setTimeout> | null = null
  constructor(private readonly ms: number) {}

  add(write: () => void): void {
    this.due.add(write)
    // Kept ref'd on purpose: a process about to exit still writes what it queued.
    this.timer ??= setTimeout(this.fire, this.ms)
  }

  delete(write: () => void): void {
    this.due.delete(write)
    if (this.due.size || !this.timer) return
    clearTimeout(this.timer)
    this.timer = null
  }

  private readonly fire = (): void => {
    this.timer = null
    const due = this.due
    this.due = new Set()
    for (const write of due) write()
  }
}

const ticks = new Map<number, BatchTick>()
/** The tick every writer with this delay shares. */
export const batchTick = (ms: number): BatchTick => {
  let tick = ticks.get(ms)
  if (!tick) ticks.set(ms, (tick = new BatchTick(ms)))
  return tick
}
