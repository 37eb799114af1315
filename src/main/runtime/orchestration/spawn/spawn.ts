// Spawning a subagent from an Agent tool call: pick its definition (or fork the caller), check the limits,
// resolve its model and tools, give it a cwd (its own worktree when isolated), and run it as a child of the
// calling agent — in the foreground, where its final report is the tool result, or in the background, where
// the call returns at once and the report arrives later as a <task-notification>. `resume` continues an
// earlier agent instead. Every refusal is a result the parent model can act on.
import type { AgentDefinition, PermissionMode } from '../../../../shared/agent-definition'
import { ALWAYS_BLOCKED_FOR_SUBAGENTS, BACKGROUND_ALLOWED, resolveAgentTools } from '../../definitions'
import { resolveModel } from '../../model/aliases'
import { effectiveMode } from '../../permissions'
import type { ToolContext, ToolResult } from '../../tools/define-tool'
import { readRepo } from '../../worktrees'
import { startSubagentRun, type SubagentRunHost } from '../runs/agent-run'
import { newAgentHandle, type AgentHandle } from '../runs/agent-registry'
import { AGENT_TOOL_NAME, type AgentToolInput } from './agent-tool'
import { DEFAULT_SUBAGENT_TYPE } from './agent-tool-name'
import { FORK_AGENT_TYPE, forkMessages } from './fork'
import { formatAgentReport } from '../runs/report'
import { budgetFor } from '../runs/budget'
import type { RunRequest, SessionContext } from '../types'
import { errorMessage } from '../../../../shared/error-message'

export { DEFAULT_SUBAGENT_TYPE }

const refuse = (content: string): ToolResult => ({ content, isError: true })

/**
 * A subagent inherits its parent's permission mode unless its definition sets one; a parent in
 * bypassPermissions, acceptEdits or plan wins. Same rule as the permission layer's effectiveMode.
 */
export function childPermissionMode(parent: PermissionMode, own: PermissionMode | undefined): PermissionMode {
  return effectiveMode(parent, own)
}

export interface Plan {
  def: AgentDefinition | null
  agentType: string
  model: string
  toolNames: string[]
  allowedAgentTypes?: string[]
  permissionMode: PermissionMode
  fork: boolean
  forkContext: boolean
  background: boolean
  isolated: boolean
  maxTurns?: number
  effort?: string | number
  /** Said to the agent in its first message (why it has no Agent tool). */
  notes?: string[]
}

/** Why an agent at the nesting limit has no Agent tool, for the agent itself. */
export function depthLimitNote(depth: number, maxDepth: number): string {
  return `You have no Agent tool: you run at nesting depth ${depth}, the session's limit (maxDepth ${maxDepth}), so you cannot start agents. Do the work yourself with your other tools, and say so in your report if it needed more hands.`
}

/** What the Agent tool needs besides a subagent's run: definitions, tool names, ids, output logs, launch records and agents by name. */
export type SpawnHost = SubagentRunHost &
  Pick<SessionContext, 'definitions' | 'aliases' | 'tools' | 'newAgentId' | 'mainAgentId' | 'findAgent' | 'outputLogs' | 'files'>

