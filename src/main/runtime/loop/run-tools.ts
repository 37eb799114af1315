// Runs the tool calls of one assistant message. Consecutive concurrency-safe calls run together, the
// others one at a time, and results come back in the order the model asked. Every call ends in exactly
// one tool_end event and one result, including refused calls, bad input, denials and interruptions,
// so the conversation always answers every tool_use. This is the one place a tool call is validated,
// checked against the abort signal and has its throw turned into the model's error (tools only declare).
import type { EventPayload } from '../../../shared/events'
import { redactText, redactValue } from '../../../shared/redact'
import { DEFAULT_MAX_OUTPUT_CHARS, type SandboxLevel, type Tool, type ToolContext, type ToolResult } from '../tools/define-tool'
import { limitOutput, toolOutputFile } from '../tools/large-output'
import { noteWrite } from '../tools/list-files'
import type { CanUseTool } from './types'
import { errorMessage } from '../../../shared/error-message'

export interface ToolCall {
  id: string
  name: string
  input: unknown
  /** Set when the streamed input was not valid JSON. */
  inputError?: string
  /** Set when the call is answered without running (AgentLoopOptions.beforeTools): the model's result. */
  refused?: string
}

export interface ToolCallOutcome {
  id: string
  name: string
  content: string
  isError: boolean
  details?: unknown
}

export interface ToolRunContext {
  tools: ReadonlyMap<string, Tool>
  agentId: string
  signal: AbortSignal
  canUseTool?: CanUseTool
  emit: (payload: EventPayload) => void
  maxConcurrency: number
  /** Awaited before a tool that is not read-only runs (see AgentLoopOptions.writeAhead). */
  writeAhead?: () => Promise<void>
  /** Where outputs past a tool's cap are saved whole; absent: they are cut. */
  outputDir?: string
}

const INTERRUPTED = (name: string) => `${name} was interrupted: the agent was stopped.`
const NOT_RUN = (name: string) => `${name} was not run: the agent was stopped.`

/** A call that threw: what the model is told. */
function failure(name: string, err: unknown, signal: AbortSignal): ToolResult {
  if (signal.aborted) return { content: INTERRUPTED(name), isError: true }
  return { content: `${name} failed: ${errorMessage(err)}`, isError: true }
}

/** Runs input the tool's `parse` accepted: not at all once the agent is stopped, and never throws. */
export async function invokeTool(tool: Tool, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.signal.aborted) return { content: NOT_RUN(tool.name), isError: true }
  try {
    return await tool.execute(input, ctx)
  } catch (err) {
    return failure(tool.name, err, ctx.signal)
  }
}

/** One call of one tool outside a batch (no permission check, no events): validates, then invokeTool. */
export async function runTool(tool: Tool, rawInput: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = tool.parse(rawInput)
  if (!parsed.ok) return { content: parsed.error, isError: true }
  return invokeTool(tool, parsed.input, { ...ctx, rawInput })
}

function refusal(call: ToolCall, tools: ReadonlyMap<string, Tool>): string {
  const names = [...tools.keys()]
  const available = names.length ? `The tools available to you are: ${names.join(', ')}.` : 'You have no tools; answer in text.'
  return `No tool named "${call.name}" is available to this agent. ${available}`
}

