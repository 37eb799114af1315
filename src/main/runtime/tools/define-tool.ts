// What a tool is, declared: its metadata, its zod schema (sent as JSON schema; parsed with an error the model
// can act on), its output cap and its `execute`. Running one — validating the input, checking the abort signal,
// turning a throw into the model's error, capping the output — is the tool runner's alone (loop/run-tools.ts).
import { z } from 'zod'
import { builtInputJson } from './input-json'

/** Where an approved Bash command runs: read-only sandbox, sandbox with writes in the working tree, or outside it. */
export type SandboxLevel = 'read-only' | 'workspace' | 'off'

// No cwd here: a tool resolves every path through the one path check it was built with (ToolOptions.paths).
export interface ToolContext {
  signal: AbortSignal
  agentId: string
  toolUseId: string
  /** Streams progress to the UI as `tool_update` events. */
  onUpdate?: (details: unknown) => void
  /** What the permission layer granted this call (Bash: which sandbox). Absent: the tool's own default. */
  sandbox?: SandboxLevel
  /** Where this call may save an output too large to return whole (a tool that streams a lot writes it itself). */
  outputFile?: string
  /** The call's input before `parse` (as the model, a hook or the person gave it): what hooks report as tool_input. */
  rawInput?: unknown
  /** The calls of the same assistant message that run alongside this one, itself included (absent when alone). */
  batch?: ReadonlyArray<{ name: string; input: unknown }>
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

/**
 * How the permission layer treats a call (permissions/tool-call.ts): a command, a file changed, a file or folder
 * read, a URL fetched, or free (only talks to the runtime: never asks, deny rules still apply).
 */
export type PermissionKind = 'bash' | 'edit' | 'read' | 'network' | 'free'

/** What a tool declares about itself; the registry (tools/registry.ts) and the permission layer read it from the tool's file. */
export interface ToolMeta {
  name: string
  /** Never changes files or runs commands: allowed in plan / read-only modes. */
  readOnly: boolean
  /**
   * False for a tool that is not read-only but changes no file itself: the Agent tool starts an agent, whose own
   * tools say when they change something. Absent: as `!readOnly`.
   */
  changesFiles?: boolean
  /** Safe to run at the same time as other safe calls from the same assistant message. */
  concurrencySafe: boolean
  /** Absent: the permission layer goes by the tool's name (Claude Code's families, tools/tool-names.ts). */
  permission?: PermissionKind
}

export interface Tool extends ToolMeta {
  description: string
  /** JSON schema of the input, sent to the API as `input_schema`. */
  inputJsonSchema: Record<string, unknown>
  /**
   * Defined identically for every agent of the session (built-in and orchestration tools): the prompt cache's
   * tools breakpoint goes after the leading run of these, so agents with different prompts share that entry.
   */
  sameForEveryAgent?: boolean
  /** Sent to the model but refused when called (a fork keeps its parent's tool list): why, for the model. */
  withheld?: string
  /** Output past this many characters is saved to a file (or cut), not returned whole. Default DEFAULT_MAX_OUTPUT_CHARS. */
  maxOutputChars?: number
  /** Validates without running; returns the parsed input or an error message for the model. */
  parse(rawInput: unknown): { ok: true; input: unknown } | { ok: false; error: string }
  /**
   * Runs on input `parse` accepted. May throw: the runner answers the call with `<name> failed: <message>`
   * (or as interrupted once the agent is stopped). Call it through runTool (loop/run-tools.ts), never directly.
   */
  execute(input: unknown, ctx: ToolContext): Promise<ToolResult>
}

/**
 * A tool's input schema made at its first use (toolInput), under a name of its own: its JSON form is then read
 * from the table the CLI's build computed (input-json.ts), so a run sends its tools without building a zod schema.
 */
export interface ToolInput<S extends z.ZodType> {
  (): S
  readonly key: string
}

/** The zod schema a ToolInput makes. */
export type InputOf<T extends ToolInput<z.ZodType>> = ReturnType<T>

const toolInputs = new Map<string, ToolInput<z.ZodType>>()

/**
 * Declares a tool's input schema, built at its first use: `key` names it in the build's table of JSON schemas
 * (one key, one schema: a second declaration under the same key throws).
 */
export function toolInput<S extends z.ZodType>(key: string, make: () => S): ToolInput<S> {
  if (toolInputs.has(key)) throw new Error(`Tool input '${key}' is declared twice`)
  let made: S | undefined
  const input = Object.assign(() => (made ??= make()), { key }) as ToolInput<S>
  toolInputs.set(key, input)
  return input
}

/** Every tool input declared by the modules evaluated so far (the build computes their JSON schemas). */
export const declaredToolInputs = (): ReadonlyMap<string, ToolInput<z.ZodType>> => toolInputs

export interface ToolSpec<S extends z.ZodType> {
  name: string
  description: string
  /** A schema made with toolInput (built at first use), or one built already (e.g. tools made only when used). */
  schema: S | ToolInput<S>
  readOnly: boolean
  /** Default: !readOnly (see ToolMeta). */
  changesFiles?: boolean
  /** Default: readOnly. */
  concurrencySafe?: boolean
  permission?: PermissionKind
  /** Output beyond this many characters is saved to a file, the model getting its head and the path (tools/large-output.ts). */
  maxOutputChars?: number
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult>
}

export const DEFAULT_MAX_OUTPUT_CHARS = 30_000

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

/**
 * What the schema says that tells the model nothing, left out of the description it reads (each is tokens in the
 * prefix every request of every agent reads; a fan-out's workers read it twice each): zod writes `.int()` as
 * bounded by ±2^53−1 (an integer is all the model needs to know), and `.min(1)` on a string as `minLength: 1`
 * (a value is never meant to be empty), and `additionalProperties: false` (the model sends the keys it is shown).
 * The schema still checks the input in full (parse): an empty string or an unknown key is refused with a
 * sentence the model can act on.
 */
function dropUninformative({ jsonSchema: json }: { jsonSchema: Record<string, unknown> }): void {
  if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum
  if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum
  if (json.type === 'string' && json.minLength === 1) delete json.minLength
  if (json.additionalProperties === false) delete json.additionalProperties
}

/** The JSON schema sent to the API for a zod schema (the build's table holds this for each declared ToolInput). */
export function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', override: dropUninformative }) as Record<string, unknown>
  delete json.$schema
  return json
}

function inputJsonSchema(schema: z.ZodType | ToolInput<z.ZodType>): Record<string, unknown> {
  if (typeof schema === 'function') {
    const built = builtInputJson(schema.key)
    if (built) return built
    schema = schema()
  }
  let json = jsonSchemas.get(schema)
  if (!json) jsonSchemas.set(schema, (json = toJsonSchema(schema)))
  return json
}

const zodOf = <S extends z.ZodType>(schema: S | ToolInput<S>): S => (typeof schema === 'function' ? schema() : schema)

export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): Tool {
  return {
    name: spec.name,
    description: spec.description,
    inputJsonSchema: inputJsonSchema(spec.schema),
    readOnly: spec.readOnly,
    ...(spec.changesFiles !== undefined ? { changesFiles: spec.changesFiles } : {}),
    concurrencySafe: spec.concurrencySafe ?? spec.readOnly,
    ...(spec.permission ? { permission: spec.permission } : {}),
    maxOutputChars: spec.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS,
    parse(raw) {
      const parsed = zodOf(spec.schema).safeParse(raw ?? {})
      return parsed.success ? { ok: true, input: parsed.data } : { ok: false, error: formatZodError(spec.name, parsed.error) }
    },
    execute: (input, ctx) => spec.execute(input as z.infer<S>, ctx)
  }
}
