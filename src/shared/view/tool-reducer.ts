// Tool calls: a call appears when its input starts streaming (or, on a replay, when it first runs or ends),
// gathers its input, runs, and ends with its output. An Agent call is linked to the child agent it started.
import type { ToolEndEvent, ToolInputDeltaEvent, ToolRunEvent, ToolUpdateEvent } from '../events'
import type { SessionDraft } from './session-draft'
import { AGENT_TOOL_NAMES, type AgentState } from './session-state'
import { pushItem } from './transcript-items'

export function toolInputDelta(d: SessionDraft, e: ToolInputDeltaEvent): void {
  if (d.hasTool(e.toolUseId)) d.tool(e.toolUseId).inputJson += e.partialJson
}

export function toolUpdate(d: SessionDraft, e: ToolUpdateEvent): void {
  if (d.hasTool(e.toolUseId)) d.tool(e.toolUseId).progress = e.details
}

export function startTool(d: SessionDraft, a: AgentState, id: string, name: string, ts: number, status: 'streaming' | 'pending' | 'running'): void {
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

export function toolRun(d: SessionDraft, a: AgentState, e: ToolRunEvent): void {
  startTool(d, a, e.toolUseId, e.name, e.ts, 'running')
  const t = d.tool(e.toolUseId)
  t.status = 'running'
  t.input = e.input
  t.runStartedAt = e.ts
  if (!t.inputJson) t.inputJson = safeJson(e.input)
  a.currentToolId = e.toolUseId
}

export function toolEnd(d: SessionDraft, a: AgentState, e: ToolEndEvent): void {
  startTool(d, a, e.toolUseId, e.name, e.ts - (e.durationMs ?? 0), 'running')
  const t = d.tool(e.toolUseId)
  t.status = e.isError ? 'error' : 'done'
  t.output = e.output
  t.details = e.details
  t.durationMs = e.durationMs
  if (e.runMs !== undefined) t.runMs = e.runMs
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

export function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? ''
  } catch {
    return ''
  }
}