export async function spawnSubagent(session: SpawnHost, parent: AgentHandle, input: AgentToolInput, ctx: ToolContext): Promise<ToolResult> {
  if (parent.fork) return refuse('A forked agent cannot start agents. Do this work yourself.')
  if (input.resume) return resumeSubagent(session, parent, input, ctx)
  const depth = parent.depth + 1
  const planned = planSpawn(session, parent, input, depth)
  if (typeof planned === 'string') return refuse(planned)
  const refusal = session.gate.refusal(depth)
  if (refusal) return refuse(refusal)
  if (planned.isolated && planned.background && !session.extensions.hooks.has('WorktreeCreate', parent)) {
    // A background call returns before the worktree exists: say now, not in a later notification, when it cannot.
    try {
      await readRepo(parent.cwd)
    } catch (err) {
      return refuse(`Could not isolate the agent: ${errorMessage(err)}`)
    }
  }

  session.gate.admit()
  const handle = childHandle(planned, parent, input, { id: session.newAgentId(), depth, toolUseId: ctx.toolUseId })
  const budget = budgetFor(input.budget, planned.fork ? undefined : planned.def?.budget, session.gate.limits)
  if (budget) handle.budget = budget
  session.registry.add(handle)
  session.files.openTranscript(handle)
  const siblings = siblingsOf(input, ctx)
  handle.sharers = siblings.count
  if (siblings.brief) handle.brief = siblings.brief
  if (planned.background) handle.outputFile = session.outputLogs.for(handle.id).file
  ctx.onUpdate?.({
    agentId: handle.id,
    agentType: handle.agentType,
    model: handle.model,
    status: 'queued',
    ...(planned.background ? { background: true } : {})
  })

  const inherited = planned.fork || planned.forkContext ? forkMessages(parent.messages, ctx.toolUseId, input.prompt) : null
  // A background agent is on disk with its task before the caller hears it was launched (a fork's inherited
  // conversation is not: one cut off before it starts is reported as not started instead).
  if (planned.background) await session.files.recordLaunch(handle, inherited ? null : input.prompt)
  const req: RunRequest = {
    prompt: inherited ? inherited.prompt : input.prompt,
    history: inherited ? inherited.history : [],
    ...(planned.maxTurns !== undefined ? { maxTurns: planned.maxTurns } : {}),
    ...(inherited ? { recordHistory: true } : {}),
    ...(planned.background ? { reportTo: parent.id } : { linkTo: ctx.signal })
  }
  const run = startSubagentRun(session, handle, req)
  if (planned.background) return launched(handle, input)
  // Waiting on its child, the parent gives its slot to it (see SlotLease): nesting cannot deadlock.
  const result = await session.gate.aside(parent, run)
  if (result.notStarted) return refuse(result.error ?? `The ${handle.agentType} agent did not start.`)
  return formatAgentReport(handle, result, input.prompt)
}

/** The handle of the agent `planned` will be, not yet registered anywhere (warm-spawn.ts builds one to read its prompt). */
export function childHandle(planned: Plan, parent: AgentHandle, input: AgentToolInput, at: { id: string; depth: number; toolUseId: string }): AgentHandle {
  return newAgentHandle({
    id: at.id,
    parentId: parent.id,
    parentToolUseId: at.toolUseId,
    depth: at.depth,
    agentType: planned.agentType,
    definition: planned.def,
    ...(input.name ? { name: input.name } : {}),
    description: input.description,
    model: planned.model,
    cwd: parent.cwd,
    permissionMode: planned.permissionMode,
    ...(planned.allowedAgentTypes ? { allowedAgentTypes: planned.allowedAgentTypes } : {}),
    toolNames: planned.toolNames,
    ...(planned.effort !== undefined ? { effort: planned.effort } : {}),
    ...(planned.notes ? { startNotes: planned.notes } : {}),
    ...(planned.fork && parent.systemPrompt ? { systemPrompt: parent.systemPrompt } : {}),
    ...(planned.background ? { background: true } : {}),
    ...(planned.fork ? { fork: true } : {}),
    ...(planned.isolated ? { isolation: { repoCwd: parent.cwd } } : {})
  })
}

