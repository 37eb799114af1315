// Calls that start while their reply still streams. A model that fans out writes one Agent call after another
// for seconds; each call whose input has streamed whole can start at once, as Claude Code starts them, instead
// of waiting for the last one. A call may start early when it would have run in the reply's first batch
// anyway (run-tools.ts): it is concurrency-safe and so is every call before it. The caller's policy
// (AgentLoopOptions.startEarly) can hold a call back to the reply's end, where it runs with the rest.
//
// What a crash or a fault must not lose, and how:
// - Before a call starts, the reply's blocks so far are recorded (a `reply_blocks` event), and a tool that
//   changes anything waits until they are on disk (the pipeline's writeAhead): a crash mid-reply resumes with
//   the call in the conversation, answered from what its work came to (delivery-ledger.ts).
// - Once a call has started the reply is never asked again (StreamHandlers.committed): a stream that fails
//   ends the reply where it got to, a call max_tokens cut is answered as not run, and a stop keeps the calls
//   that started with their results. The model is told what happened to its reply.
import type { ContentBlock } from '../../../shared/events'
import type { ToolUseReady } from '../model/types'
import { runToolCall, type ToolRunContext } from '../tool-call/pipeline'
import type { ToolCallOutcome } from '../tool-call/record'
import type { RunState } from './run-state'

export class EarlyCalls {
  private readonly started = new Map<string, Promise<ToolCallOutcome>>()
  /** How many calls of each tool started. */
  private readonly startedByName = new Map<string, number>()
  /** A call that may not share the first batch streamed: the calls after it wait for the reply's end. */
  private closed = false
  /** The reply's blocks that reply_blocks events recorded so far: all complete, the last of them a call that started. */
  head: ContentBlock[] = []
  private abortListener: (() => void) | null = null
  private abortedPromise: Promise<void> | null = null

  constructor(
    private readonly run: RunState,
    private readonly ctx: ToolRunContext
  ) {}

  /** Whether any call of this reply has started: the reply is then kept whatever happens to its stream. */
  get committed(): boolean {
    return this.started.size > 0
  }

  has(id: string): boolean {
    return this.started.has(id)
  }

  /** How many calls to any of `names` started (StreamHandlers.startedCalls). */
  startedOf(names: ReadonlySet<string>): number {
    let n = 0
    for (const name of names) n += this.startedByName.get(name) ?? 0
    return n
  }

  /** The outcome of a call that started early. */
  outcome(id: string): Promise<ToolCallOutcome> | undefined {
    return this.started.get(id)
  }

  /** StreamHandlers.onToolUse: starts the call when it may; true when it did. */
  offer(call: ToolUseReady, sofar: readonly ToolUseReady[], message: () => ContentBlock[]): boolean {
    const { run, ctx } = this
    if (this.closed || run.signal.aborted) return false
    const tool = run.tools.get(call.name)
    if (!tool || !tool.concurrencySafe) {
      // An unknown tool is answered with the others at the reply's end; a call that must run alone closes the batch.
      if (tool) this.closed = true
      return false
    }
    if (this.started.size >= ctx.maxConcurrency) return false
    if (!run.opts.startEarly?.(call, sofar)) return false
    const blocks = message()
    run.send({ type: 'reply_blocks', blocks: blocks.slice(this.head.length) })
    this.head = blocks
    // Its siblings so far, as a batch of their own: the list the stream goes on growing is not theirs to keep.
    const batch = sofar.slice()
    this.startedByName.set(call.name, (this.startedByName.get(call.name) ?? 0) + 1)
    this.started.set(call.id, runToolCall({ id: call.id, name: call.name, input: call.input }, ctx, this.aborted(), batch))
    return true
  }

  /** The outcomes of every call that started, in the reply's order (for a reply a stop cut short). */
  async settle(order: readonly string[]): Promise<ToolCallOutcome[]> {
    const out: ToolCallOutcome[] = []
    for (const id of order) {
      const p = this.started.get(id)
      if (p) out.push(await p)
    }
    return out
  }

  dispose(): void {
    if (this.abortListener) this.run.signal.removeEventListener('abort', this.abortListener)
    this.abortListener = null
  }

  /** One abort listener for every early call of the reply (not one each: 64 would trip MaxListeners). */
  private aborted(): Promise<void> {
    if (this.abortedPromise) return this.abortedPromise
    const { signal } = this.run
    if (signal.aborted) return (this.abortedPromise = Promise.resolve())
    this.abortedPromise = new Promise<void>((resolve) => {
      this.abortListener = () => resolve()
      signal.addEventListener('abort', this.abortListener, { once: true })
    })
    return this.abortedPromise
  }
}
