// `--output-format stream-json`: the session's events as Claude Code's stream messages, one JSON object a line:
//   system/init            once, as the main agent starts (tools, model, permission mode, agents, MCP servers)
//   assistant              each model reply (a subagent's tool calls only, with parent_tool_use_id, agent_id, subagent_type)
//   user                   tool results, and a subagent's prompt (the main agent's prompt is not echoed)
//   system/task_started    a subagent starts (resumed or new), task_progress before each of its tool calls,
//   system/task_updated    then task_notification as it ends
//   system/api_retry       a model call failed and will be retried
//   system/compact_boundary the main agent's conversation was compacted (trigger, pre_tokens, post_tokens)
//   system/informational   a UserPromptSubmit hook kept the prompt from the model (just before its result)
//   result                 last (result-message.ts)
// Fanout's own per-agent events (deltas, status, permissions, teams) are `--output-format events`.
import { cleanUuid } from '../../runtime/random-hex'
import type { AgentEndEvent, AgentEvent, AgentStartEvent, ChatMessage } from '../../../shared/events'
import { promptRefusalOf, type ResultMessage } from './result-message'

export interface StreamSession {
  sessionId: string
  mainAgentId: string
  cwd: string
  permissionMode: string
  /** Agent types the session can start. */
  agentTypes(): string[]
  /** Every slash command the run knows (command files, skills, built-ins), as the init line lists them. */
  slashCommands?(): string[]
  /** Skills the main agent can call with the Skill tool. */
  skillNames(): string[]
  mcpServers(): Array<{ name: string; status: string; error?: string }>
  /** What the tool returned in Claude Code's shape (tool_use_result), taken once. */
  takeToolResponse(toolUseId: string): Record<string, unknown> | undefined
  /** Where a background agent writes its output. */
  outputFile(agentId: string): string | undefined
  version: string
  /** The model requests go to Anthropic's own API (no other base URL): Claude Code 2.1.330's `served_by_anthropic`. */
  servedByAnthropic: boolean
}

type Line = Record<string, unknown>

export class StreamJsonWriter {
  private initSent = false
  private readonly starts = new Map<string, AgentStartEvent>()
  private readonly toolUses = new Map<string, number>()
  /** Tokens the main agent's compactions have removed so far (Claude Code's cumulative_dropped_tokens). */
  private dropped = 0

  constructor(
    private readonly s: StreamSession,
    private readonly write: (line: Line) => void
  ) {}

  private base(): { session_id: string; uuid: string } {
    return { session_id: this.s.sessionId, uuid: cleanUuid() }
  }

  /** Subagent fields on assistant/user lines (Claude Code's), none for the main agent. */
  private agentFields(agentId: string): Line {
    if (agentId === this.s.mainAgentId) return { parent_tool_use_id: null }
    const start = this.starts.get(agentId)
    return {
      parent_tool_use_id: start?.parentToolUseId ?? null,
      agent_id: agentId,
      ...(start ? { subagent_type: start.agentType, task_description: start.description } : {})
    }
  }

