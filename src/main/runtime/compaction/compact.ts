// One compaction: cut the conversation, have the model summarise the older part, and put the summary in its
// place. It is announced (compaction_start) and recorded (compaction, with the summary and the whole new
// conversation: the transcript's boundary, from which a resume or a reopen rebuilds the conversation). A
// compaction that fails says why and changes nothing. Until the compaction event is written, nothing has
// changed: a crash half-way leaves the transcript whole, and the next run compacts again.
import type { ChatMessage, CompactionTrigger, EventPayload } from '../../../shared/events'
import { compactedConversation, cutForCompaction } from './compacted-conversation'
import { estimateMessagesTokens } from './estimate-tokens'
import { writeSummary, type SummarizerOptions } from './summarize'
import { errorMessage } from '../../../shared/error-message'

export interface CompactOptions {
  trigger: CompactionTrigger
  /** The conversation's size now (tokens), as the meter shows it. */
  tokensBefore: number
  /** Recent turns kept as they are, up to this many tokens (and a quarter of the conversation). */
  keepTokens: number
  summarizer: SummarizerOptions
  /** Sends an event for the agent (the loop's or the session's emitter). */
  emit(payload: EventPayload): void
  /** Tokens the request outside the conversation takes (system prompt, tools): part of the size after. */
  fixedTokens: number
  /** The session's PreCompact/PostCompact hooks for this agent. */
  hooks?: CompactionHooks
}

/** Claude Code's PreCompact and PostCompact hooks, as a compaction calls them (its triggers are manual and auto). */
export interface CompactionHooks {
  /** Instructions the hooks add, and why they block the compaction (absent: they do not). */
  before(trigger: 'manual' | 'auto', instructions: string | undefined): Promise<{ instructions?: string; blockedBy?: string }>
  after(trigger: 'manual' | 'auto', summary: string): Promise<void>
}

class Blocked extends Error {}

export async function compactConversation(messages: ChatMessage[], o: CompactOptions): Promise<ChatMessage[] | null> {
  const started = Date.now()
  o.emit({ type: 'compaction_start', trigger: o.trigger, tokensBefore: o.tokensBefore })
  try {
    // At most a quarter of what there is: a compaction must shrink the conversation, however early it is asked for.
    const cut = cutForCompaction(messages, Math.min(o.keepTokens, Math.floor(o.tokensBefore / 4)))
    if (!cut.summarize.length) throw new Error('there is nothing to summarise yet')
    const hookTrigger = o.trigger === 'manual' ? 'manual' : 'auto'
    const hooked = (await o.hooks?.before(hookTrigger, o.summarizer.instructions)) ?? {}
    if (hooked.blockedBy && o.trigger !== 'overflow') throw new Blocked(hooked.blockedBy)
    // The API refused the request as too long: it cannot go out uncompacted, whatever a hook says.
    if (hooked.blockedBy)
      o.emit({
        type: 'error',
        message: `A PreCompact hook blocked the compaction (${hooked.blockedBy}); it ran anyway, since the API refuses the conversation as too long.`,
        retrying: false,
        notice: true
      })
    const instructions = [o.summarizer.instructions, hooked.instructions].filter(Boolean).join('\n\n')
    const summary = await writeSummary(cut.summarize, { ...o.summarizer, ...(instructions ? { instructions } : {}) })
    if (o.summarizer.signal?.aborted) throw new Error('stopped')
    const next = compactedConversation(summary, cut)
    const tokensAfter = Math.ceil((o.fixedTokens + estimateMessagesTokens(next)) * o.summarizer.calibration.scale)
    o.emit({
      type: 'compaction',
      trigger: o.trigger,
      tokensBefore: o.tokensBefore,
      summary,
      messages: next,
      summarized: cut.summarize.length,
      tokensAfter,
      durationMs: Date.now() - started
    })
    await o.hooks?.after(hookTrigger, summary).catch(() => undefined)
    return next
  } catch (err) {
    if (err instanceof Blocked) {
      o.emit({
        type: 'compaction',
        trigger: o.trigger,
        tokensBefore: o.tokensBefore,
        error: `Compaction blocked by a PreCompact hook: ${err.message}. The conversation was kept whole.`,
        durationMs: Date.now() - started
      })
      return null
    }
    const why = o.summarizer.signal?.aborted ? 'the agent was stopped while its conversation was being summarised' : errorMessage(err)
    o.emit({
      type: 'compaction',
      trigger: o.trigger,
      tokensBefore: o.tokensBefore,
      error: `Compaction failed: ${why}. The conversation was kept whole.`,
      durationMs: Date.now() - started
    })
    return null
  }
}
