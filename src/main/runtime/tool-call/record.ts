// Step 9, record: what the model and the UI get of a call. The API rejects an empty tool_result, and an empty
// one tells the model nothing. What a tool read or ran goes to the model and the UI: a credential it came across
// (an env dump, a config file, words typed with an answer) goes to neither. A large output is saved whole to a
// file (redacted too) and the model gets its head and the path. Every call ends in exactly one tool_end.
import type { EventPayload } from '../../../shared/events'
import { redactText, redactValue } from '../../../shared/redact'
import type { ToolResult } from '../tools/define-tool'
import { limitOutput } from '../tools/large-output'
import { monotonicMs } from '../clock'

export interface ToolCallOutcome {
  id: string
  name: string
  content: string
  isError: boolean
  details?: unknown
}

export async function recordResult(
  call: { id: string; name: string },
  result: ToolResult,
  opts: { cap: number; outputDir?: string; startedAt: number; ranMs?: number; emit: (payload: EventPayload) => void }
): Promise<ToolCallOutcome> {
  const content =
    result.content === '' ? `(${call.name} completed with no output)` : await limitOutput(redactText(result.content), opts.cap, opts.outputDir, call.id)
  const outcome: ToolCallOutcome = { id: call.id, name: call.name, content, isError: !!result.isError, details: redactValue(result.details) }
  opts.emit({
    type: 'tool_end',
    toolUseId: call.id,
    name: call.name,
    isError: outcome.isError,
    output: content,
    details: outcome.details,
    durationMs: Math.round(monotonicMs() - opts.startedAt),
    ...(opts.ranMs !== undefined ? { runMs: Math.round(opts.ranMs) } : {})
  })
  return outcome
}
