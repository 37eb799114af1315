// Builds realistic AgentEvent sequences for tests and fixtures (reducer tests, the e2e fake host):
// every event gets the base fields right (agent, parent, parent tool use, session, time).
import type { PermissionChoice } from '../permission-answer'
import type { AgentEvent, AgentStartEvent, ChatMessage, ContentBlock, EventBase } from '../events'
import { emptyUsage, type Usage } from '../usage'

export interface AgentEvents {
  readonly agentId: string
  start(opts?: Partial<Omit<AgentStartEvent, keyof EventBase | 'type'>>): AgentEvent
  status(status: Extract<AgentEvent, { type: 'status' }>['status'], detail?: string): AgentEvent
  turnStart(turn: number): AgentEvent
  turnEnd(turn: number, stopReason?: string | null): AgentEvent
  request(attempt?: number, model?: string): AgentEvent
  text(text: string): AgentEvent
  thinking(text: string): AgentEvent
  user(content: string | ContentBlock[]): AgentEvent
  assistant(content: string | ContentBlock[]): AgentEvent
  toolStart(toolUseId: string, name: string): AgentEvent
  toolInput(toolUseId: string, partialJson: string): AgentEvent
  toolRun(toolUseId: string, name: string, input: unknown): AgentEvent
  toolUpdate(toolUseId: string, details: unknown): AgentEvent
  toolEnd(toolUseId: string, name: string, output: string, opts?: { isError?: boolean; durationMs?: number; details?: unknown }): AgentEvent
  usage(usage: Partial<Usage>, model?: string, purpose?: 'compaction' | 'cache_warm'): AgentEvent
  compactionStart(trigger: Extract<AgentEvent, { type: 'compaction_start' }>['trigger'], tokensBefore: number): AgentEvent
  compaction(opts: Omit<Extract<AgentEvent, { type: 'compaction' }>, keyof EventBase | 'type' | 'durationMs'> & { durationMs?: number }): AgentEvent
  error(message: string, retrying?: boolean): AgentEvent
  permissionRequest(
    requestId: string,
    toolName: string,
    input: unknown,
    opts?: { requestingAgentId?: string; toolUseId?: string; reason?: string; suggestedRules?: string[] }
  ): AgentEvent
  permissionResponse(requestId: string, decision: PermissionChoice): AgentEvent
  received(from: string, text: string, summary?: string): AgentEvent
  end(
    status: Extract<AgentEvent, { type: 'agent_end' }>['status'],
    opts?: { result?: string; error?: string; numTurns?: number; toolUses?: number; usage?: Partial<Usage>; durationMs?: number }
  ): AgentEvent
}

export interface EventClock {
  now(): number
  advance(ms: number): void
}

export function manualClock(start = 1_700_000_000_000): EventClock {
  let t = start
  return { now: () => t, advance: (ms) => void (t += ms) }
}

export function agentEvents(sessionId: string, agentId: string, clock: EventClock, parent: { agentId: string; toolUseId: string } | null = null): AgentEvents {
  const base = (): EventBase => ({ agentId, parentAgentId: parent?.agentId ?? null, parentToolUseId: parent?.toolUseId ?? null, sessionId, ts: clock.now() })
  const msg = (role: ChatMessage['role'], content: string | ContentBlock[]): AgentEvent => ({ ...base(), type: 'message', message: { role, content } })
  return {
    agentId,
    start: (opts = {}) => ({
      ...base(),
      type: 'agent_start',
      agentType: 'general-purpose',
      description: 'Task',
      prompt: 'Do the task',
      model: 'sonnet',
      cwd: '/work/project',
      depth: parent ? 1 : 0,
      tools: ['Read', 'Grep', 'Bash'],
      ...opts
    }),
    status: (status, detail) => ({ ...base(), type: 'status', status, ...(detail ? { detail } : {}) }),
    turnStart: (turn) => ({ ...base(), type: 'turn_start', turn }),
    turnEnd: (turn, stopReason = 'end_turn') => ({ ...base(), type: 'turn_end', turn, stopReason }),
    request: (attempt = 1, model = 'claude-sonnet-4-5') => ({ ...base(), type: 'model_request', model, attempt }),
    text: (text) => ({ ...base(), type: 'text_delta', text }),
    thinking: (text) => ({ ...base(), type: 'thinking_delta', text }),
    user: (content) => msg('user', content),
    assistant: (content) => msg('assistant', content),
    toolStart: (toolUseId, name) => ({ ...base(), type: 'tool_start', toolUseId, name }),
    toolInput: (toolUseId, partialJson) => ({ ...base(), type: 'tool_input_delta', toolUseId, partialJson }),
    toolRun: (toolUseId, name, input) => ({ ...base(), type: 'tool_run', toolUseId, name, input }),
    toolUpdate: (toolUseId, details) => ({ ...base(), type: 'tool_update', toolUseId, details }),
    toolEnd: (toolUseId, name, output, opts = {}) => ({
      ...base(),
      type: 'tool_end',
      toolUseId,
      name,
      output,
      isError: opts.isError ?? false,
      durationMs: opts.durationMs ?? 0,
      ...(opts.details !== undefined ? { details: opts.details } : {})
    }),
    usage: (usage, model = 'claude-sonnet-4-5', purpose) => ({
      ...base(),
      type: 'usage',
      usage: { ...emptyUsage(), ...usage },
      model,
      ...(purpose ? { purpose } : {})
    }),
    compactionStart: (trigger, tokensBefore) => ({ ...base(), type: 'compaction_start', trigger, tokensBefore }),
    compaction: (opts) => ({ ...base(), type: 'compaction', durationMs: 1_000, ...opts }),
    error: (message, retrying = false) => ({ ...base(), type: 'error', message, retrying }),
    permissionRequest: (requestId, toolName, input, opts = {}) => ({
      ...base(),
      type: 'permission_request',
      requestId,
      toolName,
      input,
      reason: opts.reason ?? `${toolName} needs approval`,
      requestingAgentId: opts.requestingAgentId ?? agentId,
      ...(opts.toolUseId ? { toolUseId: opts.toolUseId } : {}),
      ...(opts.suggestedRules ? { suggestedRules: opts.suggestedRules } : {})
    }),
    permissionResponse: (requestId, decision) => ({ ...base(), type: 'permission_response', requestId, decision }),
    received: (from, text, summary) => ({ ...base(), type: 'message_received', from, text, ...(summary ? { summary } : {}) }),
    end: (status, opts = {}) => ({
      ...base(),
      type: 'agent_end',
      status,
      result: opts.result ?? '',
      ...(opts.error ? { error: opts.error } : {}),
      numTurns: opts.numTurns ?? 1,
      toolUses: opts.toolUses ?? 0,
      durationMs: opts.durationMs ?? 0,
      usage: { ...emptyUsage(), ...opts.usage }
    })
  }
}
