// An agent run with its lifecycle events: agent_start, the loop's events, agent_end. The orchestration
// layer calls this for the main agent and for every subagent; the loop itself stays lifecycle-free so
// that resume and fork can reuse it.
import { typedCommand } from '../../../shared/command-block'
import type { AgentEndEvent, AgentEvent, AgentStartEvent } from '../../../shared/events'
import { runAgentLoop } from './agent-loop'
import { promptBlocks, textOf } from './conversation'
import type { AgentLoopOptions, AgentRunResult, EmitFn } from './types'
import { errorMessage } from '../../../shared/error-message'

export interface RunAgentOptions extends AgentLoopOptions {
  agentType: string
  /** Short label: the Agent tool's `description`; default the prompt's first line. */
  description?: string
  /** 0 for the main agent. */
  depth?: number
  color?: string
  background?: boolean
  name?: string
  worktree?: AgentStartEvent['worktree']
  /** Its budget, said in agent_start (the runs/budget.ts check is in its client). */
  budget?: AgentStartEvent['budget']
  /**
   * Runs after the loop and before agent_end (e.g. to clean up a worktree); what it returns is added
   * to agent_end. A throw is reported in agent_end's error, never lost.
   */
  finalize?: (result: AgentRunResult) => Promise<Pick<AgentEndEvent, 'worktree'> | void>
}

function firstLine(text: string): string {
  const first = text.trim().split('\n', 1)[0] ?? ''
  // A slash command's block is labelled as the person typed it.
  const lines = text.trim().split('\n')
  const command = first.startsWith('<command-message>')
    ? (typedCommand(`${lines.slice(0, 3).join('\n')}\n`) ?? typedCommand(`${lines.slice(0, 2).join('\n')}\n`))
    : null
  const line = command ?? first
  return line.length > 80 ? `${line.slice(0, 79)}…` : line
}

export async function runAgent(opts: RunAgentOptions, emit: EmitFn): Promise<AgentRunResult> {
  const base = () => ({
    agentId: opts.agentId,
    parentAgentId: opts.parentAgentId,
    parentToolUseId: opts.parentToolUseId,
    sessionId: opts.sessionId,
    ts: Date.now()
  })
  const prompt = textOf(promptBlocks(opts.prompt))
  const start: AgentStartEvent = {
    ...base(),
    type: 'agent_start',
    agentType: opts.agentType,
    description: opts.description ?? firstLine(prompt),
    prompt,
    model: opts.model,
    cwd: opts.cwd,
    depth: opts.depth ?? 0,
    tools: opts.tools.filter((t) => !t.withheld).map((t) => t.name),
    ...(opts.maxTurns !== undefined ? { maxTurns: opts.maxTurns } : {}),
    ...(opts.color ? { color: opts.color } : {}),
    ...(opts.background ? { background: true } : {}),
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.worktree ? { worktree: opts.worktree } : {}),
    ...(opts.budget ? { budget: opts.budget } : {}),
    ...(opts.context ? { context: opts.context.limits } : {})
  }
  emit(start)
  const result = await runAgentLoop(opts, emit)
  let extra: Pick<AgentEndEvent, 'worktree'> | void = undefined
  if (opts.finalize) {
    try {
      extra = await opts.finalize(result)
    } catch (err) {
      const why = `Cleaning up after the agent failed: ${errorMessage(err)}`
      result.error = result.error ? `${result.error}\n${why}` : why
    }
  }
  const end: AgentEvent = {
    ...base(),
    type: 'agent_end',
    status: result.status,
    result: result.result,
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.limit ? { limit: result.limit } : {}),
    numTurns: result.numTurns,
    toolUses: result.toolUses,
    durationMs: result.durationMs,
    usage: result.usage,
    ...(extra?.worktree ? { worktree: extra.worktree } : {})
  }
  emit(end)
  return result
}
