// An agent's conversation rebuilt from its transcript's `message` events, so it can be resumed with its
// full history — and repaired so the Messages API accepts it.
//
// The API rejects a conversation where an assistant `tool_use` is not answered by a `tool_result` in the
// very next user message. A transcript that ends mid-turn (crash, stop) has exactly that. We ADD a
// synthetic error result for each unanswered call rather than dropping the tool_use: dropping would
// rewrite what the model said (and can invalidate a signed thinking block in the same message), while an
// error result is valid input that tells the model plainly that the call never finished, so it can
// decide to retry. This is also what Claude Code does for interrupted tool calls.
import type { AgentEvent, ChatMessage, ContentBlock } from '../../../shared/events'
import { blocksOf, withUserTurn } from '../loop/conversation'

export const INTERRUPTED_TOOL_RESULT =
  'This tool call did not finish: the agent was interrupted (stopped or the app exited) before it returned a result. Run it again if it is still needed.'

export interface RebuildOptions {
  /** Called once per repair, with a sentence saying what was changed and where. */
  onRepair?: (note: string) => void
  /**
   * The result for a call that was cut off (what is known about it: it never ran, it may have partly run,
   * its message was delivered...); undefined for the generic INTERRUPTED_TOOL_RESULT.
   */
  interruptedResult?: (call: { id: string; name: string }) => { content: string; isError: boolean } | undefined
}

/**
 * The agent's conversation folded from its events: `message` appends, a compaction starts over from its result.
 * `reply_blocks` gather the head of a reply whose calls started while it streamed: its complete `message`
 * replaces them, and a transcript that ends before that message (a crash) keeps the head as the reply.
 */
export function foldConversation(events: readonly AgentEvent[]): ChatMessage[] {
  let messages: ChatMessage[] = []
  let head: ContentBlock[] | null = null
  for (const e of events) {
    if (e.type === 'reply_blocks') (head ??= []).push(...e.blocks)
    else if (e.type === 'message') {
      // The reply itself supersedes its head; anything else after a head (never written so today) keeps it first.
      if (head && e.message.role !== 'assistant') messages.push({ role: 'assistant', content: head })
      head = null
      messages.push(e.message)
    } else if (e.type === 'compaction' && e.messages) {
      head = null
      messages = [...e.messages]
    }
  }
  if (head?.length) messages.push({ role: 'assistant', content: head })
  return messages
}

/**
 * The agent's messages in order, repaired for the Messages API. Messages before the last compaction stay in
 * the transcript (for people) but not in the conversation: the compaction's summary stands for them.
 */
export function rebuildConversation(events: readonly AgentEvent[], opts: RebuildOptions = {}): ChatMessage[] {
  const messages = foldConversation(events)
  const { messages: repaired, repairs } = repairConversation(messages, opts.interruptedResult ? { interruptedResult: opts.interruptedResult } : {})
  if (opts.onRepair) for (const r of repairs) opts.onRepair(r)
  return repaired
}

type Block = ContentBlock

/**
 * Makes a message list valid for the Messages API: every tool_use answered in the next user message
 * (tool_result blocks first, in call order), orphan or duplicate tool_results dropped, empty messages
 * dropped. Messages that need no change are returned as the same objects.
 */
