// An agent run's hold on its context window. Before each request it knows how large the request will be (the
// last response's reported usage plus an estimate of what was appended since), compacts when that passes the
// threshold or when the person asked for it, and clears old tool results (or asks the API to). When the API
// refuses a request as too long anyway, it compacts and the turn is tried again.
import type { ChatMessage, ContextLimits, EventPayload } from '../../../shared/events'
import type { Usage } from '../../../shared/usage'
import type { ApiToolSpec, ContextManagement, ModelClient, SystemBlock } from '../model/types'
import { compactConversation, type CompactionHooks } from './compact'
import { estimateFixedTokens, estimateMessagesTokens } from './estimate-tokens'
import { apiContextManagement, LocalToolResultClearing, type ClearingPolicy } from './tool-result-clearing'

/** How a run manages its context (built per agent from the session's settings). */
export interface ContextOptions {
  limits: ContextLimits
  clearing: ClearingPolicy
  /** Recent turns kept as they are when compacting, up to this many tokens. */
  keepTokens: number
  /** Room for a summary (its request's max_tokens). */
  summaryMaxTokens: number
  /** A compaction the person asked for (Compact, /compact), taken before the next request. */
  takeRequest?: () => { instructions?: string } | null
  /** PreCompact/PostCompact hooks. */
  hooks?: CompactionHooks
}

/** What a compaction needs from the run it happens in. */
export interface RunIo {
  emit(payload: EventPayload): void
  signal: AbortSignal
  /** Bills a summary call to the agent. */
  bill(usage: Usage, model: string): void
}

export class ContextControl {
  private known: { tokens: number; messages: number } | null = null
  private readonly calibration = { scale: 1 }
  private readonly fixed: number
  private readonly local: LocalToolResultClearing

  constructor(private readonly o: ContextOptions & { client: ModelClient; model: string; system: string | SystemBlock[]; tools: ApiToolSpec[] }) {
    this.fixed = estimateFixedTokens(o.system, o.tools)
    this.local = new LocalToolResultClearing(o.clearing)
  }

  get limits(): ContextLimits {
    return this.o.limits
  }

  /** The size of the next request for `messages` (tokens). */
  estimate(messages: readonly ChatMessage[]): number {
    const k = this.known
    if (k && k.messages <= messages.length) return k.tokens + Math.ceil(estimateMessagesTokens(messages.slice(k.messages)) * this.calibration.scale)
    return Math.ceil((this.fixed + estimateMessagesTokens(messages)) * this.calibration.scale)
  }

  /** A response arrived: its usage is the true size of the conversation up to and including its reply. */
  observe(messages: readonly ChatMessage[], usage: Usage): void {
    this.known = { tokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens + usage.outputTokens, messages: messages.length }
  }

  /** Before a request: the compacted conversation when it is due (asked for, or past the threshold), else null. */
  async beforeRequest(messages: ChatMessage[], io: RunIo): Promise<ChatMessage[] | null> {
    const asked = this.o.takeRequest?.()
    if (asked) return this.compact(messages, 'manual', io, asked.instructions)
    if (this.o.limits.autoCompact && this.estimate(messages) >= this.o.limits.threshold) return this.compact(messages, 'auto', io)
    return null
  }

  /**
   * The API refused the request as too long (`tokens` it counted, when it said). Learns how far off the
   * estimate was, and compacts; null when auto-compaction is off or the compaction failed.
   */
  async onOverflow(messages: ChatMessage[], tokens: number | undefined, io: RunIo): Promise<ChatMessage[] | null> {
    if (tokens) {
      const estimated = this.fixed + estimateMessagesTokens(this.request(messages).messages)
      this.calibration.scale = Math.max(this.calibration.scale, tokens / Math.max(1, estimated))
      this.known = { tokens, messages: messages.length }
    }
    if (!this.o.limits.autoCompact) return null
    return this.compact(messages, 'overflow', io)
  }

  /** What is sent for `messages`: old tool results cleared here, or the API asked to clear them. */
  request(messages: ChatMessage[]): { messages: ChatMessage[]; contextManagement?: ContextManagement } {
    if (this.o.clearing.mode === 'api') return { messages, contextManagement: apiContextManagement(this.o.clearing) }
    if (this.o.clearing.mode === 'local') return { messages: this.local.view(messages, this.estimate(messages)) }
    return { messages }
  }

  private async compact(messages: ChatMessage[], trigger: 'auto' | 'overflow' | 'manual', io: RunIo, instructions?: string): Promise<ChatMessage[] | null> {
    const next = await compactConversation(messages, {
      trigger,
      tokensBefore: this.estimate(messages),
      keepTokens: this.o.keepTokens,
      fixedTokens: this.fixed,
      emit: io.emit,
      ...(this.o.hooks ? { hooks: this.o.hooks } : {}),
      summarizer: {
        client: this.o.client,
        model: this.o.model,
        system: this.o.system,
        tools: this.o.tools,
        window: this.o.limits.window,
        maxTokens: this.o.summaryMaxTokens,
        ...(instructions ? { instructions } : {}),
        signal: io.signal,
        view: (m) => this.request(m).messages,
        calibration: this.calibration,
        onUsage: io.bill
      }
    })
    if (next) this.known = null
    return next
  }
}
