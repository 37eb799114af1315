// Where hooks meet the agent loop, as small wrappers the orchestration layer applies:
// - PreToolUse runs inside the permission hook, before the usual check: a hook's deny stops the call, its
//   allow skips the prompt (deny rules still apply), its ask puts the call to the person, and its
//   updatedInput replaces the input;
// - PostToolUse wraps each tool: after a successful call its feedback and context are appended to the result
//   (`tool_response` is the tool's Claude Code-shaped `response`, else `{content, details}`); after a failed
//   call PostToolUseFailure does the same;
// - SubagentStart runs just before a subagent's run and SubagentStop exactly once as it ends, whichever way.
//   A SubagentStop hook that blocks a finished agent hands it the reason as its next instruction, at most
//   MAX_STOP_BLOCKS times in a row, so a hook that always blocks cannot keep an agent running forever;
// - PreCompact and PostCompact run around every compaction of the agent's conversation, and SessionStart
//   (source "compact") after the main agent's.
import type { CompactionHooks } from '../compaction/compact'
import { invokeTool } from '../loop/run-tools'
import type { CanUseTool, PermissionDecision } from '../loop/types'
import type { Tool } from '../tools/define-tool'
import type { HookAgent, HookRunner } from './runner'

export const MAX_STOP_BLOCKS = 5

export interface HookGate {
  /** A deny rule that covers the call (checked even when a hook allows it), or null. */
  ruleDenial(tool: Tool, input: unknown): string | null
  /** Asks the person about the call even where the rules would allow it (a hook said "ask"). */
  ask(tool: Tool, input: unknown, toolUseId: string, reason: string): Promise<PermissionDecision>
}

export function hookedCanUseTool(runner: HookRunner, agent: HookAgent, inner: CanUseTool | undefined, gate: HookGate | null): CanUseTool | undefined {
  const usual: CanUseTool = inner ?? (async () => ({ behavior: 'allow' }))
  return async (tool, input, toolUseId) => {
    if (!runner.has('PreToolUse', agent)) return usual(tool, input, toolUseId)
    const outcome = await runner.preToolUse(agent, tool.name, input, toolUseId)
    const current = outcome.updatedInput ?? input
    const updated = outcome.updatedInput ? { updatedInput: outcome.updatedInput } : {}
    if (outcome.decision === 'deny')
      return { behavior: 'deny', message: `A PreToolUse hook blocked this ${tool.name} call: ${outcome.reason ?? 'it gave no reason'}` }
    if (outcome.decision === 'allow') {
      const denial = gate?.ruleDenial(tool, current)
      return denial ? { behavior: 'deny', message: denial } : { behavior: 'allow', ...updated }
    }
    const decision =
      outcome.decision === 'ask' && gate
        ? await gate.ask(tool, current, toolUseId, outcome.reason ?? `A PreToolUse hook asks for approval of this ${tool.name} call.`)
        : await usual(tool, current, toolUseId)
    if (decision.behavior === 'deny') return decision
    const sandbox = decision.sandbox ? { sandbox: decision.sandbox } : {}
    return { behavior: 'allow', ...sandbox, ...(decision.updatedInput !== undefined ? { updatedInput: decision.updatedInput } : updated) }
  }
}

/** Each tool, with PostToolUse hooks run after its successful calls and PostToolUseFailure after its failed ones. */
export function hookedTools(
  runner: HookRunner,
  agent: HookAgent,
  tools: Tool[],
  onResponse?: (toolUseId: string, response: Record<string, unknown>) => void
): Tool[] {
  return tools.map((tool) => ({
    ...tool,
    async execute(input, ctx) {
      const started = Date.now()
      const raw = ctx.rawInput ?? input
      const result = await invokeTool(tool, input, ctx)
      const durationMs = Date.now() - started
      if (onResponse && !result.isError) onResponse(ctx.toolUseId, result.response ?? { content: result.content })
      if (result.isError) {
        if (!runner.has('PostToolUseFailure', agent)) return result
        const notes = await runner.postToolUseFailure(agent, tool.name, raw, ctx.toolUseId, {
          error: result.content,
          isInterrupt: ctx.signal.aborted,
          durationMs
        })
        return notes.length ? { ...result, content: [result.content, ...notes].join('\n\n') } : result
      }
      if (ctx.signal.aborted || !runner.has('PostToolUse', agent)) return result
      const response = result.response ?? { content: result.content, ...(result.details !== undefined ? { details: result.details } : {}) }
      const { notes, replaceOutput } = await runner.postToolUse(agent, tool.name, raw, response, ctx.toolUseId, durationMs)
      if (!notes.length && replaceOutput === undefined) return result
      return { ...result, content: [replaceOutput ?? result.content, ...notes].join('\n\n') }
    }
  }))
}