export function repairConversation(
  input: readonly ChatMessage[],
  opts: Pick<RebuildOptions, 'interruptedResult'> = {}
): { messages: ChatMessage[]; repairs: string[] } {
  const out: ChatMessage[] = []
  const repairs: string[] = []
  let pending: string[] = [] // tool_use ids of the last assistant message, awaiting results
  const names = new Map<string, string>()
  const syntheticResult = (id: string): Block => {
    const known = opts.interruptedResult?.({ id, name: names.get(id) ?? '' })
    return { type: 'tool_result', tool_use_id: id, content: known?.content ?? INTERRUPTED_TOOL_RESULT, ...(known && !known.isError ? {} : { is_error: true }) }
  }
  const answerPending = (at: number) => {
    if (!pending.length) return
    repairs.push(`message ${at}: added interrupted results for unanswered tool calls ${pending.join(', ')}`)
    out.push({ role: 'user', content: pending.map(syntheticResult) })
    pending = []
  }

  input.forEach((msg, i) => {
    const blocks = blocksOf(msg.content)
    if (msg.role === 'assistant') {
      answerPending(i)
      // A call id seen before is a message written twice (a write that failed and was retried by an older
      // version): sending it again is a request the API rejects, so the copy goes.
      const repeated = blocks.filter((b) => b.type === 'tool_use' && names.has(b.id))
      if (repeated.length) {
        repairs.push(
          `message ${i}: dropped a repeated assistant message (tool calls ${repeated.map((b) => (b as { id: string }).id).join(', ')} were made before)`
        )
        return
      }
      if (!blocks.length) {
        repairs.push(`message ${i}: dropped an empty assistant message`)
        return
      }
      out.push(msg)
      const calls = blocks.filter((b): b is Extract<Block, { type: 'tool_use' }> => b.type === 'tool_use')
      for (const c of calls) names.set(c.id, c.name)
      pending = calls.map((b) => b.id)
      return
    }
    const expected = new Set(pending)
    const results = new Map<string, Block>()
    const rest: Block[] = []
    for (const b of blocks) {
      if (b.type !== 'tool_result') {
        rest.push(b)
        continue
      }
      if (!expected.has(b.tool_use_id) || results.has(b.tool_use_id)) {
        repairs.push(`message ${i}: dropped a tool_result for ${b.tool_use_id}, which no preceding tool call asked for`)
        continue
      }
      results.set(b.tool_use_id, b)
    }
    const missing = pending.filter((id) => !results.has(id))
    if (missing.length) repairs.push(`message ${i}: added interrupted results for unanswered tool calls ${missing.join(', ')}`)
    // The API wants tool results first, in the order the calls were made, then any other content.
    const content = [...pending.map((id) => results.get(id) ?? syntheticResult(id)), ...rest]
    pending = []
    if (!content.length) {
      repairs.push(`message ${i}: dropped an empty user message`)
      return
    }
    const changed = content.length !== blocks.length || content.some((b, k) => b !== blocks[k])
    // A user message right after another (a run opened on a history whose last message the model never
    // answered: interrupted results, a failed request) is one turn, as the API itself takes it and as the run
    // sent it (loop/run-state.ts, append): merged, so every rebuild sends what was sent.
    const prev = out[out.length - 1]
    if (prev?.role === 'user') out.splice(-1, 1, ...withUserTurn([prev], content))
    else out.push(changed ? { role: 'user', content } : msg)
  })
  answerPending(input.length)
  return { messages: out, repairs }
}

/** What repairedHistory keeps for one conversation array: the repair, and what the array held when it was made. */
interface Repaired {
  length: number
  last: ChatMessage | undefined
  messages: ChatMessage[]
}
const repairs = new WeakMap<readonly ChatMessage[], Repaired>()

/**
 * repairConversation(messages).messages, made once per state of the array: an agent's conversation (its
 * handle's, appended to in place) is repaired when it changed, not again at every run and compaction. An append
 * changes its length and last message, which invalidates the repair; a compaction replaces the array. A new
 * array is returned each time, for the caller to extend.
 */
export function repairedHistory(messages: readonly ChatMessage[]): ChatMessage[] {
  const last = messages[messages.length - 1]
  let kept = repairs.get(messages)
  if (!kept || kept.length !== messages.length || kept.last !== last) {
    kept = { length: messages.length, last, messages: repairConversation(messages).messages }
    repairs.set(messages, kept)
  }
  return kept.messages.slice()
}

/**
 * Adds a user turn with `text` (a resume prompt, a SendMessage): merged into a trailing user message
 * (e.g. synthetic tool results) after its blocks, so the conversation keeps alternating roles.
 */
export function appendUserText(messages: readonly ChatMessage[], text: string): ChatMessage[] {
  return withUserTurn(messages, text)
}
