// Young-generation garbage collected while `fanout run` waits for the model, not in the middle of a hand-off.
//
// A fan-out allocates in bursts (a reply's events, each agent's request) between long waits for the model. V8
// collects its young generation when that fills, whenever that is; each collection copies what is still alive,
// and in a 16-way fan-out twelve of them took 1-7 ms each (35 ms in all, measured with a `gc` observer),
// landing where they fell: one on the critical path adds its whole length to the fan-out's overhead. So the
// run collects the young generation itself when the event loop has been idle for a while (every agent waiting
// on the model) and the young generation holds enough to be worth it: the collection costs about what the
// one V8 would have made later costs, but at a moment nothing waits for it. Measured at 16 agents (bench, two
// runs of 5 interleaved pairs each way): the fan-out's overhead median 29 and 29 ms → 27 and 25, its minimum
// 28 and 25 → 19 and 19; the collections all came at idle moments (1-2 ms each, ~20 ms more in all over a run).
//
// The collector is V8's own `gc` function, fetched once (`--expose-gc` turned on for that moment and off again:
// the flag is part of what a code cache is made under, see feedback-tiering.ts). Where it cannot be had, nothing
// changes.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { chosenOnCommandLine } from './node-flags'

/** V8's `gc`, asked for a young-generation collection only (the one kind this module makes). */
type Collect = (options: { type: 'minor' }) => void

/** How often the loop's use is looked at, ms. */
const TICK_MS = 20
/** The event loop busy for at most this share of the last tick counts as idle. */
const IDLE_SHARE = 0.05
/**
 * The young generation is collected once it is an eighth full, and holds at least this many bytes (V8 sizes it
 * from 1 MB up to 16 MB a half as what survives its collections grows).
 */
const WORTH_BYTES = 256 << 10

function fetchCollector(): Collect | null {
  try {
    setFlagsFromString('--expose-gc')
    return runInNewContext('gc') as Collect
  } catch {
    return null
  } finally {
    setFlagsFromString('--no-expose-gc')
  }
}

/** Whether the young generation holds enough that collecting it now spares a collection later. */
function worthCollecting(): boolean {
  for (const s of getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_used_size >= Math.max(WORTH_BYTES, s.space_size / 8)
  return false
}

/** Starts collecting at idle moments; the returned function stops it. A person who exposed `gc` themselves is left alone. */
export function collectWhileIdle(): () => void {
  if (chosenOnCommandLine('expose-gc')) return () => undefined
  const collect = fetchCollector()
  if (!collect) return () => undefined
  let last = performance.eventLoopUtilization()
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization()
    const use = performance.eventLoopUtilization(now, last)
    last = now
    if (use.utilization > IDLE_SHARE || !worthCollecting()) return
    collect({ type: 'minor' })
    // The collection's own time is not the loop's use by the run.
    last = performance.eventLoopUtilization()
  }, TICK_MS)
  timer.unref()
  return () => clearInterval(timer)
}