export interface SubagentHookRun {
  /** SubagentStart: context for the agent's first message. */
  start(): Promise<string[]>
  /** For the loop: asked when the agent would finish; a reason keeps it going. */
  beforeFinish(finalText: string): Promise<string | null>
  /** Runs SubagentStop if the run ended another way (stopped, failed, turn limit), then `inner`. */
  finalize<T>(inner?: () => Promise<T>): (result: { status: string; result: string }) => Promise<T | undefined>
}

/** The main agent's Stop hooks: asked when it would finish its answer; a reason keeps it going (at most MAX_STOP_BLOCKS times in a row). */
export function mainStopHook(
  runner: HookRunner | undefined,
  agent: HookAgent,
  report: (message: string) => void
): (finalText: string) => Promise<string | null> {
  let blocks = 0
  return async (finalText) => {
    if (!runner?.has('Stop', agent)) return null
    const reason = await runner.stop(agent, { stopHookActive: blocks > 0, lastMessage: finalText })
    if (reason && blocks < MAX_STOP_BLOCKS) {
      blocks++
      return `A Stop hook did not let you finish yet:\n${reason}`
    }
    if (reason)
      report(
        `Stop hooks blocked the main agent from finishing ${MAX_STOP_BLOCKS} times in a row; it finished anyway so it cannot loop forever. The last reason was: ${reason}`
      )
    return null
  }
}

/** A team member's place in its team, for TeammateIdle hooks. */
export interface TeammateInfo {
  teammateName: string
  teamName: string
}

export function subagentHookRun(
  runner: HookRunner | undefined,
  agent: HookAgent,
  report: (message: string) => void,
  teammate?: () => TeammateInfo | null
): SubagentHookRun {
  let stopRan = false
  let blocks = 0
  let idleBlocks = 0
  return {
    start: async () => (runner ? runner.subagentStart(agent) : []),
    async beforeFinish(finalText) {
      if (!runner) return null
      // A team member about to go idle: TeammateIdle hooks may keep it working (exit 2: their stderr is its next instruction).
      const member = teammate?.()
      if (member && runner.has('TeammateIdle', agent)) {
        const keepGoing = await runner.teammateIdle(agent, member.teammateName, member.teamName)
        if (keepGoing && idleBlocks < MAX_STOP_BLOCKS) {
          idleBlocks++
          return `A TeammateIdle hook asks you to keep working before you go idle:\n${keepGoing}`
        }
        if (keepGoing)
          report(
            `TeammateIdle hooks kept team member ${member.teammateName} working ${MAX_STOP_BLOCKS} times in a row; it went idle anyway so it cannot loop forever. The last reason was: ${keepGoing}`
          )
      }
      const reason = await runner.subagentStop(agent, { stopHookActive: blocks > 0, lastMessage: finalText, status: 'completed' })
      if (reason && blocks < MAX_STOP_BLOCKS) {
        blocks++
        return `A SubagentStop hook did not let you finish yet:\n${reason}`
      }
      if (reason)
        report(
          `SubagentStop hooks blocked agent ${agent.agentType} from finishing ${MAX_STOP_BLOCKS} times in a row; it finished anyway so it cannot loop forever. The last reason was: ${reason}`
        )
      stopRan = true
      return null
    },
    finalize(inner) {
      return async (result) => {
        if (runner && !stopRan) {
          stopRan = true
          await runner.subagentStop(agent, { stopHookActive: blocks > 0, lastMessage: result.result, status: result.status })
        }
        return inner?.()
      }
    }
  }
}

/** PreCompact/PostCompact around an agent's compactions; undefined when the session has no hooks. */
export function compactionHooks(runner: HookRunner | undefined, agent: HookAgent): CompactionHooks | undefined {
  if (!runner) return undefined
  return {
    before: async (trigger, instructions) => (runner.has('PreCompact', agent) ? runner.preCompact(agent, trigger, instructions) : {}),
    after: async (trigger, summary) => {
      if (runner.has('PostCompact', agent)) await runner.postCompact(agent, trigger, summary)
      // Then SessionStart (source "compact"), as Claude Code: its context joins the agent's next message.
      if (runner.has('SessionStart', agent)) await runner.afterCompaction(agent)
    }
  }
}
