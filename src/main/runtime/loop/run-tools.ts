// Runs the tool calls of one assistant message. Consecutive concurrency-safe calls run together, the
// others one at a time, and results come back in the order the model asked. Each call goes through the one
// tool-call pipeline (tool-call/pipeline.ts: validate, hooks, rules, mode, ask, sandbox, execute, post-hooks,
// record), so every call ends in exactly one tool_end and one result, refused and interrupted ones included.
import type { Tool } from '../tools/define-tool'
import { NOT_RUN } from '../tool-call/execute'
import { runToolCall, type ToolRunContext } from '../tool-call/pipeline'
import type { ToolCallOutcome } from '../tool-call/record'
import type { ToolCall } from '../tool-call/validate'
import type { EarlyCalls } from './early-calls'

export type { ToolCall, ToolCallOutcome, ToolRunContext }

/** One abort listener per assistant message (not per call), so 64 parallel calls do not trip MaxListeners. */
function abortedPromise(signal: AbortSignal): { promise: Promise<void>; dispose(): void } {
  if (signal.aborted) return { promise: Promise.resolve(), dispose: () => {} }
  let onAbort = () => {}
  const promise = new Promise<void>((resolve) => {
    onAbort = () => resolve()
    signal.addEventListener('abort', onAbort, { once: true })
  })
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) }
}

function notRun(call: ToolCall, ctx: ToolRunContext): ToolCallOutcome {
  const content = NOT_RUN(call.name)
  ctx.emit({ type: 'tool_end', toolUseId: call.id, name: call.name, isError: true, output: content, durationMs: 0 })
  return { id: call.id, name: call.name, content, isError: true }
}

async function runBatch(calls: ToolCall[], ctx: ToolRunContext, aborted: Promise<void>, early?: EarlyCalls): Promise<ToolCallOutcome[]> {
  const started = early ? calls.map((c) => early.outcome(c.id)) : []
  if (!started.some(Boolean) && (calls.length === 1 || ctx.maxConcurrency >= calls.length))
    return Promise.all(calls.map((c) => runToolCall(c, ctx, aborted, calls)))
  // Calls that started while the reply streamed (early-calls.ts) are waited for, and hold their place under the cap.
  const slots = new Slots(Math.max(1, ctx.maxConcurrency))
  for (const p of started) if (p) slots.hold(p)
  return Promise.all(calls.map((c, i) => started[i] ?? slots.run(() => runToolCall(c, ctx, aborted, calls))))
}

/** At most `limit` calls at once, started in the order asked. */
class Slots {
  private active = 0
  private readonly waiting: Array<() => void> = []
  constructor(private readonly limit: number) {}

  hold(work: Promise<unknown>): void {
    this.active++
    const release = () => this.release()
    void work.then(release, release)
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active++
    else await new Promise<void>((resolve) => this.waiting.push(resolve))
    try {
      return await work()
    } finally {
      this.release()
    }
  }

  /** A freed slot goes to the next call waiting, else back to the pool. */
  private release(): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.active--
  }
}

function isSafe(call: ToolCall, tools: ReadonlyMap<string, Tool>): boolean {
  const tool = tools.get(call.name)
  // A refused or malformed call does nothing, so it may share a batch.
  return !tool || !!call.inputError || tool.concurrencySafe
}

/** Runs the calls (those `early` started are waited for); the outcomes are in the order of `calls`. */
export async function runToolCalls(calls: ToolCall[], ctx: ToolRunContext, early?: EarlyCalls): Promise<ToolCallOutcome[]> {
  const batches: ToolCall[][] = []
  for (const call of calls) {
    const last = batches[batches.length - 1]
    if (last && isSafe(call, ctx.tools) && isSafe(last[0], ctx.tools)) last.push(call)
    else batches.push([call])
  }
  const outcomes: ToolCallOutcome[] = []
  const aborted = abortedPromise(ctx.signal)
  try {
    for (const batch of batches) {
      if (ctx.signal.aborted) {
        // Calls that never started still get a result and a tool_end (but no tool_run: they did not run).
        for (const call of batch) outcomes.push(await (early?.outcome(call.id) ?? notRun(call, ctx)))
        continue
      }
      outcomes.push(...(await runBatch(batch, ctx, aborted.promise, early)))
    }
  } finally {
    aborted.dispose()
  }
  return outcomes
}
