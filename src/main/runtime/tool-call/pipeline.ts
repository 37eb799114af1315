// One tool call, step by step (index.ts lists them with their files):
//   1 validate → 2 hooks (PreToolUse) → 3 rules → 4 mode → 5 ask → 6 sandbox → 7 execute → 8 post-hooks → 9 record.
// Steps 2-6 are the run's `beforeToolCall` (its session composes them: pre-hooks.ts, then gate.ts, which asks the
// person through person-queue.ts), step 8 its `afterToolCall`; each step answers a CallVerdict (verdict.ts).
// A call stopped at any step still ends in one result and one tool_end, so the conversation answers every tool_use.
import type { EventPayload } from '../../../shared/events'
import { DEFAULT_MAX_OUTPUT_CHARS, type Tool, type ToolResult } from '../tools/define-tool'
import { toolOutputFile } from '../tools/large-output'
import { noteWrite } from '../tools/list-files'
import { failure, INTERRUPTED, invokeTool } from './execute'
import { recordResult, type ToolCallOutcome } from './record'
import { parseInput, validate, type ToolCall } from './validate'
import { personAllowedNote, type AfterToolCall, type BeforeToolCall, type FinalVerdict } from './verdict'
import { monotonicMs } from '../clock'

export interface ToolRunContext {
  tools: ReadonlyMap<string, Tool>
  agentId: string
  signal: AbortSignal
  /** Steps 2-6; absent means every valid call is allowed. */
  beforeToolCall?: BeforeToolCall
  /** Step 8; absent: the tool's result as it is. */
  afterToolCall?: AfterToolCall
  emit: (payload: EventPayload) => void
  maxConcurrency: number
  /** Awaited before a tool that is not read-only runs (see AgentLoopOptions.writeAhead). */
  writeAhead?: (call: { changesFiles: boolean }) => Promise<void>
  /** Where outputs past a tool's cap are saved whole; absent: they are cut. */
  outputDir?: string
}

const ALLOW: FinalVerdict = { behavior: 'allow' }

/** When the tool itself ran (monotonic ms): from the moment steps 2-6 let it run to its result. */
interface RunSpan {
  start?: number
  end?: number
}

/** Steps 1-8: everything that happens for one call before and while its tool runs, minus events. */
async function decideAndRun(call: ToolCall, ctx: ToolRunContext, batch: readonly ToolCall[], span: RunSpan): Promise<ToolResult> {
  const checked = validate(call, ctx.tools)
  if (checked.behavior === 'deny') return { content: checked.message, isError: true }
  const { tool } = checked
  let { input } = checked
  const verdict = ctx.beforeToolCall ? await ctx.beforeToolCall(tool, input, call.id) : ALLOW
  if (verdict.behavior === 'deny') return { content: verdict.message, isError: true }
  let rawInput = call.input
  if (verdict.updatedInput !== undefined) {
    // A hook or the person changed the input: it is validated like the model's.
    const again = parseInput(tool, verdict.updatedInput)
    if (again.behavior === 'deny') return { content: again.message, isError: true }
    rawInput = verdict.updatedInput
    input = again.input
  }
  // Not every tool that changes something changes files (ToolMeta.changesFiles: a spawn, whose agent's own tools
  // say so as they write); an Agent call had made every sibling Glob of a fan-out walk the folder again.
  const changesFiles = tool.changesFiles ?? !tool.readOnly
  if (!tool.readOnly && ctx.writeAhead) await ctx.writeAhead({ changesFiles })
  // Files may change from here: searches list the folder afresh (before the tool and once it is done).
  if (changesFiles) noteWrite()
  const started = Date.now()
  span.start = monotonicMs()
  const done = invokeTool(tool, input, {
    rawInput,
    signal: ctx.signal,
    agentId: ctx.agentId,
    toolUseId: call.id,
    onUpdate: (details) => ctx.emit({ type: 'tool_update', toolUseId: call.id, details }),
    ...(verdict.sandbox ? { sandbox: verdict.sandbox } : {}),
    ...(ctx.outputDir ? { outputFile: toolOutputFile(ctx.outputDir, call.id) } : {}),
    ...(batch.length > 1 ? { batch } : {})
  })
  if (changesFiles) void done.finally(noteWrite).catch(() => undefined)
  let result = await done
  span.end = monotonicMs()
  if (ctx.afterToolCall) result = await ctx.afterToolCall(tool, { rawInput, toolUseId: call.id, signal: ctx.signal, durationMs: Date.now() - started }, result)
  // The person's words with their approval reach the model with the result.
  const note = personAllowedNote(verdict.feedback)
  return note ? { ...result, content: result.content + note } : result
}

/** How long a stopped agent waits for a tool to settle before answering its call as interrupted. */
export const ABORT_GRACE_MS = 500

// Resolves with the tool's result; once the signal aborts, a tool that honours it (a subagent that stops,
// a command whose process group is killed) still settles with what it has to say, within the grace, so a
// parent ends after its children and records their last word; a tool that ignores its signal must not
// hold the agent (or its parent) hostage and is answered as interrupted.
function raceAbort(work: Promise<ToolResult>, call: ToolCall, aborted: Promise<void>, signal: AbortSignal): Promise<ToolResult> {
  const settled = work.catch((err: unknown) => failure(call.name, err, signal))
  const cutOff = aborted.then(
    () =>
      new Promise<ToolResult>((resolve) => {
        const timer = setTimeout(() => resolve({ content: INTERRUPTED(call.name), isError: true }), ABORT_GRACE_MS)
        void settled.then(() => clearTimeout(timer))
      })
  )
  return Promise.race([settled, cutOff])
}

/** One call through every step: tool_run, steps 1-8 (cut off by a stop), then 9 record. */
export async function runToolCall(call: ToolCall, ctx: ToolRunContext, aborted: Promise<void>, batch: readonly ToolCall[]): Promise<ToolCallOutcome> {
  const startedAt = monotonicMs()
  ctx.emit({ type: 'tool_run', toolUseId: call.id, name: call.name, input: call.input })
  const span: RunSpan = {}
  const result = await raceAbort(decideAndRun(call, ctx, batch, span), call, aborted, ctx.signal)
  const cap = ctx.tools.get(call.name)?.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS
  // A tool cut off by a stop ran until now; one never let run (invalid, denied) has no run time.
  const ranMs = span.start === undefined ? undefined : (span.end ?? monotonicMs()) - span.start
  return recordResult(call, result, { cap, startedAt, ranMs, emit: ctx.emit, ...(ctx.outputDir ? { outputDir: ctx.outputDir } : {}) })
}
