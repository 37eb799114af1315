// Step 2, hooks: PreToolUse, then steps 3-6 as the hook's answer leaves them. A hook's deny stops the call; its
// allow skips the rules and the ask (a deny rule still binds); its ask puts the call to the person whatever the
// rules say; its updatedInput replaces the input for every later step. No answer: the gate decides (gate.ts).
import type { HookAgent, HookRunner } from '../hooks/runner'
import type { Tool } from '../tools/define-tool'
import type { PermissionGate } from './gate'
import type { BeforeToolCall, CallVerdict, FinalVerdict } from './verdict'

/** Step 2 alone: what the agent's PreToolUse hooks answer for a call. */
export async function preToolUse(runner: HookRunner, agent: HookAgent, tool: Tool, input: unknown, toolUseId: string): Promise<CallVerdict> {
  if (!runner.has('PreToolUse', agent)) return { behavior: 'pass' }
  const outcome = await runner.preToolUse(agent, tool.name, input, toolUseId)
  const updated = outcome.updatedInput ? { updatedInput: outcome.updatedInput } : {}
  if (outcome.decision === 'deny')
    return { behavior: 'deny', message: `A PreToolUse hook blocked this ${tool.name} call: ${outcome.reason ?? 'it gave no reason'}` }
  if (outcome.decision === 'allow') return { behavior: 'allow', ...updated }
  if (outcome.decision === 'ask')
    return {
      behavior: 'ask',
      reason: outcome.reason ?? `A PreToolUse hook asks for approval of this ${tool.name} call.`,
      suggestedRules: [],
      byHook: true,
      ...updated
    }
  return { behavior: 'pass', ...updated }
}

/**
 * Steps 2-6 for one agent's run: its hooks, then its gate (or, for a session given its own permission hook, that
 * hook, which no rule or person stands behind). Absent both: every call is allowed.
 */
export function beforeToolCall(
  runner: HookRunner | undefined,
  agent: HookAgent,
  decide: { gate: PermissionGate } | { own: BeforeToolCall } | null
): BeforeToolCall | undefined {
  const usual: BeforeToolCall = decide
    ? 'gate' in decide
      ? (tool, input, toolUseId) => decide.gate.canUseTool(tool, input, toolUseId)
      : decide.own
    : async () => ({ behavior: 'allow' })
  if (!runner) return decide ? usual : undefined
  return async (tool, input, toolUseId) => {
    const hooked = await preToolUse(runner, agent, tool, input, toolUseId)
    if (hooked.behavior === 'deny') return hooked
    const current = hooked.updatedInput ?? input
    const updated = hooked.updatedInput ? { updatedInput: hooked.updatedInput } : {}
    const gate = decide && 'gate' in decide ? decide.gate : null
    if (hooked.behavior === 'allow') {
      const denial = gate?.ruleDenial(tool, current)
      return denial ? { behavior: 'deny', message: denial } : hooked
    }
    const verdict: FinalVerdict =
      hooked.behavior === 'ask' && gate ? await gate.askAbout(tool, current, toolUseId, hooked) : await usual(tool, current, toolUseId)
    if (verdict.behavior === 'deny') return verdict
    return verdict.updatedInput !== undefined ? verdict : { ...verdict, ...updated }
  }
}