/** Everything that happens for one call before and while its tool runs, minus events. */
async function execute(call: ToolCall, ctx: ToolRunContext, batch: readonly ToolCall[]): Promise<ToolResult> {
  const tool = ctx.tools.get(call.name)
  if (!tool) return { content: refusal(call, ctx.tools), isError: true }
  if (call.refused !== undefined) return { content: call.refused, isError: true }
  if (call.inputError)
    return {
      content: `The input for ${call.name} was not valid JSON (${call.inputError}). Call ${call.name} again with a JSON object as its input.`,
      isError: true
    }
  let parsed = tool.parse(call.input)
  if (!parsed.ok) return { content: parsed.error, isError: true }
  let rawInput = call.input
  let sandbox: SandboxLevel | undefined
  if (ctx.canUseTool) {
    const decision = await ctx.canUseTool(tool, parsed.input, call.id)
    if (decision.behavior === 'deny') return { content: decision.message, isError: true }
    // A hook or the person changed the input: it is validated like the model's.
    if (decision.updatedInput !== undefined) {
      rawInput = decision.updatedInput
      parsed = tool.parse(rawInput)
      if (!parsed.ok) return { content: parsed.error, isError: true }
    }
    sandbox = decision.sandbox
  }
  if (!tool.readOnly && ctx.writeAhead) await ctx.writeAhead()
  // Files may change from here: searches list the folder afresh (before the tool and once it is done).
  if (!tool.readOnly) noteWrite()
  const done = invokeTool(tool, parsed.input, {
    rawInput,
    signal: ctx.signal,
    agentId: ctx.agentId,
    toolUseId: call.id,
    onUpdate: (details) => ctx.emit({ type: 'tool_update', toolUseId: call.id, details }),
    ...(sandbox ? { sandbox } : {}),
    ...(ctx.outputDir ? { outputFile: toolOutputFile(ctx.outputDir, call.id) } : {}),
    ...(batch.length > 1 ? { batch } : {})
  })
  if (!tool.readOnly) void done.finally(noteWrite).catch(() => undefined)
  return done
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

async function runOne(call: ToolCall, ctx: ToolRunContext, aborted: Promise<void>, batch: readonly ToolCall[]): Promise<ToolCallOutcome> {
  const started = performance.now()
  ctx.emit({ type: 'tool_run', toolUseId: call.id, name: call.name, input: call.input })
  const result = await raceAbort(execute(call, ctx, batch), call, aborted, ctx.signal)
  // The API rejects an empty tool_result, and an empty one tells the model nothing. What a tool read or ran
  // goes to the model and the UI: a credential it came across (an env dump, a config file) goes to neither.
  // A large output is saved whole to a file (redacted too) and the model gets its head and the path.
  const cap = ctx.tools.get(call.name)?.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS
  const content = result.content === '' ? `(${call.name} completed with no output)` : await limitOutput(redactText(result.content), cap, ctx.outputDir, call.id)
  const outcome: ToolCallOutcome = { id: call.id, name: call.name, content, isError: !!result.isError, details: redactValue(result.details) }
  ctx.emit({
    type: 'tool_end',
    toolUseId: call.id,
    name: call.name,
    isError: outcome.isError,
    output: content,
    details: outcome.details,
    durationMs: Math.round(performance.now() - started)
  })
  return outcome
}

function notRun(call: ToolCall, ctx: ToolRunContext): ToolCallOutcome {
  const content = NOT_RUN(call.name)
  ctx.emit({ type: 'tool_end', toolUseId: call.id, name: call.name, isError: true, output: content, durationMs: 0 })
  return { id: call.id, name: call.name, content, isError: true }
}

async function runBatch(calls: ToolCall[], ctx: ToolRunContext, aborted: Promise<void>): Promise<ToolCallOutcome[]> {
  if (calls.length === 1 || ctx.maxConcurrency >= calls.length) return Promise.all(calls.map((c) => runOne(c, ctx, aborted, calls)))
  const out: ToolCallOutcome[] = new Array(calls.length)
  let next = 0
  const worker = async () => {
    while (next < calls.length) {
      const i = next++
      out[i] = await runOne(calls[i], ctx, aborted, calls)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, ctx.maxConcurrency) }, worker))
  return out
}

function isSafe(call: ToolCall, tools: ReadonlyMap<string, Tool>): boolean {
  const tool = tools.get(call.name)
  // A refused or malformed call does nothing, so it may share a batch.
  return !tool || !!call.inputError || tool.concurrencySafe
}

/** Runs the calls; the outcomes are in the order of `calls`. */
export async function runToolCalls(calls: ToolCall[], ctx: ToolRunContext): Promise<ToolCallOutcome[]> {
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
        for (const call of batch) outcomes.push(notRun(call, ctx))
        continue
      }
      outcomes.push(...(await runBatch(batch, ctx, aborted.promise)))
    }
  } finally {
    aborted.dispose()
  }
  return outcomes
}
