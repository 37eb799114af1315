// applyEvents(state, events): the pure fold of AgentEvents into the normalized UI state. The same
// function serves the renderer's live batches and the host's replay of a reopened session (which folds
// the transcripts and sends the state), so both always agree.
import type { AgentEvent, AgentStatus, ChatMessage } from '../events'
import { addUsage, emptyUsage } from '../usage'
import { SessionDraft } from './session-draft'
import { openedByInbox } from './inbox-message'
import { endStream, messageReceived, userText } from './inbox-reducer'
import { applyPhase, applyTeam, phaseForStart, teamMessage } from './team-reducer'
import { pushItem } from './transcript-items'
import { AGENT_TOOL_NAMES, emptySession, type AgentState, type EventsState, type TranscriptItem, type WaitKind } from './session-state'

type Of<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>

export function applyEvents(state: EventsState, events: readonly AgentEvent[]): EventsState {
  if (!events.length) return state
  const drafts = new Map<string, SessionDraft>()
  for (const e of events) {
    let d = drafts.get(e.sessionId)
    if (!d) {
      d = new SessionDraft(state.sessions[e.sessionId] ?? emptySession(e.sessionId))
      drafts.set(e.sessionId, d)
    }
    applyOne(d, e)
  }
  const sessions = { ...state.sessions }
  for (const [id, d] of drafts) sessions[id] = d.finish()
  return { ...state, sessions }
}

function applyOne(d: SessionDraft, e: AgentEvent): void {
  d.set('eventCount', d.state.eventCount + 1)
  d.set('lastEventTs', Math.max(d.state.lastEventTs, e.ts))
  if (d.state.startedAt === null || e.ts < d.state.startedAt) d.set('startedAt', e.ts)
  if (e.type === 'agent_start') return agentStart(d, e)
  // The events of a stream touch the agent's transcript or a tool, not the agent: leaving the agent
  // object as it was keeps every view of the agent (header, card, tree) from rendering again per delta.
  if (d.hasAgent(e.agentId)) {
    if (e.type === 'text_delta' || e.type === 'thinking_delta') return appendDelta(d, e.agentId, e.type === 'text_delta' ? 'text' : 'thinking', e.text, e.ts)
    if (e.type === 'tool_input_delta') return toolInputDelta(d, e)
    if (e.type === 'tool_update') return toolUpdate(d, e)
  }
  const a = ensureAgent(d, e)
  switch (e.type) {
    case 'agent_end':
      return agentEnd(d, a, e)
    case 'status':
      setStatus(a, e.status, e.ts)
      a.statusDetail = e.detail
      return
    case 'turn_start':
      a.turn = e.turn
      return
    case 'turn_end':
      settleStreaming(d, a)
      return
    case 'text_delta':
    case 'thinking_delta':
      return appendDelta(d, a.id, e.type === 'text_delta' ? 'text' : 'thinking', e.text, e.ts)
    case 'message':
      return e.message.role === 'assistant' ? assistantMessage(d, a, e.message, e.ts) : userMessage(d, a, e.message, e.ts)
    case 'tool_start':
      beginStream(d, a)
      return startTool(d, a, e.toolUseId, e.name, e.ts, 'streaming')
    case 'tool_input_delta':
      return toolInputDelta(d, e)
    case 'tool_run':
      return toolRun(d, a, e)
    case 'tool_update':
      return toolUpdate(d, e)
    case 'tool_end':
      return toolEnd(d, a, e)
    case 'usage':
      a.usage = addUsage(a.usage, e.usage)
      a.resolvedModel = e.model
      d.addUsage(e.usage)
      return
    case 'error':
      return error(d, a, e)
    case 'permission_request':
      return permissionRequest(d, e)
    case 'permission_response':
      return permissionResponse(d, e)
    case 'message_received':
      messageReceived(d, a, e)
      teamMessage(d, e)
      return
    case 'phase':
      return applyPhase(d, e)
    case 'team':
      return applyTeam(d, e)
  }
}


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
function ensureAgent(d: SessionDraft, e: AgentEvent): AgentState {
  if (d.hasAgent(e.agentId)) return d.agent(e.agentId)
  const a = { ...newAgent(e), unknown: true, description: '(agent start not recorded)' }
  d.putAgent(a)
  linkToParent(d, a)
  return a
}

