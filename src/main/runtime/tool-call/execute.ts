// Step 7, execute: runs input the tool's `parse` accepted, and turns its throw into the model's error (tools only
// declare). Also the one way to run a tool outside an agent's turn (a command's `!` block, a prompt's @file).
import { errorMessage } from '../../../shared/error-message'
import type { Tool, ToolContext, ToolResult } from '../tools/define-tool'

export const INTERRUPTED = (name: string) => `${name} was interrupted: the agent was stopped.`
export const NOT_RUN = (name: string) => `${name} was not run: the agent was stopped.`

/** A call that threw: what the model is told. */
export function failure(name: string, err: unknown, signal: AbortSignal): ToolResult {
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
