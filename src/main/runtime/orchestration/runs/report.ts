// What the parent receives when a subagent ends: its final text, then a short metadata block the parent
// model can use (the id to continue it, where its work is) and the UI can show.
import { apiUsage } from '../../../../shared/usage'
import type { AgentRunResult } from '../../loop/types'
import type { ToolResult } from '../../tools/define-tool'
import type { AgentHandle } from './agent-registry'

export interface AgentReportDetails {
  agentId: string
  agentType: string
  model: string
  status: AgentRunResult['status']
  numTurns: number
  toolUses: number
  durationMs: number
  usage: AgentRunResult['usage']
  worktree?: { path: string; branch: string; kept: boolean; commit?: string; error?: string }
}

export function formatAgentReport(handle: AgentHandle, result: AgentRunResult & { worktree?: AgentReportDetails['worktree'] }, prompt?: string): ToolResult {
  const details: AgentReportDetails = {
    agentId: handle.id,
    agentType: handle.agentType,
    model: result.model,
    status: result.status,
    numTurns: result.numTurns,
    toolUses: result.toolUses,
    durationMs: result.durationMs,
    usage: result.usage,
    ...(result.worktree ? { worktree: result.worktree } : {})
  }
  const body =
    result.status === 'failed' && result.limit === 'budget'
      ? `The ${handle.agentType} agent stopped at a budget. ${result.error ?? ''}${result.result ? `\n\nIts last output:\n${result.result}` : ''}`
      : result.status === 'failed'
        ? `The ${handle.agentType} agent failed: ${result.error ?? 'unknown error'}${result.result ? `\n\nIts last output:\n${result.result}` : ''}`
        : result.status === 'stopped'
          ? `The ${handle.agentType} agent was stopped before it finished.${result.result ? `\n\nIts output so far:\n${result.result}` : ''}`
          : result.result || `(The ${handle.agentType} agent finished without a final message.)`
  // The parent reads these lines on every later turn, and a fan-out's parent sixteen times over: what it can
  // use, once. How to continue an agent (SendMessage, resume) is said once, in the Agent tool's description;
  // its type is the one the parent asked for.
  const lines = [`agentId: ${handle.id}${handle.name ? ` (name: ${handle.name})` : ''}`]
  if (result.worktree) {
    const wt = result.worktree
    lines.push(
      wt.kept
        ? `worktree: its changes are on branch ${wt.branch}${wt.commit ? ` (commit ${wt.commit.slice(0, 12)})` : ''}, checked out at ${wt.path}`
        : `worktree: it changed nothing; the worktree was removed`
    )
    if (wt.error) lines.push(`worktree problem: ${wt.error}`)
    // Only the main agent has RequestMerge; every parent learns that the person lands the work.
    if (wt.kept)
      lines.push(
        `The person reviews and merges it in Fanout's Changes view${handle.depth === 1 ? '; RequestMerge asks them to merge it once the work is ready' : ''}.`
      )
  }
  // What it took, as Claude Code's own result says it (tokens, tool uses, time) and its cost; its model is the
  // one the parent chose, and how it ended is said above when it did not complete.
  const u = result.usage
  lines.push(
    `<usage>tokens: ${u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens} in, ${u.outputTokens} out; tool_uses: ${result.toolUses}; duration_ms: ${result.durationMs}; cost_usd: ${u.costUsd.toFixed(4)}</usage>`
  )
  return { content: `${body}\n\n${lines.join('\n')}`, details, isError: result.status === 'failed', response: agentResponse(handle, result, body, prompt) }
}

/** The Agent call as Claude Code's PostToolUse hooks receive it (plus Fanout's numTurns, costUsd and worktree). */
function agentResponse(
  handle: AgentHandle,
  result: AgentRunResult & { worktree?: AgentReportDetails['worktree'] },
  body: string,
  prompt: string | undefined
): Record<string, unknown> {
  const u = result.usage
  const toolsUsed = new Set<string>()
  for (const m of result.messages)
    if (m.role === 'assistant' && Array.isArray(m.content)) for (const b of m.content) if (b.type === 'tool_use') toolsUsed.add(b.name)
  return {
    status: result.status,
    ...(prompt !== undefined ? { prompt } : {}),
    agentId: handle.id,
    agentType: handle.agentType,
    toolsUsed: [...toolsUsed],
    content: [{ type: 'text', text: body }],
    resolvedModel: result.model,
    totalDurationMs: result.durationMs,
    totalTokens: u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens,
    totalToolUseCount: result.toolUses,
    usage: apiUsage(u),
    canContinueAgent: true,
    numTurns: result.numTurns,
    costUsd: u.costUsd,
    ...(result.worktree ? { worktree: result.worktree } : {})
  }
}