function agentStart(d: SessionDraft, e: Of<'agent_start'>): void {
  const existing = d.hasAgent(e.agentId)
  const a = existing ? d.agent(e.agentId) : newAgent(e)
  // A run its inbox opened keeps the task the agent was named by, not the envelope's first line.
  const keepTask = existing && !!a.description && openedByInbox(e.prompt)
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
    status: 'running' as AgentStatus,
    statusDetail: undefined,
    endedAt: null,
    turn: 0,
    runs: a.runs + 1,
    usageAtRunStart: a.usage,
    unknown: undefined,
    phase: phaseForStart(d, e.parentAgentId)
  })
  if (!existing) {
    d.putAgent(a)
    linkToParent(d, a)
  } else if (a.parentToolUseId !== e.parentToolUseId && e.parentToolUseId) {
    a.parentToolUseId = e.parentToolUseId
    linkToParent(d, a)
  }
}

function agentEnd(d: SessionDraft, a: AgentState, e: Of<'agent_end'>): void {
  closeWaits(a, e.ts)
  a.status = e.status
  a.statusDetail = undefined
  a.endedAt = e.ts
  a.result = e.result
  a.error = e.error
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
  if (e.error && e.status === 'failed' && !d.peekItems(a.id).some((i) => i.kind === 'error' && i.message === e.error)) {
    pushItem(d, a, { kind: 'error', message: e.error, retrying: false, ts: e.ts })
  }
  // Cut off by a crash: said where its output stops.
  if (e.status === 'interrupted') pushItem(d, a, { kind: 'notice', text: e.error ?? 'Interrupted.', ts: e.ts })
}

const diff = (a: AgentState['usage'], b: AgentState['usage']) => ({
  inputTokens: a.inputTokens - b.inputTokens,
  outputTokens: a.outputTokens - b.outputTokens,
  cacheReadTokens: a.cacheReadTokens - b.cacheReadTokens,
  cacheWriteTokens: a.cacheWriteTokens - b.cacheWriteTokens,
  costUsd: a.costUsd - b.costUsd
})

function waitKindOf(status: AgentStatus): WaitKind | null {
  return status === 'queued' ? 'queued' : status === 'waiting_permission' ? 'permission' : null
}

function closeWaits(a: AgentState, ts: number): void {
  if (a.waits.some((w) => w.end === null)) a.waits = a.waits.map((w) => (w.end === null ? { ...w, end: ts } : w))
}

function setStatus(a: AgentState, status: AgentStatus, ts: number): void {
  if (a.status === status) return
  closeWaits(a, ts)
  const kind = waitKindOf(status)
  if (kind) a.waits.push({ kind, start: ts, end: null })
  a.status = status
}

function beginStream(d: SessionDraft, a: AgentState): void {
  if (a.streamFrom === null) a.streamFrom = d.peekItems(a.id).length
}

function appendDelta(d: SessionDraft, agentId: string, kind: 'text' | 'thinking', text: string, ts: number): void {
  // The agent is written only when a stream or an item begins; a delta that extends the last item
  // changes that item alone.
  if (d.peekAgent(agentId).streamFrom === null) beginStream(d, d.agent(agentId))
  const streamFrom = d.peekAgent(agentId).streamFrom!
  const items = d.peekItems(agentId)
  const last = items[items.length - 1]
  if (last && last.kind === kind && last.streaming && items.length - 1 >= streamFrom) {
    d.replaceItem(agentId, items.length - 1, { ...last, text: last.text + text })
  } else pushItem(d, d.agent(agentId), { kind, text, ts, streaming: true })
}

function toolInputDelta(d: SessionDraft, e: Of<'tool_input_delta'>): void {
  if (d.hasTool(e.toolUseId)) d.tool(e.toolUseId).inputJson += e.partialJson
}

function toolUpdate(d: SessionDraft, e: Of<'tool_update'>): void {
  if (d.hasTool(e.toolUseId)) d.tool(e.toolUseId).progress = e.details
}

/** Marks the current turn's streamed text as final (a turn ended, or a stop cut the stream short). */
function settleStreaming(d: SessionDraft, a: AgentState): void {
  // Streaming items exist only from `streamFrom` on (every delta opens the stream first), so only that
  // tail is scanned: scanning the whole transcript made each turn of a long replay cost O(items).
  if (a.streamFrom === null) return
  const items = d.peekItems(a.id)
  for (let i = items.length - 1; i >= a.streamFrom; i--) {
    const it = items[i]
    if ((it.kind === 'text' || it.kind === 'thinking') && it.streaming) d.replaceItem(a.id, i, { ...it, streaming: false })
    else if (it.kind === 'user') break
  }
  endStream(d, a)
}

