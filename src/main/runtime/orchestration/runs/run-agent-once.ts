// One run of an agent, the same steps for the main agent and for every subagent: connect the MCP servers
// the run needs, settle its tools, take what waits in its durable mailbox, open with the prompt (or the
// inbox), build its system prompt and tools, run the loop, and close the run's own MCP servers whatever
// happens. What differs between kinds of run (a concurrency slot, a worktree, SubagentStart/Stop hooks, the
// main agent's queue) wraps around this function; the agent's conversation and status are never written
// here, only folded from the events the run emits (AgentRegistry.note).
import { fullModelId } from '../../model/aliases'
import type { AgentDefinition } from '../../../../shared/agent-definition'
import type { ChatMessage, ContentBlock } from '../../../../shared/events'
import { contextOptionsFor } from '../../compaction/context-settings'
import { compactionHooks } from '../../hooks/wiring'
import { runAgent, type RunAgentOptions } from '../../loop'
import type { AgentRunResult, EmitFn } from '../../loop/types'
import { effortRequest } from '../../model/effort'
import { SentHistory } from '../../model/request-invariants'
import { compactIdle, type CompactHost } from './compact-agent'
import type { AgentHandle } from './agent-registry'
import { inboxPrompt } from '../messaging/delivery'
import { DEFAULT_TURNS_FROM } from './limits'
import { subtreeBudget } from './budget'
import { checkFanout } from '../spawn/fanout-estimate'
import { AGENT_TOOL_NAME } from '../spawn/agent-tool-name'
import { runTools } from '../spawn/fork'
import type { SessionContext } from '../types'
import { errorMessage } from '../../../../shared/error-message'

/** What to run: everything that is not already on the agent's handle. */
export interface AgentRunSpec {
  /** The definition it runs as (its reminder, its own MCP servers); null for a handle without one. */
  def: AgentDefinition | null
  /** The new user message; absent: the messages waiting in the agent's inbox. */
  prompt?: string | ContentBlock[]
  /** The conversation before this run, ready for the API (repaired). */
  history: ChatMessage[]
  maxTurns?: number
  /** With nothing to say (no prompt, an empty inbox), end before the run starts and return null. */
  skipWhenNothingToSay?: boolean
  /** The tools it may use, asked once the MCP servers are connected (their tools count). */
  toolNames(): string[]
  systemPrompt(): Promise<string>
  /** Last step before the loop starts: what only this kind of run adds (lifecycle labels, hooks, cleanup). */
  extras?(): Promise<Partial<RunAgentOptions>>
  /** Where the run's events go; default the session. */
  emit?: EmitFn
}

/** What one run needs from its session besides compaction's CompactHost: its tools, permission checks, limits and durable state. */
export type RunHost = CompactHost &
  Pick<
    SessionContext,
    | 'toolOutputDir'
    | 'settings'
    | 'gate'
    | 'onError'
    | 'permissions'
    | 'claimMailbox'
    | 'files'
    | 'nestedInstructions'
    | 'mainAgentId'
    | 'dataDir'
    | 'definitions'
    | 'sharedContext'
    | 'filesMayHaveChanged'
    | 'warmSpawn'
    | 'startsEarly'
  >

