// Adapts the push-based loop to an AsyncIterable for consumers that prefer `for await`.
// Events are buffered, never dropped; iteration ends after the run's last event. One consumer per stream.
import type { AgentEvent } from '../../../shared/events'
import { runAgentLoop } from './agent-loop'
import type { AgentLoopOptions, AgentRunResult, EmitFn } from './types'

export interface AgentEventStream extends AsyncIterable<AgentEvent> {
  /** Settles when the run ends (whether or not the stream was read). */
  result: Promise<AgentRunResult>
}

export function agentEventStream<O = AgentLoopOptions>(
  opts: O,
  run: (opts: O, emit: EmitFn) => Promise<AgentRunResult> = runAgentLoop as unknown as (opts: O, emit: EmitFn) => Promise<AgentRunResult>
): AgentEventStream {
  const buffer: AgentEvent[] = []
  let done = false
  let wake: (() => void) | null = null
  const notify = () => {
    wake?.()
    wake = null
  }
  const result = run(opts, (e) => {
    buffer.push(e)
    notify()
  }).finally(() => {
    done = true
    notify()
  })
  // The result is also reported through iteration; avoid an unhandled rejection when only iterating.
  result.catch(() => {})

  return {
    result,
    async *[Symbol.asyncIterator]() {
      let i = 0
      for (;;) {
        while (i < buffer.length) yield buffer[i++]
        // Release what was read, so a long run does not keep every delta alive.
        buffer.splice(0, i)
        i = 0
        if (done) {
          await result
          return
        }
        await new Promise<void>((r) => (wake = r))
      }
    }
  }
}
