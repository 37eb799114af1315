// Agents from before a restart. Their transcripts and state.json files hold what a resume needs: the
// conversation, the definition, the model and the worktree. `loadDormantAgent` turns them back into a
// handle (idle, ready to be resumed or messaged), `DormantAgents` is a session's view of them, and
// `resumeInterrupted` restarts the agents a crash cut off — never one the person stopped.
import { fullModelId } from '../../model/aliases'
import { SentHistory } from '../../model/request-invariants'
import type { AgentDefinition } from '../../../../shared/agent-definition'
import type { AgentEvent, AgentStartEvent, ChatMessage } from '../../../../shared/events'
import { continuesTask, CUT_OFF_NOTE, RESUME_AFTER_RESTART_NOTE } from '../../../../shared/run-opening'
import { ALWAYS_BLOCKED_FOR_SUBAGENTS, resolveAgentTools } from '../../definitions'
import { existsSync } from 'node:fs'
import { agentsToResume, listAgentStates, loadAgentForResume, readAgentState, transcriptPath, type AgentState } from '../../store'
import { isSafeId } from '../../store/data-dir'
import { startInboxRun, startSubagentRun, type SubagentRunHost } from './agent-run'
import { formatTaskNotification } from '../messaging/delivery'
import { pendingDeliveries, type DeliveryLedger } from '../messaging/delivery-ledger'
import { isFinished, type AgentHandle } from './agent-registry'
import { AGENT_TOOL_NAME } from '../spawn/agent-tool'
import { FORK_AGENT_TYPE } from '../spawn/fork'
import { MAIN_DEFINITION } from './main-agent'
import { MAIN_AGENT_TYPE } from '../prompts/main-prompt'
import { childPermissionMode } from '../spawn/spawn'
import type { SessionContext } from '../types'
import { errorMessage } from '../../../../shared/error-message'
import { monotonicMs } from '../../clock'

export { RESUME_AFTER_RESTART_NOTE }

/** A subagent a crash cut off, as the reopened session's index names it. */
export interface CutOffAgent {
  agentId: string
  agentType: string
  description: string
}

/** Where a cut-off subagent stands now: read from its handle at the moment the note is built. */
export type CutOffStanding = { agent: CutOffAgent } & (
  | { kind: 'running' }
  | { kind: 'finished'; status: string; reportTo: string | null }
  | { kind: 'not_running'; reason: string }
)

const named = (a: CutOffAgent) => `${a.agentId} (${a.agentType}${a.description ? `: ${a.description}` : ''})`

/**
 * What the main agent is told about the subagents a crash cut off, built after the restart did what it
 * could, from where each one stands at that moment: running again (its report will come), finished since
 * (its report is delivered on its own, not repeated here), or not running (and why, and what to do).
 * Nothing in it may be false when it is sent: a model acts on it (redoing work it is told will never come).
 */
export function cutOffNote(standings: readonly CutOffStanding[], mainAgentId: string): string {
  const running = standings.filter((s) => s.kind === 'running')
  const finished = standings.filter((s): s is Extract<CutOffStanding, { kind: 'finished' }> => s.kind === 'finished')
  const stopped = standings.filter((s): s is Extract<CutOffStanding, { kind: 'not_running' }> => s.kind === 'not_running')
  const parts: string[] = [CUT_OFF_NOTE.start]
  if (running.length)
    parts.push(
      `${CUT_OFF_NOTE.running}; each one's report reaches you as a <task-notification> when it finishes, so do not start them again:\n${running.map((s) => `- ${named(s.agent)}`).join('\n')}`
    )
  if (finished.length)
    parts.push(
      `${CUT_OFF_NOTE.finished}; each one's report is delivered as a <task-notification> (to you, or to the agent that started it), not repeated here:\n${finished
        .map((s) => `- ${named(s.agent)}: ${s.status}${s.reportTo && s.reportTo !== mainAgentId ? `, reported to ${s.reportTo}` : ''}`)
        .join('\n')}`
    )
  if (stopped.length)
    parts.push(
      `${CUT_OFF_NOTE.stopped}:\n${stopped.map((s) => `- ${named(s.agent)}: ${s.reason}`).join('\n')}\nTo have one continue, send it a message with SendMessage; otherwise do the work another way.`
    )
  return parts.join('\n\n')
}

