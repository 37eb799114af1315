// Step 1, validate: the tool exists for this agent, the call was not answered before it ran (beforeTools), its
// streamed input is JSON, and the tool's `parse` accepts it. A refusal is the model's tool result.
import type { Tool } from '../tools/define-tool'
import type { CallVerdict } from './verdict'

export interface ToolCall {
  id: string
  name: string
  input: unknown
  /** Set when the streamed input was not valid JSON. */
  inputError?: string
  /** Set when the call is answered without running (AgentLoopOptions.beforeTools): the model's result. */
  refused?: string
}

export type Validated = { behavior: 'pass'; tool: Tool; input: unknown } | Extract<CallVerdict, { behavior: 'deny' }>

function unknownTool(call: ToolCall, tools: ReadonlyMap<string, Tool>): string {
  const names = [...tools.keys()]
  const available = names.length ? `The tools available to you are: ${names.join(', ')}.` : 'You have no tools; answer in text.'
  return `No tool named "${call.name}" is available to this agent. ${available}`
}

export function validate(call: ToolCall, tools: ReadonlyMap<string, Tool>): Validated {
  const tool = tools.get(call.name)
  if (!tool) return { behavior: 'deny', message: unknownTool(call, tools) }
  if (call.refused !== undefined) return { behavior: 'deny', message: call.refused }
  if (call.inputError)
    return {
      behavior: 'deny',
      message: `The input for ${call.name} was not valid JSON (${call.inputError}). Call ${call.name} again with a JSON object as its input.`
    }
  return parseInput(tool, call.input)
}

/** The tool's own check, also of input a hook or the person changed: it is validated like the model's. */
export function parseInput(tool: Tool, input: unknown): Validated {
  const parsed = tool.parse(input)
  return parsed.ok ? { behavior: 'pass', tool, input: parsed.input } : { behavior: 'deny', message: parsed.error }
}
