// What one run of the agent loop holds between its phases (agent-loop.ts): the conversation as it grows, the
// message waiting to open the next turn, the run's counters, its stop list and model client, and the result
// it ends with. Each phase reads and changes this, so the loop itself is only the list of phases.
import type { AgentEvent, AgentLimit, ChatMessage, ContentBlock, EventPayload } from '../../../shared/events'
import { addUsage, emptyUsage, type Usage } from '../../../shared/usage'
import { ContextControl, type RunIo } from '../compaction/context-control'
import type { ApiToolSpec, ModelClient } from '../model/types'
import { inboxBlocks, promptBlocks, textOf, withUserTurn } from './conversation'
import { guardedClient, runStops, turnLimitNote, type StopCondition } from './stop'
import type { AgentLoopOptions, AgentRunResult, AgentRunStatus, EmitFn } from './types'
import { monotonicMs } from '../clock'

/** The tools as the API sees them. */
export const apiToolSpecs = (tools: AgentLoopOptions['tools']): ApiToolSpec[] =>
  tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputJsonSchema }))

/** A phase's way of saying the run is over, with its result. */
/** The tools as requests carry them, and how many lead every agent's list alike (the tools' cache breakpoint goes after them). */
export function toolSpecsOf(tools: AgentLoopOptions['tools']): { apiTools: ApiToolSpec[]; sharedTools: number } {
  const apiTools = apiToolSpecs(tools)
  const firstOwn = tools.findIndex((t) => !t.sameForEveryAgent)
  return { apiTools, sharedTools: firstOwn === -1 ? apiTools.length : firstOwn }
}

export interface Ended {
  end: AgentRunResult
}

export class RunState {
  readonly started = monotonicMs()
  readonly signal: AbortSignal
  readonly tools: Map<string, AgentLoopOptions['tools'][number]>
  readonly apiTools: ApiToolSpec[]
  /** The leading tools every agent of the session gets alike: the tools' cache breakpoint goes after them. */
  readonly sharedTools: number
  readonly messages: ChatMessage[]
  /** How long the history was when the run began. */
  readonly historyLength: number
  /** The run's stop list: asked before each turn, before each model call (through `client`) and after each turn's tools. */
  readonly stops: StopCondition[]
  readonly client: ModelClient
  readonly context: ContextControl | null
  readonly io: RunIo
  numTurns = 0
  /** What opens the next turn's user message (the prompt, tool results, a nudge); null when nothing waits. */
  pending: ContentBlock[] | null
  /** The note `beforeTools` gave this turn's calls (the person's words with an approval): it goes with their results. */
  toolsNote: string | undefined = undefined
  /** What happened to this turn's reply that the model must know (cut short after its calls started): it goes with their results. */
  replyNote: string | undefined = undefined
  /** The deliveries `pending` carries: consumed once the message holding them is written. */
  pendingIds: string[]
  /** This run's last words: the text of its latest assistant message that had any (a compaction may summarise the message itself). */
  runText = ''
  usage = emptyUsage()
  toolUses = 0
  stopReason: string | null = null
  /** Replies cut off by max_tokens the model was asked to continue. */
  recoveries = 0
  /** Raised once, to the model's own limit, when a tool call is cut off by max_tokens. */
  maxTokens: number | undefined

  constructor(
    readonly opts: AgentLoopOptions,
    /** The raw event sink: stream deltas go here directly (see stream-handlers.ts). */
    readonly emit: EmitFn
  ) {
    this.signal = opts.signal ?? new AbortController().signal
    this.tools = new Map(opts.tools.map((t) => [t.name, t]))
    const specs = toolSpecsOf(opts.tools)
    this.apiTools = specs.apiTools
    this.sharedTools = specs.sharedTools
    this.messages = [...(opts.messages ?? [])]
    this.historyLength = this.messages.length
    this.stops = runStops(opts)
    this.client = guardedClient(opts.client, this.stops, () => ({ turns: this.numTurns }))
    this.context = opts.context
      ? new ContextControl({ ...opts.context, client: this.client, model: opts.model, system: opts.systemPrompt, tools: this.apiTools })
      : null
    this.pending = promptBlocks(opts.prompt)
    this.pendingIds = [...(opts.promptDeliveries ?? [])]
    this.maxTokens = opts.maxTokens
    this.io = {
      emit: this.send,
      signal: this.signal,
      bill: (u: Usage, model: string) => {
        this.usage = addUsage(this.usage, u)
        this.send({ type: 'usage', usage: u, model, purpose: 'compaction' })
      }
    }
  }

  /** One event of this agent, stamped with its ids and the time. */
  readonly send = (payload: EventPayload): void => {
    const { agentId, parentAgentId, parentToolUseId, sessionId } = this.opts
    this.emit({ agentId, parentAgentId, parentToolUseId, sessionId, ts: Date.now(), ...payload } as AgentEvent)
  }

  /** What arrived in the agent's inbox since it was last asked, as blocks and the deliveries they consume. */
  takeInbox(): { blocks: ContentBlock[]; ids: string[] } {
    const items = (this.opts.drainInbox?.() ?? []).map((i) => (typeof i === 'string' ? { text: i } : i))
    return { blocks: inboxBlocks(items.map((i) => i.text)), ids: items.flatMap((i) => (i.deliveryId ? [i.deliveryId] : [])) }
  }

  append(message: ChatMessage, deliveries: string[] = []): void {
    // A user turn after a user message the model never answered (this run's history ended so) is merged into
    // it, as the API takes it and a rebuild of the transcript makes it (withUserTurn); the event is the turn.
    const last = this.messages[this.messages.length - 1]
    if (message.role === 'user' && last?.role === 'user') this.messages.splice(-1, 1, ...withUserTurn([last], message.content))
    else this.messages.push(message)
    if (message.role === 'assistant') this.runText = textOf(message.content).trim() || this.runText
    this.send({ type: 'message', message, ...(deliveries.length ? { deliveries } : {}) })
  }

  /** A compaction replaces the conversation (the compaction event has already told the session so). */
  replaceMessages(next: ChatMessage[]): void {
    this.messages.splice(0, this.messages.length, ...next)
    this.opts.sentHistory?.compacted()
  }

  /**
   * Tool results (or an undelivered prompt) must reach the conversation even when the run stops, so that a
   * resumed agent's history answers every tool_use.
   */
  flushPending(): void {
    if (this.pending?.length) this.append({ role: 'user', content: this.pending }, this.pendingIds)
    this.pending = null
    this.pendingIds = []
  }

  addUsage(u: Usage): void {
    this.usage = addUsage(this.usage, u)
  }

  /** The run's result. */
  finish(status: AgentRunStatus, error?: string, limit?: AgentLimit, apiError?: AgentRunResult['apiError']): AgentRunResult {
    let result = this.runText
    if (status === 'max_turns') {
      const note = turnLimitNote(this.opts.maxTurns)
      result = result ? `${result}\n\n${note}` : note
    }
    return {
      status,
      result,
      ...(error !== undefined ? { error } : {}),
      ...(limit ? { limit } : {}),
      ...(apiError ? { apiError } : {}),
      numTurns: this.numTurns,
      toolUses: this.toolUses,
      usage: this.usage,
      durationMs: Math.round(monotonicMs() - this.started),
      messages: this.messages,
      model: this.opts.model,
      stopReason: this.stopReason
    }
  }
}
