// An agent's life in the UI state: created at agent_start (or, when a truncated transcript lacks it, at its
// first event, marked unknown), linked to its parent and the Agent call that started it, and closed at
// agent_end, which settles its stream, cancels its open tools and expires its permission requests.
import type { AgentEndEvent, AgentEvent, AgentStartEvent, AgentStatus } from '../events'
import { addUsage, emptyUsage, type Usage } from '../usage'
import { closeWaits } from './agent-status'
import { continuesTask } from '../run-opening'
import { contextAtStart } from './context-reducer'
import { expirePermission } from './permission-reducer'
import type { SessionDraft } from './session-draft'
import type { AgentState } from './session-state'
import { resolveRetry, settleStreaming } from './stream-reducer'
import { phaseForStart } from './team-reducer'
import { pushItem } from './transcript-items'

function newAgent(e: AgentEvent): AgentState {
  return {
    id: e.agentId,
    sessionId: e.sessionId,
    parentId: e.parentAgentId,
    parentToolUseId: e.parentToolUseId,
    agentType: 'agent',
    description: '',
    prompt: '',
    model: '',
    cwd: '',
    depth: 0,
    background: false,
    tools: [],
    status: 'running',
    startedAt: e.ts,
    endedAt: null,
    turn: 0,
    toolUses: 0,
    usage: emptyUsage(),
    children: [],
    toolIds: [],
    currentToolId: null,
    waits: [],
    runs: 0,
    itemSeq: 0,
    streamFrom: null,
    usageAtRunStart: emptyUsage()
  }
}

function linkToParent(d: SessionDraft, a: AgentState): void {
  if (a.parentId === null) {
    if (d.state.rootAgentId === null) d.set('rootAgentId', a.id)
    return
  }
  if (d.hasAgent(a.parentId)) {
    const parent = d.agent(a.parentId)
    if (!parent.children.includes(a.id)) parent.children.push(a.id)
  }
  if (a.parentToolUseId && d.hasTool(a.parentToolUseId)) d.tool(a.parentToolUseId).childAgentId = a.id
}

/** An agent seen before its agent_start (a truncated transcript): shown, marked unknown. */
export function ensureAgent(d: SessionDraft, e: AgentEvent): AgentState {
  if (d.hasAgent(e.agentId)) return d.agent(e.agentId)
  // A status first: an agent waiting for a concurrency slot, or one that could not start (its reason in the detail).
  const description = e.type !== 'status' ? '(agent start not recorded)' : e.status === 'queued' ? 'Waiting to start' : (e.detail ?? 'Did not start')
  const a = { ...newAgent(e), unknown: true, description }
  d.putAgent(a)
  linkToParent(d, a)
  return a
}

export function agentStart(d: SessionDraft, e: AgentStartEvent): void {
  const existing = d.hasAgent(e.agentId)
  const a = existing ? d.agent(e.agentId) : newAgent(e)
  // A run a message opened (its inbox, Fanout's note after a restart) keeps the task the agent was named
  // by, not the message's first line.
  const keepTask = existing && !!a.description && continuesTask(e.prompt)
  // A new run adds the last one's time to the agent's work time.
  const priorRunsMs = existing && a.endedAt !== null ? (a.priorRunsMs ?? 0) + Math.max(0, a.endedAt - (a.runStartedAt ?? a.startedAt)) : (a.priorRunsMs ?? 0)
  Object.assign(a, {
    agentType: e.agentType,
    description: keepTask ? a.description : e.description,
    prompt: keepTask ? a.prompt : e.prompt,
    model: e.model,
    cwd: e.cwd,
    depth: e.depth,
    maxTurns: e.maxTurns,
    color: e.color,
    background: e.background ?? false,
    name: e.name,
    tools: e.tools,
    worktree: e.worktree ?? a.worktree,
    budget: e.budget,
    budgetLevel: undefined,
    status: 'running' as AgentStatus,
    statusDetail: undefined,
    limit: undefined,
    endedAt: null,
    runStartedAt: e.ts,
    priorRunsMs,
    turn: 0,
    runs: a.runs + 1,
    usageAtRunStart: a.usage,
    unknown: undefined,
    phase: phaseForStart(d, e.parentAgentId)
  })
  contextAtStart(a, e)
  if (!existing) {
    d.putAgent(a)
    linkToParent(d, a)
  } else if (a.parentToolUseId !== e.parentToolUseId && e.parentToolUseId) {
    a.parentToolUseId = e.parentToolUseId
    linkToParent(d, a)
  }
}

export function agentEnd(d: SessionDraft, a: AgentState, e: AgentEndEvent): void {
  closeWaits(a, e.ts)
  a.status = e.status
  a.statusDetail = undefined
  a.endedAt = e.ts
  a.result = e.result
  a.error = e.error
  a.limit = e.limit
  a.turn = e.numTurns
  a.toolUses = e.toolUses
  a.currentToolId = null
  // agent_end carries the run's own usage: trust it over the sum of usage events (which may have
  // missed a call), and keep the session total consistent with it.
  if (e.usage) {
    const target = addUsage(a.usageAtRunStart, e.usage)
    d.addUsage(diff(target, a.usage))
    a.usage = target
  }
  if (e.worktree) a.worktree = e.worktree
  settleStreaming(d, a)
  for (const id of a.toolIds) {
    const t = d.peekTool(id)
    if (t && (t.status === 'running' || t.status === 'streaming' || t.status === 'pending')) {
      const tool = d.tool(id)
      tool.status = 'cancelled'
      tool.endedAt = e.ts
    }
  }
  // Requests of an agent that has ended can no longer be answered.
  for (const id of [...d.state.permissionQueue]) {
    const p = d.state.permissions[id]
    if (p.requestingAgentId === a.id) expirePermission(d, id, e.ts)
  }
  resolveRetry(d, a) // no call is waiting to be tried again
  if (e.error && e.status === 'failed' && !d.peekItems(a.id).some((i) => i.kind === 'error' && i.message === e.error)) {
    pushItem(d, a, { kind: 'error', message: e.error, retrying: false, ts: e.ts })
  }
  // Cut off by a crash: said where its output stops.
  if (e.status === 'interrupted') pushItem(d, a, { kind: 'notice', text: e.error ?? 'Interrupted.', ts: e.ts })
}

const diff = (a: Usage, b: Usage): Usage => ({
  inputTokens: a.inputTokens - b.inputTokens,
  outputTokens: a.outputTokens - b.outputTokens,
  cacheReadTokens: a.cacheReadTokens - b.cacheReadTokens,
  cacheWriteTokens: a.cacheWriteTokens - b.cacheWriteTokens,
  costUsd: a.costUsd - b.costUsd
})