  note(e: AgentEvent): void {
    switch (e.type) {
      case 'agent_start':
        this.starts.set(e.agentId, e)
        if (e.depth === 0) return this.init(e)
        this.toolUses.set(e.agentId, 0)
        this.write({
          type: 'system',
          subtype: 'task_started',
          task_id: e.agentId,
          tool_use_id: e.parentToolUseId,
          description: e.description,
          subagent_type: e.agentType,
          is_backgrounded: e.background === true,
          spawn_depth: e.depth,
          task_type: 'local_agent',
          prompt: e.prompt,
          ...this.base()
        })
        return
      case 'message':
        return this.message(e.agentId, e.message, e.ts)
      case 'agent_end':
        if (e.agentId === this.s.mainAgentId) return
        return this.taskEnd(e)
      case 'error':
        if (e.modelFallback && e.agentId === this.s.mainAgentId) {
          const { from, to } = e.modelFallback
          this.write({
            type: 'system',
            subtype: 'model_fallback',
            trigger: 'overloaded',
            original_model: from,
            fallback_model: to,
            content: e.message,
            ...this.base()
          })
          return
        }
        if (!e.retrying) return
        this.write({
          type: 'system',
          subtype: 'api_retry',
          attempt: e.attempt ?? 1,
          max_retries: e.maxAttempts !== undefined ? e.maxAttempts - 1 : 8,
          retry_delay_ms: e.delayMs ?? retryDelay(e.message),
          error_status: statusOf(e.message),
          error: errorKind(e.message),
          ...this.base()
        })
        return
      case 'estimate':
        this.write({ type: 'system', subtype: 'fanout_estimate', agent_id: e.agentId, ...e.estimate, ...this.base() })
        return
      case 'budget':
        this.write({ type: 'system', subtype: `budget_${e.level}`, agent_id: e.agentId, from: e.from, limit: e.limit, spent: e.spent, ...this.base() })
        return
      case 'compaction':
        // Claude Code marks only its own conversation's boundary, and has no trigger for "the API refused it": that is an auto one.
        if (e.agentId !== this.s.mainAgentId || e.error) return
        this.dropped += Math.max(0, e.tokensBefore - (e.tokensAfter ?? e.tokensBefore))
        this.write({
          type: 'system',
          subtype: 'compact_boundary',
          ...this.base(),
          compact_metadata: {
            trigger: e.trigger === 'manual' ? 'manual' : 'auto',
            pre_tokens: e.tokensBefore,
            ...(e.tokensAfter !== undefined ? { post_tokens: e.tokensAfter } : {}),
            cumulative_dropped_tokens: this.dropped,
            duration_ms: e.durationMs
          }
        })
        return
      default:
    }
  }

  /** A new turn of a multi-turn run (--input-format stream-json): it opens with its own system/init, as in Claude Code. */
  newTurn(): void {
    this.initSent = false
  }

  private init(e: AgentStartEvent): void {
    if (this.initSent) return
    this.initSent = true
    this.write({
      type: 'system',
      subtype: 'init',
      cwd: this.s.cwd,
      session_id: this.s.sessionId,
      tools: e.tools,
      mcp_servers: this.s.mcpServers(),
      model: e.model,
      permissionMode: this.s.permissionMode,
      slash_commands: this.s.slashCommands?.() ?? [],
      apiKeySource: process.env.ANTHROPIC_API_KEY ? 'ANTHROPIC_API_KEY' : 'none',
      claude_code_version: this.s.version,
      output_style: 'default',
      agents: this.s.agentTypes(),
      skills: this.s.skillNames(),
      plugins: [],
      served_by_anthropic: this.s.servedByAnthropic,
      uuid: cleanUuid(),
      fanout_version: this.s.version
    })
  }

  /** A subagent is about to run a tool (Claude Code says so before the assistant message that asks for it). */
  private progress(agentId: string, name: string, input: unknown, ts: number): void {
    const start = this.starts.get(agentId)
    const uses = (this.toolUses.get(agentId) ?? 0) + 1
    this.toolUses.set(agentId, uses)
    const what = (input as { description?: unknown } | null)?.description
    this.write({
      type: 'system',
      subtype: 'task_progress',
      task_id: agentId,
      tool_use_id: start?.parentToolUseId ?? null,
      description: typeof what === 'string' && what ? `Running ${what}` : `Running ${name}`,
      subagent_type: start?.agentType,
      usage: { total_tokens: 0, tool_uses: uses, duration_ms: start ? ts - start.ts : 0 },
      last_tool_name: name,
      ...this.base()
    })
  }

