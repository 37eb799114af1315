// One wrapper for every tool: zod-validated input with an error the model can act on, abort wiring,
// its output cap (applied by the runner), and `{ content, details }` (content for the model, details for the UI).
import { z } from 'zod'
import { errorMessage } from '../../../shared/error-message'

/** Where an approved Bash command runs: read-only sandbox, sandbox with writes in the working tree, or outside it. */
export type SandboxLevel = 'read-only' | 'workspace' | 'off'

export interface ToolContext {
  /** The agent's working directory (its worktree when isolated). */
  cwd: string
  signal: AbortSignal
  agentId: string
  toolUseId: string
  /** Streams progress to the UI as `tool_update` events. */
  onUpdate?: (details: unknown) => void
  /** What the permission layer granted this call (Bash: which sandbox). Absent: the tool's own default. */
  sandbox?: SandboxLevel
  /** Where this call may save an output too large to return whole (a tool that streams a lot writes it itself). */
  outputFile?: string
}

export interface ToolResult {
  /** What the model sees. */
  content: string
  /** Structured data for the UI and transcripts; never sent to the model. */
  details?: unknown
  isError?: boolean
  /**
   * The call's result in Claude Code's shape for this tool (e.g. Bash's `{stdout, stderr, interrupted, isImage,
   * noOutputExpected}`): what PostToolUse hooks receive as `tool_response`. Never sent to the model, never recorded.
   */
  response?: Record<string, unknown>
}

export interface Tool {
  name: string
  description: string
  /** JSON schema of the input, sent to the API as `input_schema`. */
  inputJsonSchema: Record<string, unknown>
  /** Never changes files or runs commands: allowed in plan / read-only modes. */
  readOnly: boolean
  /** Safe to run at the same time as other safe calls from the same assistant message. */
  concurrencySafe: boolean
  /**
   * Defined identically for every agent of the session (built-in and orchestration tools): the prompt cache's
   * tools breakpoint goes after the leading run of these, so agents with different prompts share that entry.
   */
  sameForEveryAgent?: boolean
  /** Sent to the model but refused when called (a fork keeps its parent's tool list): why, for the model. */
  withheld?: string
  /** Output past this many characters is saved to a file (or cut), not returned whole. Default DEFAULT_MAX_OUTPUT_CHARS. */
  maxOutputChars?: number
  /** Validates raw model input, then runs. Never throws: errors come back as `isError` results. */
  run(rawInput: unknown, ctx: ToolContext): Promise<ToolResult>
  /** Validates without running; returns the parsed input or an error message for the model. */
  parse(rawInput: unknown): { ok: true; input: unknown } | { ok: false; error: string }
}

export interface ToolSpec<S extends z.ZodType> {
  name: string
  description: string
  schema: S
  readOnly: boolean
  concurrencySafe?: boolean
  /** Output beyond this many characters is saved to a file, the model getting its head and the path (tools/large-output.ts). */
  maxOutputChars?: number
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult>
}

export const DEFAULT_MAX_OUTPUT_CHARS = 30_000

export class ToolError extends Error {}

export function truncateOutput(text: string, max: number): string {
  if (text.length <= max) return text
  const head = text.slice(0, max)
  return `${head}\n\n[output truncated: ${text.length - max} more characters not shown]`
}

export function formatZodError(toolName: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const path = issue.path.length ? issue.path.join('.') : '(input)'
    return `- ${path}: ${issue.message}`
  })
  return `Invalid input for ${toolName}:\n${lines.join('\n')}\nFix the input and call ${toolName} again.`
}

// Tools are built per agent, but their schemas are module constants: convert each schema once.
const jsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>()

function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  let json = jsonSchemas.get(schema)
  if (!json) {
    json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>
    delete json.$schema
    jsonSchemas.set(schema, json)
  }
  return json
}

export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): Tool {
  const max = spec.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS
  const jsonSchema = inputJsonSchema(spec.schema)
  const parse = (raw: unknown): { ok: true; input: unknown } | { ok: false; error: string } => {
    const parsed = spec.schema.safeParse(raw ?? {})
    return parsed.success ? { ok: true, input: parsed.data } : { ok: false, error: formatZodError(spec.name, parsed.error) }
  }
  return {
    name: spec.name,
    description: spec.description,
    inputJsonSchema: jsonSchema,
    readOnly: spec.readOnly,
    concurrencySafe: spec.concurrencySafe ?? spec.readOnly,
    maxOutputChars: max,
    parse,
    async run(raw, ctx) {
      const parsed = parse(raw)
      if (!parsed.ok) return { content: parsed.error, isError: true }
      if (ctx.signal.aborted) return { content: `${spec.name} was not run: the agent was stopped.`, isError: true }
      try {
        // The tool runner limits the output (saving a large one to a file), for every tool alike.
        return await spec.execute(parsed.input as z.infer<S>, ctx)
      } catch (err) {
        if (ctx.signal.aborted) return { content: `${spec.name} was interrupted: the agent was stopped.`, isError: true }
        const message = errorMessage(err)
        return { content: `${spec.name} failed: ${message}`, isError: true }
      }
    }
  }
}
