// Spawning a subagent from an Agent tool call: pick its definition, check the limits, resolve its model
// and tools, give it a cwd (its own worktree when isolated), run it as a child of the calling agent, and
// hand its final report back as the tool result. Every refusal is a result the parent model can act on.
import type { AgentDefinition, PermissionMode } from '../../../shared/agent-definition'
import { resolveAgentTools } from '../definitions'
import { runAgent } from '../loop'
import type { AgentRunResult } from '../loop/types'
import { resolveModel } from '../model/aliases'
import type { ToolContext, ToolResult } from '../tools/define-tool'
import { createAgentWorktree, finishAgentWorktree, type AgentWorktree } from '../worktrees'
import type { AgentHandle } from './agent-registry'
import type { AgentToolInput } from './agent-tool'
import { formatAgentReport } from './report'
import type { SessionContext } from './types'

export const DEFAULT_SUBAGENT_TYPE = 'general-purpose'

const refuse = (content: string): ToolResult => ({ content, isError: true })

/** A subagent inherits its parent's permission mode unless its definition sets one; a permissive parent wins. */
export function childPermissionMode(parent: PermissionMode, own: PermissionMode | undefined): PermissionMode {
  if (parent === 'bypassPermissions' || parent === 'acceptEdits') return parent
  return own ?? parent
}

export async function spawnSubagent(session: SessionContext, parent: AgentHandle, input: AgentToolInput, ctx: ToolContext): Promise<ToolResult> {
  if (input.run_in_background) return refuse('run_in_background is not available in this version of Fanout yet; run the agent in the foreground (omit run_in_background).')
  if (input.resume) return refuse('resume is not available in this version of Fanout yet; start a new agent with the full context in its prompt.')

  const agentType = input.subagent_type ?? DEFAULT_SUBAGENT_TYPE
  const loaded = session.agents().get(agentType)
  if (!loaded) {
    const known = [...session.agents().keys()].join(', ')
    return refuse(`There is no agent type '${agentType}'. Available agent types: ${known}.`)
  }
  if (parent.allowedAgentTypes && !parent.allowedAgentTypes.includes(agentType))
    return refuse(`This agent may only start these agent types: ${parent.allowedAgentTypes.join(', ')}; '${agentType}' is not one of them.`)
  const def = loaded.definition

  const depth = parent.depth + 1
  const refusal = session.gate.refusal(depth)
  if (refusal) return refuse(refusal)

  let model: string
  try {
    model = resolveModel({ override: input.model, definition: def.model, parent: parent.model, aliases: session.aliases })
  } catch (err) {
    return refuse(err instanceof Error ? err.message : String(err))
  }

  const resolution = resolveAgentTools(def, session.availableToolNames(), { isBuiltIn: def.source === 'built-in', isBackground: false, isSubagent: true })
  if (resolution.error) return refuse(resolution.error)
  // A subagent at the depth limit cannot spawn further; keep the Agent tool out rather than let every call fail.
  const toolNames = depth >= session.gate.limits.maxDepth ? resolution.resolvedTools.filter((t) => t !== 'Agent') : resolution.resolvedTools

  session.gate.admit()
  const agentId = session.newAgentId()
  const abort = new AbortController()
  const onParentAbort = () => abort.abort(ctx.signal.reason)
  if (ctx.signal.aborted) abort.abort(ctx.signal.reason)
  else ctx.signal.addEventListener('abort', onParentAbort, { once: true })

  const handle: AgentHandle = {
    id: agentId,
    parentId: parent.id,
    parentToolUseId: ctx.toolUseId,
    depth,
    agentType: def.agentType,
    definition: def,
    ...(input.name ? { name: input.name } : {}),
    model,
    cwd: parent.cwd,
    permissionMode: childPermissionMode(parent.permissionMode, def.permissionMode),
    ...(resolution.allowedAgentTypes ? { allowedAgentTypes: resolution.allowedAgentTypes } : {}),
    status: 'queued',
    abort,
    stoppedByUser: false,
    inbox: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    startedAt: Date.now()
  }
  session.registry.add(handle)
  const ids = { agentId, parentAgentId: parent.id, parentToolUseId: ctx.toolUseId, sessionId: session.sessionId }
  ctx.onUpdate?.({ agentId, agentType: def.agentType, model, status: 'queued' })

  let release: (() => void) | null = null
  try {
    if (session.gate.slots.running >= session.gate.limits.maxConcurrent)
      session.emit({ ...ids, ts: Date.now(), type: 'status', status: 'queued', detail: `waiting for one of ${session.gate.limits.maxConcurrent} concurrent agent slots` })
    try {
      release = await session.gate.slots.acquire(abort.signal)
    } catch {
      handle.status = 'stopped'
      return refuse(`The ${def.agentType} agent was stopped before it started.`)
    }

    let worktree: AgentWorktree | undefined
    if ((input.isolation ?? def.isolation) === 'worktree') {
      try {
        worktree = await createAgentWorktree({ repoCwd: parent.cwd, agentId, agentType: def.agentType, description: input.description })
      } catch (err) {
        handle.status = 'failed'
        return refuse(`Could not isolate the agent: ${err instanceof Error ? err.message : String(err)}`)
      }
      handle.cwd = worktree.cwd
    }

    handle.status = 'running'
    const result = await runChild(session, handle, def, input, model, toolNames, worktree)
    return formatAgentReport(handle, result)
  } finally {
    release?.()
    ctx.signal.removeEventListener('abort', onParentAbort)
  }
}

async function runChild(
  session: SessionContext,
  handle: AgentHandle,
  def: AgentDefinition,
  input: AgentToolInput,
  model: string,
  toolNames: string[],
  worktree: AgentWorktree | undefined
): Promise<AgentRunResult & { worktree?: { path: string; branch: string; kept: boolean; commit?: string; error?: string } }> {
  const systemPrompt = await session.systemPrompt(def, handle, worktree)
  const tools = session.buildTools(handle, toolNames)
  let finished: { path: string; branch: string; kept: boolean; commit?: string; error?: string } | undefined
  const result = await runAgent(
    {
      agentId: handle.id,
      parentAgentId: handle.parentId,
      parentToolUseId: handle.parentToolUseId,
      sessionId: session.sessionId,
      agentType: def.agentType,
      description: input.description,
      depth: handle.depth,
      ...(def.color ? { color: def.color } : {}),
      ...(handle.name ? { name: handle.name } : {}),
      ...(worktree ? { worktree: { path: worktree.path, branch: worktree.branch } } : {}),
      client: session.client,
      model,
      systemPrompt,
      prompt: input.prompt,
      tools,
      cwd: handle.cwd,
      maxTurns: input.max_turns ?? def.maxTurns,
      signal: handle.abort.signal,
      ...(def.criticalSystemReminder ? { criticalSystemReminder: def.criticalSystemReminder } : {}),
      canUseTool: session.canUseTool(handle),
      drainInbox: () => handle.inbox.splice(0),
      finalize: worktree
        ? async () => {
            const done = await finishAgentWorktree({ worktree, agentType: def.agentType, description: input.description })
            finished = { path: done.path, branch: done.branch, kept: done.kept, ...(done.commit ? { commit: done.commit } : {}), ...(done.error ? { error: done.error } : {}) }
            return { worktree: { path: done.path, branch: done.branch, kept: done.kept, ...(done.commit ? { commit: done.commit } : {}) } }
          }
        : undefined
    },
    session.emit
  )
  handle.status = result.status
  return { ...result, ...(finished ? { worktree: finished } : {}) }
}