/** Why a cut-off agent that no restart touched is not running. */
export const NOT_RESUMED_REASON = 'it was not restarted (the session was reopened without resuming the agents a crash cut off)'

/** What loading and resuming agents from disk needs: their definitions and tools, runs, deliveries and the main agent. */
export interface DormantContext extends SubagentRunHost, Pick<SessionContext, 'cwd' | 'mainAgentId' | 'definitions' | 'tools' | 'findAgent' | 'main'> {
  dataDir: string
  mainPermissionMode: AgentDefinition['permissionMode']
  /** What the transcripts said was owed when the session was reopened (see DeliveryLedger). */
  ledger: DeliveryLedger
}

/** The id of the agent with this id or (most recent) name on disk; null when there is none. */
async function idOf(ctx: DormantContext, idOrName: string): Promise<string | null> {
  // A string that cannot be an id (a name with spaces, say) is looked up as a name only. An id with a
  // transcript is an agent even when its state.json is missing or broken (rebuilt when it loads).
  if (
    isSafeId(idOrName) &&
    (existsSync(transcriptPath(ctx.dataDir, ctx.sessionId, idOrName)) || (await readAgentState(ctx.dataDir, ctx.sessionId, idOrName).catch(() => null)))
  )
    return idOrName
  const { states } = await listAgentStates(ctx.dataDir, ctx.sessionId)
  const named = states.filter((s) => s.name === idOrName).sort((a, b) => a.updatedAt - b.updatedAt)
  return named[named.length - 1]?.agentId ?? null
}

function definitionOf(ctx: DormantContext, name: string, state: AgentState): AgentDefinition {
  if (name === MAIN_AGENT_TYPE) return MAIN_DEFINITION
  const def = ctx.definitions.agents().get(name)?.definition
  if (!def)
    throw new Error(
      `it ran as the '${name}' agent${state.definition.file ? ` (${state.definition.file})` : ''}, and no definition with that name is loaded now; restore it to resume the agent`
    )
  return def
}

