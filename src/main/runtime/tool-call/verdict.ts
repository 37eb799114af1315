// What each step of a tool call decides (index.ts: validate → hooks → rules → mode → ask → sandbox →
// execute → post-hooks → record), as one union, and the sentences the model is given for the person's answers.
// Not the person's answer itself: that is shared/permission-answer.ts (allow / allow always / deny, and words).
import type { CommandPart } from '../../../shared/events'
import type { SandboxLevel, Tool, ToolResult } from '../tools/define-tool'

export type CallVerdict =
  /** Run it: in this sandbox (Bash), with this input (a hook or the person changed it), the person's words with it. */
  | { behavior: 'allow'; sandbox?: SandboxLevel; updatedInput?: Record<string, unknown>; rule?: string; feedback?: string }
  /** Do not run it; `message` is the model's tool result. */
  | { behavior: 'deny'; message: string; rule?: string }
  /**
   * Put it to the person. `outside`: it reaches outside the working directories (acceptEdits would not allow it);
   * `protectedPath`: it writes a protected path, which only a person may approve; `byHook`: a PreToolUse hook
   * asked, not the rules (no rule can answer it, and "Always allow" adds none).
   */
  | {
      behavior: 'ask'
      reason: string
      suggestedRules: string[]
      outside?: boolean
      protectedPath?: boolean
      commandParts?: CommandPart[]
      byHook?: boolean
      updatedInput?: Record<string, unknown>
    }
  /** This step has no say (no PreToolUse hook answered): the next step decides, on `updatedInput` if given. */
  | { behavior: 'pass'; updatedInput?: Record<string, unknown> }

/** What the steps before execution end in: the call runs or it does not. */
export type FinalVerdict = Extract<CallVerdict, { behavior: 'allow' | 'deny' }>
export type AskVerdict = Extract<CallVerdict, { behavior: 'ask' }>
export type AllowVerdict = Extract<CallVerdict, { behavior: 'allow' }>

/** Steps 2-6 for one agent's run (hooks → rules → mode → ask → sandbox), as its session composed them. */
export type BeforeToolCall = (tool: Tool, input: unknown, toolUseId: string) => Promise<FinalVerdict>

export interface AfterCall {
  /** The input as the model, a hook or the person gave it (before `parse`). */
  rawInput: unknown
  toolUseId: string
  signal: AbortSignal
  durationMs: number
}

/** Step 8 (PostToolUse / PostToolUseFailure): the result the model gets, given the one the tool returned. */
export type AfterToolCall = (tool: Tool, call: AfterCall, result: ToolResult) => Promise<ToolResult>

/** The one sentence the model gets when the person denies a call, with their words when they gave some. */
export function personDenied(toolName: string, feedback?: string, when = ''): string {
  return `The user denied permission to use ${toolName} for this call${when}. Do not retry it as is; take another approach or ask the user how to proceed.${personSaid(feedback)}`
}

/** The person's words after a refusal the model gets ("" without words). */
export function personSaid(feedback: string | undefined): string {
  return feedback?.trim() ? `\nThe user said: ${feedback.trim()}` : ''
}

/** Appended to an allowed call's result when the person said something with their approval. */
export function personAllowedNote(feedback: string | undefined): string {
  return feedback?.trim() ? `\n\nThe user allowed this call and said: ${feedback.trim()}` : ''
}
