// One clock for every process of a bench run: the machine's monotonic clock (CLOCK_MONOTONIC, what
// process.hrtime reads), the same in every process and never stepped. `performance.timeOrigin + now()`,
// which the bench used before, is each process's wall clock at its own start plus the time since: when the
// machine's wall clock is set while a bench runs (a VM's clock corrected by its host), a process started
// after it reads seconds apart from one started before (seen: 6.7 s added to every start-to-first-request
// figure of one run, Fanout's and Claude Code's alike). A page's clock is lined up by round trips
// (ui-clock.ts).
import { monotonicMs } from '../src/main/runtime/clock'

/** Now on the machine's monotonic clock, ms (the runtime's own monotonicMs: process.hrtime, the same in every process). */
export const machineNow = monotonicMs

/** A `performance.now()` stamp of this process on the machine's monotonic clock, ms. */
export const machineFromPerf = (at: number): number => machineNow() - (performance.now() - at)