/** Rebuilds an agent from its transcript and state.json, and adds it to the registry (idle). */
export async function loadDormantAgent(ctx: DormantContext, idOrName: string): Promise<AgentHandle | undefined> {
  const agentId = await idOf(ctx, idOrName)
  if (!agentId || agentId === ctx.mainAgentId) return undefined
  const existing = ctx.registry.get(agentId)
  if (existing) return existing
  const loaded = await loadAgentForResume(ctx.dataDir, ctx.sessionId, agentId, {
    sessionCwd: ctx.cwd,
    interruptedResult: (events) => ctx.ledger.interruptedResult(events)
  })
  const state = loaded.state
  if (!state) return undefined
  for (const note of loaded.notes) if (note.includes('could not be used')) ctx.onError(new Error(note))

  let depth = 1
  let parentState: AgentState | null = null
  for (let p = state.parentAgentId; p && p !== ctx.mainAgentId && depth < 50; depth++) {
    const s = await readAgentState(ctx.dataDir, ctx.sessionId, p).catch(() => null)
    if (!s) break
    parentState ??= s
    p = s.parentAgentId
  }

  const fork = state.definition.name === FORK_AGENT_TYPE
  // A fork runs as its parent did: the parent's definition (its prompt and tools), without the Agent tool.
  const defName = fork ? (parentState?.definition.name ?? MAIN_AGENT_TYPE) : state.definition.name
  const def = definitionOf(ctx, defName, state)
  const isMainLike = def === MAIN_DEFINITION
  const resolution = isMainLike
    ? { resolvedTools: ctx.tools.names(), error: undefined, allowedAgentTypes: undefined }
    : resolveAgentTools(def, ctx.tools.names(), { isBuiltIn: def.source === 'built-in', isBackground: state.background === true, isSubagent: true })
  if (resolution.error) throw new Error(resolution.error)
  let toolNames = resolution.resolvedTools
  if (fork) toolNames = toolNames.filter((t) => t !== AGENT_TOOL_NAME && !ALWAYS_BLOCKED_FOR_SUBAGENTS.has(t))
  else if (depth >= ctx.gate.limits.maxDepth) toolNames = toolNames.filter((t) => t !== AGENT_TOOL_NAME)

  const handle: AgentHandle = {
    id: state.agentId,
    parentId: state.parentAgentId ?? ctx.mainAgentId,
    parentToolUseId: state.parentToolUseId ?? null,
    depth,
    agentType: state.agentType,
    definition: def,
    ...(state.name ? { name: state.name } : {}),
    ...(state.effort !== undefined ? { effort: state.effort } : {}),
    ...(state.budget ? { budget: state.budget } : {}),
    // Its task, as it was named when started: a resumed run is the same agent doing the same task.
    ...(loaded.description ? { description: loaded.description } : {}),
    // Its state.json may hold an alias (written by an older version, or the main agent's setting): a full id.
    model: fullModelId(state.model, ctx.aliases),
    cwd: state.cwd,
    permissionMode: childPermissionMode(ctx.mainPermissionMode ?? 'default', def.permissionMode),
    ...(resolution.allowedAgentTypes ? { allowedAgentTypes: resolution.allowedAgentTypes } : {}),
    // Cut off mid-run: it is not running now; resuming it is a decision for the caller.
    status: isFinished(state.status) ? state.status : 'interrupted',
    abort: new AbortController(),
    stoppedByUser: state.stoppedByUser,
    // Deliveries it received that no written turn consumed: read at its next turn, once, in order.
    ...pendingDeliveries(loaded.events),
    ...(loaded.messages.length ? {} : taskOf(state, loaded.events)),
    // Spend before the restart is counted once, from the reopened session's index (see AgentSession.open).
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    startedAt: Date.now(),
    // Without the answers decided now: they are recorded below, and the record adds them (one writer).
    messages: loaded.messages.slice(0, loaded.messages.length - loaded.decided.length),
    run: null,
    turnCount: state.turnCount,
    lastEventAt: monotonicMs(),
    toolNames,
    ...(state.background ? { background: true } : {}),
    ...(fork ? { fork: true } : {}),
    // An isolated agent stays one whatever it was doing when Fanout stopped — waiting for a slot (no worktree
    // yet), having its worktree made, running, committing — and also once a run removed its empty worktree:
    // its run makes or reattaches the worktree first and never runs in the checkout (`cwd` is that checkout).
    ...(isIsolated(state) ? { isolation: { repoCwd: state.cwd } } : {}),
    ...(state.worktree ? { worktree: state.worktree } : {})
  }
  // Loaded by someone else while this read the disk (a message to it, the resume loop): one handle per
  // agent, or the same agent could run twice at once.
  const raced = ctx.registry.get(state.agentId)
  if (raced) return raced
  // What it was sent before the restart: its next request extends that, never rewrites it.
  if (loaded.asRecorded) handle.sentHistory = new SentHistory(handle.messages)
  ctx.registry.add(handle)
  recordDecided(ctx, handle, loaded.decided)
  return handle
}

/** Whether the agent works in a worktree of its own: its launch said so, or it had one. */
const isIsolated = (state: AgentState): boolean => state.isolation === 'worktree' || state.worktree !== undefined

/**
 * Records the answers a reload decided for an agent's cut-off calls, once: from now on they are its history
 * like any message, and a later resume reads them back instead of deciding (and wording) them again.
 */
export function recordDecided(ctx: Pick<DormantContext, 'emit' | 'sessionId'>, handle: AgentHandle, decided: readonly ChatMessage[]): void {
  const ids = { agentId: handle.id, parentAgentId: handle.parentId, parentToolUseId: handle.parentToolUseId, sessionId: ctx.sessionId }
  for (const message of decided) ctx.emit({ ...ids, ts: Date.now(), type: 'message', message })
}

