// Where hooks meet the agent loop, as small wrappers the orchestration layer applies:
// - PreToolUse and PostToolUse/PostToolUseFailure are steps of the tool-call pipeline (tool-call/pre-hooks.ts,
//   tool-call/post-hooks.ts);
// - SubagentStart runs just before a subagent's run and SubagentStop exactly once as it ends, whichever way.
//   A SubagentStop hook that blocks a finished agent hands it the reason as its next instruction, at most
//   MAX_STOP_BLOCKS times in a row, so a hook that always blocks cannot keep an agent running forever;
// - PreCompact and PostCompact run around every compaction of the agent's conversation, and SessionStart
//   (source "compact") after the main agent's.
import type { CompactionHooks } from '../compaction/compact'
import type { HookAgent, HookRunner } from './runner'

export const MAX_STOP_BLOCKS = 5

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