  private message(agentId: string, m: ChatMessage, ts: number): void {
    const timestamp = new Date(ts).toISOString()
    if (m.role === 'assistant') {
      const content = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content
      const isSub = agentId !== this.s.mainAgentId
      if (isSub) for (const b of content) if (b.type === 'tool_use') this.progress(agentId, b.name, b.input, ts)
      // A subagent's text and thinking stay out of the stream, as in Claude Code (its report arrives as the Agent tool's result).
      const shown = isSub ? content.filter((b) => b.type === 'tool_use') : content
      if (!shown.length) return
      this.write({
        type: 'assistant',
        message: { type: 'message', role: 'assistant', model: this.starts.get(agentId)?.model, content: shown, stop_reason: null, stop_sequence: null },
        ...this.agentFields(agentId),
        ...this.base(),
        timestamp
      })
      return
    }
    const blocks = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content
    const results = blocks.filter((b) => b.type === 'tool_result')
    // The person's own prompt to the main agent is theirs, not news (Claude Code echoes it only on request).
    if (agentId === this.s.mainAgentId && !results.length) return
    const first = results[0]
    const response = first && first.type === 'tool_result' ? this.s.takeToolResponse(first.tool_use_id) : undefined
    for (const r of results.slice(1)) if (r.type === 'tool_result') this.s.takeToolResponse(r.tool_use_id)
    this.write({
      type: 'user',
      message: { role: 'user', content: blocks },
      ...this.agentFields(agentId),
      ...this.base(),
      timestamp,
      ...(response ? { tool_use_result: response } : {})
    })
  }

  private taskEnd(e: AgentEndEvent): void {
    const start = this.starts.get(e.agentId)
    const status = e.status === 'completed' ? 'completed' : e.status === 'failed' || e.status === 'max_turns' ? 'failed' : 'stopped'
    const u = e.usage
    const usage = { total_tokens: u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens, tool_uses: e.toolUses, duration_ms: e.durationMs }
    this.write({ type: 'system', subtype: 'task_updated', task_id: e.agentId, patch: { status, end_time: e.ts }, ...this.base() })
    this.write({
      type: 'system',
      subtype: 'task_notification',
      task_id: e.agentId,
      tool_use_id: start?.parentToolUseId ?? null,
      status,
      output_file: this.s.outputFile(e.agentId) ?? '',
      summary: e.error ?? e.result,
      usage,
      ...this.base()
    })
  }

  /** A slash command answered without a model call: the init line, then Claude Code's synthetic assistant message. */
  localAnswer(text: string, model: string): void {
    this.init({ tools: [], model } as unknown as AgentStartEvent)
    this.write({
      type: 'assistant',
      message: {
        id: cleanUuid(),
        model: '<synthetic>',
        role: 'assistant',
        stop_reason: 'end_turn',
        stop_sequence: null,
        type: 'message',
        content: [{ type: 'text', text }]
      },
      parent_tool_use_id: null,
      local_command_source: `<local-command-stdout>${text}</local-command-stdout>`,
      ...this.base()
    })
  }

  result(r: ResultMessage): void {
    const refused = promptRefusalOf(r)
    if (refused)
      this.write({
        type: 'system',
        subtype: 'informational',
        content: r.result,
        level: 'warning',
        prevent_continuation: true,
        // Claude Code keeps a stopped prompt (in the transcript) and drops a blocked one.
        prompt_submit_outcome: { kind: refused.kind, prompt_kept: refused.kind === 'stopped_by_hook', reason: refused.reason },
        ...this.base()
      })
    this.write(r as unknown as Line)
  }
}

function statusOf(message: string): number | null {
  const m = /\((\d{3})\)/.exec(message)
  return m ? Number(m[1]) : null
}

function retryDelay(message: string): number {
  const m = /Retrying in ([\d.]+) ?(ms|s)/.exec(message)
  if (!m) return 0
  return Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1))
}

/** Claude Code's error kinds for api_retry. */
function errorKind(message: string): string {
  const status = statusOf(message)
  if (status === 429) return 'rate_limit'
  if (status === 529 || /overloaded/i.test(message)) return 'overloaded'
  if (status !== null && status >= 500) return 'server_error'
  if (status === 401 || status === 403) return 'authentication_failed'
  return 'unknown'
}
