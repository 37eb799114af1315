// applyEvents(state, events): the pure fold of AgentEvents into the normalized UI state. The same
// function serves the renderer's live batches and the host's replay of a reopened session (which folds
// the transcripts and sends the state), so both always agree. This file routes; each family of events
// is folded in its own *-reducer.ts.
import type { AgentEvent } from '../events'
import { addUsage } from '../usage'
import { agentEnd, agentStart, ensureAgent } from './agent-reducer'
import { compactionEnd, compactionStart, contextUsage } from './context-reducer'
import { setStatus } from './agent-status'
import { messageReceived } from './inbox-reducer'
import { modelAnswered, modelRequest } from './model-wait'
import { assistantMessage, userMessage } from './message-reducer'
import { permissionRequest, permissionResponse } from './permission-reducer'
import { SessionDraft } from './session-draft'
import { emptySession, type EventsState } from './session-state'
import { agentError, appendDelta, beginStream, resolveRetry, settleStreaming } from './stream-reducer'
import { applyPhase, applyTeam, teamMessage } from './team-reducer'
import { startTool, toolEnd, toolInputDelta, toolRun, toolUpdate } from './tool-reducer'
import { pushItem } from './transcript-items'

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
    if (e.type === 'text_delta' || e.type === 'thinking_delta') {
      modelAnswered(d, e.agentId, e.ts)
      return appendDelta(d, e.agentId, e.type === 'text_delta' ? 'text' : 'thinking', e.text, e.ts)
    }
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
      modelAnswered(d, a.id, e.ts)
      settleStreaming(d, a)
      return
    case 'model_request':
      return modelRequest(a, e)
    case 'text_delta':
    case 'thinking_delta':
      modelAnswered(d, a.id, e.ts)
      return appendDelta(d, a.id, e.type === 'text_delta' ? 'text' : 'thinking', e.text, e.ts)
    case 'message':
      if (e.message.role === 'assistant') modelAnswered(d, a.id, e.ts)
      return e.message.role === 'assistant' ? assistantMessage(d, a, e.message, e.ts) : userMessage(d, a, e.message, e.ts)
    case 'tool_start':
      modelAnswered(d, a.id, e.ts)
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
      d.addUsage(e.usage)
      // A cache warming comes while the agent's own call streams: it answers nothing and sizes nothing.
      if (e.purpose === 'cache_warm') return
      resolveRetry(d, a) // the call answered
      modelAnswered(d, a.id, e.ts)
      if (e.purpose !== 'compaction') {
        a.contextTokens = e.usage.inputTokens + e.usage.cacheReadTokens + e.usage.cacheWriteTokens + e.usage.outputTokens
        a.resolvedModel = e.model
      }
      contextUsage(a, e)
      return
    case 'error':
      // The attempt failed: a retry's own request opens the next wait.
      modelAnswered(d, a.id, e.ts)
      return agentError(d, a, e)
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
    case 'compaction_start':
      return compactionStart(d, a, e)
    case 'compaction':
      return compactionEnd(d, a, e)
    case 'budget':
      // The session's budget arrives on the main agent, which may carry none of its own.
      a.budget ??= { ...e.limit, from: e.from }
      a.budgetLevel = e.level
      return
    case 'estimate':
      d.set('estimates', { ...d.state.estimates, [a.id]: e.estimate })
      return
    case 'command_output':
      return pushItem(d, a, { kind: 'command', command: e.command, text: e.text, ts: e.ts })
  }
}
