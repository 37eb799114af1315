// What an Agent tool call's input says about the subagent it starts, while that input is still streaming in.

/**
 * The agent type an Agent call asks for, as soon as its input says so: the started agent's own, the
 * subagent_type streamed so far, or — once the input is complete without one — the default, general-purpose.
 * Undefined while it is still unknown.
 */
export function pendingAgentType(started: string | undefined, input: Record<string, unknown>, inputComplete: boolean): string | undefined {
  if (started) return started
  if (typeof input.subagent_type === 'string' && input.subagent_type.trim()) return input.subagent_type.trim()
  return inputComplete ? 'general-purpose' : undefined
}
