// Step 8, post-hooks: after a successful call PostToolUse hooks' feedback and context are appended to the result
// (`tool_response` is the tool's Claude Code-shaped `response`, else `{content, details}`), and a hook may replace
// the output; after a failed call PostToolUseFailure does the same. `onResponse` keeps a successful call's
// Claude Code-shaped result for stream-json.
import type { HookAgent, HookRunner } from '../hooks/runner'
import type { AfterToolCall } from './verdict'

export function postToolHooks(
  runner: HookRunner,
  agent: HookAgent,
  onResponse?: (toolUseId: string, response: Record<string, unknown>) => void
): AfterToolCall {
  return async (tool, call, result) => {
    if (onResponse && !result.isError) onResponse(call.toolUseId, result.response ?? { content: result.content })
    if (result.isError) {
      if (!runner.has('PostToolUseFailure', agent)) return result
      const notes = await runner.postToolUseFailure(agent, tool.name, call.rawInput, call.toolUseId, {
        error: result.content,
        isInterrupt: call.signal.aborted,
        durationMs: call.durationMs
      })
      return notes.length ? { ...result, content: [result.content, ...notes].join('\n\n') } : result
    }
    if (call.signal.aborted || !runner.has('PostToolUse', agent)) return result
    const response = result.response ?? { content: result.content, ...(result.details !== undefined ? { details: result.details } : {}) }
    const { notes, replaceOutput } = await runner.postToolUse(agent, tool.name, call.rawInput, response, call.toolUseId, call.durationMs)
    if (!notes.length && replaceOutput === undefined) return result
    return { ...result, content: [replaceOutput ?? result.content, ...notes].join('\n\n') }
  }
}