/**
 * A session's agents from before a restart: each loaded on demand (once, however many ask for it at the
 * same moment), and the ones a crash cut off, which the main agent hears about with the person's next prompt.
 */
export class DormantAgents {
  /** Subagents a crash cut off, not said to the main agent yet. */
  cutOff: CutOffAgent[] = []
  /** Why a restart did not restart an agent, by id (see ResumeReport.notResumed). */
  private readonly whyNot = new Map<string, string>()
  private readonly loads = new Map<string, Promise<AgentHandle | undefined>>()

  constructor(private readonly ctx: DormantContext) {}

  /** The agent with this id or name, from disk (see loadDormantAgent). */
  find(idOrName: string): Promise<AgentHandle | undefined> {
    let load = this.loads.get(idOrName)
    if (!load) {
      load = loadDormantAgent(this.ctx, idOrName)
      this.loads.set(idOrName, load)
      load.finally(() => this.loads.delete(idOrName)).catch(() => undefined)
    }
    return load
  }

  /** What a restart did: the note says why an agent it did not restart is not running. */
  noteRestart(report: ResumeReport): void {
    for (const n of report.notResumed) this.whyNot.set(n.agentId, n.reason)
  }

  /** Where each cut-off subagent stands now, read from the registry at this moment. */
  standings(): CutOffStanding[] {
    return this.cutOff.map((agent): CutOffStanding => {
      const h = this.ctx.registry.get(agent.agentId)
      if (h?.run) return { agent, kind: 'running' }
      if (h && isFinished(h.status) && h.status !== 'interrupted') return { agent, kind: 'finished', status: h.status, reportTo: h.parentId }
      return { agent, kind: 'not_running', reason: this.whyNot.get(agent.agentId) ?? NOT_RESUMED_REASON }
    })
  }

  /** The note about the cut-off subagents for the main agent, said once (built now, from where they stand now); null when there were none. */
  takeCutOffNote(): string | null {
    const standings = this.standings()
    this.cutOff = []
    return standings.length ? cutOffNote(standings, this.ctx.mainAgentId) : null
  }
}

export interface ResumeReport {
  /** Agents restarted, the main agent included when it was cut off. */
  resumed: string[]
  /** Agents that could not be resumed, or state files that could not be read: one sentence each. */
  problems: string[]
  /** Cut-off agents this restart did not restart, each with why (what the main agent is told). */
  notResumed: Array<{ agentId: string; reason: string }>
}

/**
 * Restarts every agent a crash or quit cut off (state.json still says running or queued), except those the
 * person stopped. Subagents run in the background and report to their parent when they finish (or to the
 * nearest ancestor still running, or the main agent); the main agent, if it was cut off, is resumed too and
 * told which subagents were restarted.
 */