function startTool(d: SessionDraft, a: AgentState, id: string, name: string, ts: number, status: 'streaming' | 'pending' | 'running'): void {
  if (d.hasTool(id)) return
  d.putTool({ id, agentId: a.id, name, status, inputJson: '', input: undefined, startedAt: ts })
  a.toolIds.push(id)
  pushItem(d, a, { kind: 'tool', toolUseId: id, ts })
  // A child that started before its Agent call was recorded (replay order) is linked now.
  if (AGENT_TOOL_NAMES.has(name)) {
    const child = Object.values(d.state.agents).find((x) => x.parentToolUseId === id)
    if (child) d.tool(id).childAgentId = child.id
  }
}

function toolRun(d: SessionDraft, a: AgentState, e: Of<'tool_run'>): void {
  startTool(d, a, e.toolUseId, e.name, e.ts, 'running')
  const t = d.tool(e.toolUseId)
  t.status = 'running'
  t.input = e.input
  t.runStartedAt = e.ts
  if (!t.inputJson) t.inputJson = safeJson(e.input)
  a.currentToolId = e.toolUseId
}

function toolEnd(d: SessionDraft, a: AgentState, e: Of<'tool_end'>): void {
  startTool(d, a, e.toolUseId, e.name, e.ts - (e.durationMs ?? 0), 'running')
  const t = d.tool(e.toolUseId)
  t.status = e.isError ? 'error' : 'done'
  t.output = e.output
  t.details = e.details
  t.durationMs = e.durationMs
  t.endedAt = e.ts
  if (t.runStartedAt === undefined) t.runStartedAt = e.ts - (e.durationMs ?? 0)
  t.permissionRequestId = undefined
  const childId = (e.details as { agentId?: unknown } | undefined)?.agentId
  if (AGENT_TOOL_NAMES.has(t.name) && typeof childId === 'string' && !t.childAgentId) t.childAgentId = childId
  a.toolUses = Math.max(a.toolUses, a.toolIds.length)
  if (a.currentToolId === e.toolUseId) {
    a.currentToolId = null
    for (let i = a.toolIds.length - 1; i >= 0 && i >= a.toolIds.length - 50; i--) {
      if (d.peekTool(a.toolIds[i])?.status === 'running') {
        a.currentToolId = a.toolIds[i]
        break
      }
    }
  }
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? ''
  } catch {
    return ''
  }
}

/** The final assistant message replaces what was streamed for it (or adds it, on a replay without deltas). */
function assistantMessage(d: SessionDraft, a: AgentState, message: ChatMessage, ts: number): void {
  const from = a.streamFrom ?? d.peekItems(a.id).length
  const items = d.items(a.id)
  const streamed = items.splice(from)
  const reuse = (kind: TranscriptItem['kind']) => {
    const i = streamed.findIndex((s) => s.kind === kind)
    return i === -1 ? null : streamed.splice(i, 1)[0]
  }
  const blocks = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content
  for (const b of blocks) {
    if (b.type === 'text' || b.type === 'thinking') {
      const kind = b.type
      const text = b.type === 'text' ? b.text : b.thinking
      if (!text.trim()) continue
      const old = reuse(kind)
      if (old) items.push({ ...(old as Extract<TranscriptItem, { kind: 'text' }>), kind, text, streaming: false })
      else pushItem(d, a, { kind, text, ts, streaming: false })
    } else if (b.type === 'tool_use') {
      const old = streamed.find((s) => s.kind === 'tool' && s.toolUseId === b.id)
      if (old) {
        streamed.splice(streamed.indexOf(old), 1)
        items.push(old)
      }
      if (!d.hasTool(b.id)) startTool(d, a, b.id, b.name, ts, 'pending')
      else if (!old && !hasToolItem(items, b.id)) items.push({ kind: 'tool', key: `${a.id}:t:${b.id}`, toolUseId: b.id, ts })
      const t = d.tool(b.id)
      if (t.status === 'streaming') t.status = 'pending'
      if (t.input === undefined) t.input = b.input
      if (!t.inputJson) t.inputJson = safeJson(b.input)
    }
  }
  // Tool rows of calls that already ran (their run began before this message arrived) stay in place.
  for (const s of streamed) if (s.kind === 'tool') items.push(s)
  endStream(d, a)
}

function hasToolItem(items: readonly TranscriptItem[], toolUseId: string): boolean {
  for (let i = items.length - 1; i >= Math.max(0, items.length - 200); i--) {
    const it = items[i]
    if (it.kind === 'tool' && it.toolUseId === toolUseId) return true
  }
  return false
}

function isReminder(text: string): boolean {
  return /^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/.test(text)
}