export async function runAgentOnce(session: RunHost, handle: AgentHandle, spec: AgentRunSpec): Promise<AgentRunResult | null> {
  let closeRun: (() => Promise<void>) | undefined
  try {
    // Every request is built from the handle: one restored from disk may hold an alias, which the API refuses.
    handle.model = fullModelId(handle.model, session.aliases)
    // MCP servers first: their tools are among the ones the agent may be given.
    closeRun = await session.extensions.prepareRun(handle, spec.def)
    // A `continue: false` left from before this run (a hook that ran as the last one ended) is not this run's.
    session.extensions.hooks.takeHalt(handle.id)
    const toolNames = spec.toolNames()
    await session.claimMailbox(handle)
    if (spec.skipWhenNothingToSay && (spec.prompt === undefined ? !handle.inbox.length : !spec.prompt.length)) return null
    handle.systemPrompt = await spec.systemPrompt()
    // Made once per agent, so a folder's CLAUDE.md it was given in an earlier run is not given again.
    if (handle.instructions === undefined) handle.instructions = await session.nestedInstructions(spec.def, handle)
    const nested = handle.instructions
    // Siblings of one message share their prompt's prefix: context for it, used where it makes the prefix cacheable.
    const sharers = handle.sharers ?? 1
    const fill = sharers >= 2 && !handle.fork && !handle.worktree ? await session.sharedContext(spec.def ?? null, handle) : ''
    const tools = runTools(session, handle, toolNames)
    const extras = (await spec.extras?.()) ?? {}
    // Taken from the inbox only now, as the loop records it with their delivery ids: a step above that
    // throws leaves the messages in the inbox (and unconsumed in the mailbox) for the next run.
    const opening = spec.prompt !== undefined ? { blocks: spec.prompt, ids: [] } : inboxPrompt(handle)
    const result = await runAgent(
      {
        agentId: handle.id,
        parentAgentId: handle.parentId,
        parentToolUseId: handle.parentToolUseId,
        sessionId: session.sessionId,
        agentType: handle.agentType,
        depth: handle.depth,
        // The session's client asks the session's stop conditions; this agent's own budget and its ancestors' join the run's list.
        client: session.client,
        stopWhen: [subtreeBudget(session, handle)],
        model: handle.model,
        // A handle reloaded after a restart has no effort of its own: its definition's still applies.
        ...effortRequest(handle.model, handle.effort ?? spec.def?.effort, { thinking: session.settings.thinking }),
        systemPrompt: handle.systemPrompt,
        messages: spec.history,
        prompt: opening.blocks,
        promptDeliveries: opening.ids,
        tools,
        cwd: handle.cwd,
        // No maxTurns of its own (definition, Agent call, --max-turns): the ceiling every agent gets.
        maxTurns: spec.maxTurns ?? session.gate.limits.maxTurns,
        ...(spec.maxTurns === undefined ? { maxTurnsFrom: DEFAULT_TURNS_FROM } : {}),
        signal: handle.abort.signal,
        ...budgetShown(session, handle),
        ...(spec.def?.criticalSystemReminder ? { criticalSystemReminder: spec.def.criticalSystemReminder } : {}),
        beforeToolCall: session.permissions.beforeToolCall(handle),
        afterToolCall: session.extensions.afterToolCall(handle),
        drainInbox: () => handle.inbox.splice(0),
        // Written ahead: the transcript holds the call before a tool that changes anything runs. A tool that changes
        // no file itself (a spawn: ToolMeta.changesFiles) keeps the listing a fan-out's siblings share, so its later
        // agents neither walk the folder again nor get a prompt prefix of their own.
        writeAhead: (call) => {
          if (call.changesFiles) session.filesMayHaveChanged()
          return session.files.durable(handle.id)
        },
        // Every request's messages are in the transcript before it goes: a resume rebuilds what the model saw.
        recorded: () => session.files.durable(handle.id),
        sentHistory: (handle.sentHistory ??= new SentHistory()),
        context: contextOptionsFor(handle.model, session.contextSettings, {
          baseURL: session.client.baseURL,
          takeRequest: () => takeCompactRequest(handle),
          hooks: compactionHooks(session.extensions.hooks, handle)
        }),
        toolOutputDir: session.toolOutputDir,
        ...(fill ? { cacheFill: { text: fill, sharers } } : {}),
        ...(nested ? { afterTools: (calls) => nested.afterTools(calls) } : {}),
        // What its subagents will cost, said (and asked, above the setting) before they start.
        ...(toolNames.includes(AGENT_TOOL_NAME) ? { beforeTools: (calls, started) => checkFanout(session, handle, calls, started) } : {}),
        // Calls that start as soon as they have streamed whole, before the reply ends (spawn/early-spawn.ts).
        ...(session.startsEarly ? { startEarly: (call, sofar) => session.startsEarly!(handle, call, sofar) } : {}),
        // Its subagents' prompt prefix, warmed in the cache while their calls still stream (those that wait for the reply's end).
        ...(toolNames.includes(AGENT_TOOL_NAME) && session.warmSpawn ? { toolUseStreamed: (call, sofar) => session.warmSpawn!(handle, call, sofar) } : {}),
        // A hook's `continue: false` ends this agent's run after the turn's tools.
        halted: () => session.extensions.hooks.takeHalt(handle.id),
        ...extras
      },
      spec.emit ?? session.emit
    )
    // Asked for while the run was in its last request: done now, before another run can start.
    const leftover = takeCompactRequest(handle)
    if (leftover && result.status !== 'stopped') await compactIdle(session, handle, leftover.instructions).catch(() => undefined)
    return result
  } finally {
    await closeRun?.().catch((err: unknown) => session.onError(new Error(`Closing the MCP servers of agent ${handle.id} failed: ${errorMessage(err)}`)))
  }
}

/** The budget its tile shows: its own, or on the main agent the session's. */
function budgetShown(session: RunHost, handle: AgentHandle): Pick<RunAgentOptions, 'budget'> {
  if (handle.budget) return { budget: handle.budget }
  const { budgetUsd, budgetTokens } = session.gate.limits
  if (handle.id !== session.mainAgentId || !(budgetUsd > 0 || budgetTokens > 0)) return {}
  return { budget: { ...(budgetUsd > 0 ? { usd: budgetUsd } : {}), ...(budgetTokens > 0 ? { tokens: budgetTokens } : {}), from: 'session' } }
}

/** The compaction the person asked for, once. */
export function takeCompactRequest(handle: AgentHandle): { instructions?: string } | null {
  const asked = handle.compactRequest ?? null
  handle.compactRequest = undefined
  return asked
}