/** What the agent will be: its definition, model, tools and mode, or a refusal sentence. */
export function planSpawn(
  session: Pick<SpawnHost, 'definitions' | 'aliases' | 'tools' | 'gate'>,
  parent: AgentHandle,
  input: AgentToolInput,
  depth: number
): Plan | string {
  const agentType = input.subagent_type ?? DEFAULT_SUBAGENT_TYPE
  if (parent.allowedAgentTypes && !parent.allowedAgentTypes.includes(agentType))
    return `This agent may only start these agent types: ${parent.allowedAgentTypes.join(', ')}; '${agentType}' is not one of them.`
  const isolated =
    (input.isolation ?? (agentType === FORK_AGENT_TYPE ? undefined : session.definitions.agents().get(agentType)?.definition.isolation)) === 'worktree'

  if (agentType === FORK_AGENT_TYPE) {
    // A fork is the caller itself with its conversation so far: same prompt, model and tools, minus spawning.
    const background = input.run_in_background === true
    const toolNames = (parent.toolNames ?? []).filter(
      (t) => t !== AGENT_TOOL_NAME && !ALWAYS_BLOCKED_FOR_SUBAGENTS.has(t) && (!background || BACKGROUND_ALLOWED.has(t))
    )
    if (!toolNames.length) return 'A fork of this agent would have no tools left; start a regular agent type instead.'
    return {
      def: parent.definition,
      agentType: FORK_AGENT_TYPE,
      model: parent.model,
      toolNames,
      permissionMode: parent.permissionMode,
      fork: true,
      forkContext: true,
      background,
      isolated,
      ...(input.max_turns ? { maxTurns: input.max_turns } : {}),
      ...((input.effort ?? parent.effort) !== undefined ? { effort: input.effort ?? parent.effort } : {})
    }
  }

  const loaded = session.definitions.agents().get(agentType)
  if (!loaded) return `There is no agent type '${agentType}'. Available agent types: ${[...session.definitions.agents().keys(), FORK_AGENT_TYPE].join(', ')}.`
  const def = loaded.definition
  const background = input.run_in_background === true || def.background === true
  let model: string
  try {
    // A forkContext agent continues its parent's conversation, so it runs on the parent's model (inherit).
    model = def.forkContext ? parent.model : resolveModel({ override: input.model, definition: def.model, parent: parent.model, aliases: session.aliases })
  } catch (err) {
    return errorMessage(err)
  }
  const resolution = resolveAgentTools(def, session.tools.names(), { isBuiltIn: def.source === 'built-in', isBackground: background, isSubagent: true })
  // An agent whose tools come from its own MCP servers has them only once they connect, when it starts.
  if (resolution.error && !(def.mcpServers && resolution.invalidTools.every((t) => t.startsWith('mcp__')))) return resolution.error
  // A subagent at the depth limit cannot spawn further: keep the Agent tool out rather than let every call
  // fail, and say why in its first message, so it neither looks for the tool nor promises what it cannot do.
  const atLimit = depth >= session.gate.limits.maxDepth && resolution.resolvedTools.includes(AGENT_TOOL_NAME)
  const toolNames = atLimit ? resolution.resolvedTools.filter((t) => t !== AGENT_TOOL_NAME) : resolution.resolvedTools
  return {
    def,
    agentType: def.agentType,
    model,
    toolNames,
    ...(resolution.allowedAgentTypes ? { allowedAgentTypes: resolution.allowedAgentTypes } : {}),
    ...(atLimit ? { notes: [depthLimitNote(depth, session.gate.limits.maxDepth)] } : {}),
    permissionMode: childPermissionMode(parent.permissionMode, def.permissionMode),
    fork: false,
    forkContext: def.forkContext === true,
    background,
    isolated,
    ...((input.max_turns ?? def.maxTurns) !== undefined ? { maxTurns: input.max_turns ?? def.maxTurns } : {}),
    ...((input.effort ?? def.effort ?? parent.effort) !== undefined ? { effort: input.effort ?? def.effort ?? parent.effort } : {})
  }
}

/** Shortest shared start of sibling prompts worth giving as context (about 100 tokens): shorter helps no one. */
const MIN_BRIEF_CHARS = 400

/** A call's kind: the calls of one kind start agents that share their prompt prefix (sameKind). */
const kindOf = (input: Partial<AgentToolInput>): string => `${input.subagent_type ?? ''}\u0000${input.model ?? ''}\u0000${!input.isolation}`

/** Per message (its batch of calls) and kind: how many calls start such an agent, and their shared brief. Read once, not per call. */
const siblingsByBatch = new WeakMap<readonly unknown[], Map<string, { count: number; brief: string }>>()

function siblingsOf(input: AgentToolInput, ctx: ToolContext): { count: number; brief: string } {
  if (!ctx.batch) return { count: 1, brief: '' }
  let byKind = siblingsByBatch.get(ctx.batch)
  if (!byKind) {
    byKind = new Map()
    const prompts = new Map<string, string[]>()
    for (const c of ctx.batch) {
      const other = (c.input ?? {}) as Partial<AgentToolInput>
      if (c.name !== AGENT_TOOL_NAME || other.resume) continue
      const kind = kindOf(other)
      const seen = byKind.get(kind) ?? { count: 0, brief: '' }
      seen.count++
      byKind.set(kind, seen)
      if (typeof other.prompt !== 'string') continue
      const list = prompts.get(kind)
      if (list) list.push(other.prompt)
      else prompts.set(kind, [other.prompt])
    }
    for (const [kind, list] of prompts) byKind.get(kind)!.brief = sharedStart(list)
    siblingsByBatch.set(ctx.batch, byKind)
  }
  const mine = byKind.get(kindOf(input))
  return { count: Math.max(1, mine?.count ?? 1), brief: input.prompt ? (mine?.brief ?? '') : '' }
}