function userMessage(d: SessionDraft, a: AgentState, message: ChatMessage, ts: number): void {
  settleStreaming(d, a)
  const blocks = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content
  for (const b of blocks) {
    if (b.type === 'text') {
      if (!b.text.trim() || isReminder(b.text)) continue
      userText(d, a, b.text, ts)
    } else if (b.type === 'tool_result' && d.hasTool(b.tool_use_id)) {
      // Replays without tool_end still show the result.
      const t = d.peekTool(b.tool_use_id)!
      if (t.output === undefined) {
        const tool = d.tool(b.tool_use_id)
        tool.output = typeof b.content === 'string' ? b.content : b.content.map((c) => c.text).join('\n')
        tool.status = b.is_error ? 'error' : 'done'
        tool.endedAt = ts
      }
    }
  }
}

function error(d: SessionDraft, a: AgentState, e: Of<'error'>): void {
  a.lastError = { message: e.message, retrying: e.retrying, ts: e.ts }
  if (e.retrying) {
    // The failed attempt's deltas are void: drop what was streamed for it.
    if (a.streamFrom !== null) {
      const dropped = d.items(a.id).splice(a.streamFrom)
      for (const it of dropped) {
        if (it.kind === 'tool' && d.peekTool(it.toolUseId)?.status === 'streaming') {
          d.deleteTool(it.toolUseId)
          a.toolIds = a.toolIds.filter((id) => id !== it.toolUseId)
        }
      }
      endStream(d, a)
    }
    const items = d.peekItems(a.id)
    const last = items[items.length - 1]
    if (last?.kind === 'error' && last.retrying) d.replaceItem(a.id, items.length - 1, { ...last, message: e.message, ts: e.ts })
    else pushItem(d, a, { kind: 'error', message: e.message, retrying: true, ts: e.ts })
    return
  }
  a.error = e.message
  pushItem(d, a, { kind: 'error', message: e.message, retrying: false, ts: e.ts })
}

function permissionRequest(d: SessionDraft, e: Of<'permission_request'>): void {
  if (d.state.permissions[e.requestId]) return
  d.putPermission({
    requestId: e.requestId,
    sessionId: e.sessionId,
    agentId: e.agentId,
    requestingAgentId: e.requestingAgentId,
    toolName: e.toolName,
    toolUseId: e.toolUseId,
    input: e.input,
    reason: e.reason,
    suggestedRules: e.suggestedRules ?? [],
    ts: e.ts
  })
  d.queue().push(e.requestId)
  const requester = d.hasAgent(e.requestingAgentId) ? d.agent(e.requestingAgentId) : null
  if (requester) setStatus(requester, 'waiting_permission', e.ts)
  if (e.toolUseId && d.hasTool(e.toolUseId)) d.tool(e.toolUseId).permissionRequestId = e.requestId
}

function expirePermission(d: SessionDraft, requestId: string, ts: number, decision?: 'allow' | 'allow_always' | 'deny'): void {
  const p = d.permission(requestId)
  if (!p) return
  p.decision = decision ?? 'expired'
  p.respondedAt = ts
  const q = d.queue()
  const i = q.indexOf(requestId)
  if (i !== -1) q.splice(i, 1)
  if (p.toolUseId && d.hasTool(p.toolUseId) && d.peekTool(p.toolUseId)!.permissionRequestId === requestId) d.tool(p.toolUseId).permissionRequestId = undefined
}

function permissionResponse(d: SessionDraft, e: Of<'permission_response'>): void {
  const p = d.state.permissions[e.requestId]
  if (!p) return
  expirePermission(d, e.requestId, e.ts, e.decision)
  if (!d.hasAgent(p.requestingAgentId)) return
  const stillWaiting = d.state.permissionQueue.some((id) => d.state.permissions[id].requestingAgentId === p.requestingAgentId)
  const requester = d.agent(p.requestingAgentId)
  if (!stillWaiting && requester.status === 'waiting_permission') setStatus(requester, 'running', e.ts)
  if (e.decision === 'deny') pushItem(d, requester, { kind: 'notice', text: `Denied ${p.toolName}${e.reason ? `: ${e.reason}` : ''}`, ts: e.ts })
}

/**
 * A session replayed after its writer went away (restart, crash) can hold requests nobody can answer
 * any more: mark them expired so the queue shows only what is really waiting.
 */
export function expireWaitingRequests(state: EventsState, sessionId: string, ts: number): EventsState {
  const session = state.sessions[sessionId]
  if (!session?.permissionQueue.length) return state
  const d = new SessionDraft(session)
  for (const id of [...session.permissionQueue]) expirePermission(d, id, ts)
  for (const id of session.agentOrder) if (session.agents[id].status === 'waiting_permission') setStatus(d.agent(id), 'running', ts)
  return { ...state, sessions: { ...state.sessions, [sessionId]: d.finish() } }
}