export async function resumeInterrupted(ctx: DormantContext, wakeMain: (report: ResumeReport) => void): Promise<ResumeReport> {
  const { states, problems } = await agentsToResume(ctx.dataDir, ctx.sessionId, { sessionCwd: ctx.cwd })
  const resumed: string[] = []
  const notResumed: ResumeReport['notResumed'] = []
  let mainCutOff = false
  for (const state of states) {
    if (state.agentId === ctx.mainAgentId) {
      mainCutOff = true
      continue
    }
    if (ctx.registry.get(state.agentId)?.run) continue
    try {
      const handle = await ctx.findAgent(state.agentId)
      // `states` was read before the loop: while it loaded the agents before this one, a message may have resumed
      // this one (a report of one restarted already woke the main agent), and that run may be over. Only an agent
      // still cut off is started here; another run would do its work and report it twice.
      if (!handle || handle.run || handle.status !== 'interrupted') continue
      const maxTurns = handle.definition?.maxTurns !== undefined ? { maxTurns: handle.definition.maxTurns } : {}
      const reportTo = handle.parentId ?? ctx.mainAgentId
      if (!handle.messages.length) {
        // Cut off before its first turn was written (or launched and never started): it starts again on its
        // task; one opened by deliveries has them in its inbox again; one whose task is not known is reported.
        if (handle.task !== undefined) startSubagentRun(ctx, handle, { prompt: handle.task, history: [], reportTo, ...maxTurns })
        else if (handle.inbox.length) startInboxRun(ctx, handle, reportTo)
        else {
          notStartedReport(ctx, handle, states.some((s) => s.agentId === reportTo) ? reportTo : ctx.mainAgentId)
          notResumed.push({ agentId: handle.id, reason: 'it had not started when Fanout stopped and its task could not be restored; nothing of it ran' })
          continue
        }
      } else {
        // Its history is read when the run starts (a compaction may come first).
        startSubagentRun(ctx, handle, { prompt: RESUME_AFTER_RESTART_NOTE, reportTo, ...maxTurns })
      }
      resumed.push(handle.id)
    } catch (err) {
      problems.push(`Agent ${state.agentId} was not resumed: ${errorMessage(err)}`)
      notResumed.push({ agentId: state.agentId, reason: `it could not be restarted: ${errorMessage(err)}` })
    }
  }
  // Agents that were not cut off but had deliveries waiting (a message that was to resume them, a report):
  // they run on them now, as they would have before the crash. Never one the person stopped.
  for (const agentId of ctx.ledger.waiting) {
    if (agentId === ctx.mainAgentId || resumed.includes(agentId) || states.some((s) => s.agentId === agentId)) continue
    try {
      const handle = await ctx.findAgent(agentId)
      if (!handle || handle.run || handle.stoppedByUser || handle.status === 'stopped' || !handle.inbox.length) continue
      startInboxRun(ctx, handle, handle.parentId ?? ctx.mainAgentId)
      resumed.push(handle.id)
    } catch (err) {
      problems.push(`Agent ${agentId} has messages waiting but was not resumed: ${errorMessage(err)}`)
    }
  }
  const report = { resumed, problems, notResumed }
  if (mainCutOff) {
    resumed.unshift(ctx.mainAgentId)
    wakeMain(report)
  }
  return report
}

/**
 * A background agent cut off before it started whose task cannot be restored (a fork: its inherited
 * conversation is not kept): it ends as failed, and the agent that launched it is told, so it does not wait.
 */
function notStartedReport(ctx: DormantContext, handle: AgentHandle, to: string): void {
  const error = 'It had not started when Fanout stopped (it was closed or crashed), so nothing of it ran; start it again if the work is still needed.'
  const ids = { agentId: handle.id, parentAgentId: handle.parentId, parentToolUseId: handle.parentToolUseId, sessionId: ctx.sessionId }
  const result = {
    status: 'failed' as const,
    result: '',
    error,
    numTurns: 0,
    toolUses: 0,
    usage: handle.usage,
    durationMs: 0,
    messages: [],
    model: handle.model,
    stopReason: null
  }
  ctx.emit({ ...ids, ts: Date.now(), type: 'agent_end', status: 'failed', result: '', error, numTurns: 0, toolUses: 0, durationMs: 0, usage: handle.usage })
  const target = ctx.registry.get(to) ?? ctx.main.getHandle()
  ctx.delivery.deliver(target, formatTaskNotification(handle, result), {
    from: handle.id,
    summary: `${handle.agentType}: not started`,
    wake: false,
    deliveryId: `not-started-${handle.id}`
  })
}

/** The task of an agent that has no conversation yet: its launch record's, else its last run's prompt (not one made of deliveries, which come again from its inbox). */
export function taskOf(state: Pick<AgentState, 'prompt'> | null, events: readonly AgentEvent[]): { task?: string } {
  if (state?.prompt !== undefined) return { task: state.prompt }
  const start = [...events].reverse().find((e): e is AgentStartEvent => e.type === 'agent_start')
  return start && start.prompt.trim() && !continuesTask(start.prompt) ? { task: start.prompt } : {}
}
