// The agent loop: (context, tools, model) -> a stream of AgentEvents pushed into `emit`, and a result.
// One turn = one model call: the user message that opens it (prompt, tool results, inbox, reminder),
// the streamed assistant reply, then its tool calls. It never throws: a failure that survives the
// model client's retries ends the run with status `failed`, so a parent agent always gets an answer.
// runAgentLoop is the list of a turn's phases, each in a file of its own named after it (pi-mono's
// agent-loop has the same shape); what they share between them is the run's state (run-state.ts).
import { errorMessage } from '../../../shared/error-message'
import { afterTools, beforeTools } from './around-tools'
import { EarlyCalls } from './early-calls'
import { stopAfterTools } from './check-stops'
import { handleReply } from './handle-reply'
import { nextTurnOrFinish } from './next-turn'
import { openTurn } from './open-turn'
import { prepareContext } from './prepare-request'
import { RunState } from './run-state'
import { runToolCalls, type ToolRunContext } from './run-tools'
import { streamReply } from './stream-reply'
import type { AgentLoopOptions, AgentRunResult, EmitFn } from './types'

export async function runAgentLoop(opts: AgentLoopOptions, emit: EmitFn): Promise<AgentRunResult> {
  const run = new RunState(opts, emit)
  const noPrompt = refuseEmptyStart(run)
  if (noPrompt) return noPrompt
  try {
    for (;;) {
      // 1. Open the turn: the stops asked before it, then the user message that opens it.
      const opened = openTurn(run)
      if ('end' in opened) return opened.end
      const { turn } = opened
      // 2. Prepare the request: the context window (compaction); each attempt's request is built as it goes.
      const stopped = await prepareContext(run, turn)
      if (stopped) return stopped
      // 3. Stream the model's reply (retries and fallbacks are the client's; too long, cut tool calls are ours).
      // Calls that stream whole may start before the reply ends (early-calls.ts).
      const tools = toolRunContext(run)
      const early = new EarlyCalls(run, tools)
      try {
        const streamed = await streamReply(run, turn, early)
        if ('end' in streamed) return streamed.end
        // 4. Handle the reply: usage, stop reason, the assistant message, its tool calls.
        const reply = handleReply(run, turn, streamed.response, early)
        if ('end' in reply) return reply.end
        if (reply.calls.length) {
          // 5. Run the tools (those that started early are waited for).
          const calls = await beforeTools(run, reply.calls, early)
          const outcomes = await runToolCalls(calls, tools, early)
          await afterTools(run, turn, calls, outcomes)
          // 6. Check the stop conditions asked after tools; else the results open the next turn.
          const stop = stopAfterTools(run, calls, outcomes)
          if (stop) return stop
          continue
        }
      } finally {
        early.dispose()
      }
      // 7. No tool calls: another turn when there is more for the agent, else the run is done.
      const done = await nextTurnOrFinish(run, turn)
      if (done) return done
    }
  } catch (err) {
    // A bug here or in a consumer (emit threw) still ends in a result, never a throw at the parent.
    const message = `Internal error in the agent loop: ${errorMessage(err)}`
    try {
      run.send({ type: 'error', message, retrying: false })
    } catch {}
    return run.finish('failed', message)
  }
}

/** A run must start with something to answer: a prompt, or history that ends with the person's message. */
function refuseEmptyStart(run: RunState): AgentRunResult | null {
  const lastIsUser = run.historyLength > 0 && run.messages[run.historyLength - 1].role === 'user'
  if (run.pending?.length || lastIsUser) return null
  const error = 'The agent was given no prompt: pass a non-empty prompt, or history that ends with a user message.'
  run.send({ type: 'error', message: error, retrying: false })
  return run.finish('failed', error)
}

/** What the tool calls of a turn run with (run-tools.ts). */
function toolRunContext(run: RunState): ToolRunContext {
  const { opts } = run
  return {
    tools: run.tools,
    agentId: opts.agentId,
    signal: run.signal,
    ...(opts.beforeToolCall ? { beforeToolCall: opts.beforeToolCall } : {}),
    ...(opts.afterToolCall ? { afterToolCall: opts.afterToolCall } : {}),
    emit: run.send,
    maxConcurrency: opts.maxToolConcurrency ?? Infinity,
    ...(opts.toolOutputDir ? { outputDir: opts.toolOutputDir } : {}),
    ...(opts.writeAhead ? { writeAhead: opts.writeAhead } : {})
  }
}