/**
 * The parent's brief: the text every sibling's prompt starts with (siblings of one kind), through its last
 * whole line. Each sibling reads it in its own prompt anyway; in the shared prefix it is cached once.
 */
function sharedStart(prompts: string[]): string {
  if (prompts.length < 2) return ''
  let end = prompts[0].length
  for (const p of prompts) {
    end = Math.min(end, p.length)
    let i = 0
    while (i < end && p.charCodeAt(i) === prompts[0].charCodeAt(i)) i++
    end = i
  }
  const shared = prompts[0].slice(0, prompts[0].lastIndexOf('\n', end) + 1).trim()
  return shared.length >= MIN_BRIEF_CHARS ? shared : ''
}

/** Another Agent call of the message starts an agent of the same type and model as `input` (they share a prefix). */
export function sameKind(other: unknown, input: AgentToolInput): boolean {
  const o = (other ?? {}) as Partial<AgentToolInput>
  return !o.resume && kindOf(o) === kindOf(input)
}

async function resumeSubagent(session: SpawnHost, caller: AgentHandle, input: AgentToolInput, ctx: ToolContext): Promise<ToolResult> {
  const id = input.resume as string
  let handle: AgentHandle | undefined
  try {
    handle = await session.findAgent(id)
  } catch (err) {
    return refuse(`Agent ${id} cannot be resumed: ${errorMessage(err)}`)
  }
  if (!handle) return refuse(`There is no agent '${id}' in this session to resume. Start a new agent with the whole task in its prompt.`)
  if (handle.id === session.mainAgentId || handle.id === caller.id)
    return refuse(`Agent ${handle.id} is ${handle.id === caller.id ? 'you' : 'the main agent'}; only subagents can be resumed.`)
  if (handle.run)
    return refuse(
      `Agent ${handle.id} is still running. Send it more instructions with SendMessage (to: '${handle.name ?? handle.id}'), or wait for its report.`
    )
  const background = input.run_in_background === true
  handle.stoppedByUser = false
  handle.parentToolUseId = ctx.toolUseId
  handle.background = background || undefined
  if (input.effort !== undefined) handle.effort = input.effort
  // A larger budget lets a subtree stopped at its budget go on.
  if (input.budget && (input.budget.usd || input.budget.tokens)) handle.budget = { ...input.budget, from: 'call' }
  if (background) handle.outputFile = session.outputLogs.for(handle.id).file
  ctx.onUpdate?.({ agentId: handle.id, agentType: handle.agentType, model: handle.model, status: 'queued', resumed: true })
  const maxTurns = input.max_turns ?? handle.definition?.maxTurns
  const req: RunRequest = {
    // Its own conversation (repaired when the run starts: a stopped run's can end in an unanswered tool call).
    prompt: input.prompt,
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    ...(background ? { reportTo: caller.id } : { linkTo: ctx.signal })
  }
  const run = startSubagentRun(session, handle, req)
  if (background) return launched(handle, input)
  const result = await session.gate.aside(caller, run)
  if (result.notStarted) return refuse(result.error ?? `Agent ${handle.id} did not start.`)
  return formatAgentReport(handle, result, input.prompt)
}

function launched(handle: AgentHandle, input: AgentToolInput): ToolResult {
  const details = { status: 'async_launched' as const, agentId: handle.id, outputFile: handle.outputFile ?? '' }
  const response = { ...details, agentType: handle.agentType, description: input.description, prompt: input.prompt }
  return {
    content: `${JSON.stringify(details)}
The ${handle.agentType} agent ${handle.id}${handle.name ? ` (name: ${handle.name})` : ''} is running in the background. Its final report will reach you as a <task-notification> message when it finishes; carry on with other work meanwhile. Its output so far is in ${details.outputFile}. Check on it with TaskOutput, stop it with TaskStop, or send it instructions with SendMessage.`,
    details,
    response
  }
}
