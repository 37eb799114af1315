// What of an agent's transcript is searchable, as documents: its prompts, what it wrote and thought, each
// tool call's input and output, messages it received, errors and its report. Pure: fed one transcript
// line after another (one agent per file), it says which documents each line makes.
//
// Streamed deltas are not documents of their own: the assistant message that ends a stream repeats them
// in full. Only a stream that ends without one (a reply cut off by a failure, a stop or a crash) keeps its
// deltas, so they are held until the stream's end says which (store/transcript/format.ts streamEnd). Lines of
// unknown types (a newer Fanout's) make no document and are otherwise harmless.
import { contentBlocks, type AgentEvent } from '../../../shared/events'
import type { RecordedEvent } from '../store/transcript/migrations'
import { continuesTask } from '../../../shared/run-opening'
import { humanNote } from '../../../shared/view/fanout-note'
import { parseInbox, reportBody } from '../../../shared/view/inbox-message'
import { withoutModelMarkup } from '../../../shared/view/model-markup'
import { streamEnd } from '../store/transcript/format'

export type DocKind = 'prompt' | 'text' | 'thinking' | 'tool_input' | 'tool_output' | 'message' | 'error' | 'report'

export interface SearchDoc {
  kind: DocKind
  body: string
  agentId: string
  seq: number
  ts: number
  toolUseId?: string
  toolName?: string
  /** The agent's turn (of its current run) the document is from; absent before its first turn. */
  turn?: number
}

/** Longer texts are cut: a tool output of megabytes is still found by its first 256 KB. */
export const MAX_BODY = 256 * 1024

const REMINDER = /^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/

/** A delivered message as a person reads it (the envelope's words, a note of Fanout's as its short line). */
function inboxText(text: string, from: string): string {
  const m = parseInbox(text, from)
  return m.type === 'note' ? humanNote(m.text) : m.text
}

/** A document's text: cut to MAX_BODY, without Fanout's model-facing tags (snippets are made of it). */
const bodyOf = (text: string): string => withoutModelMarkup(text.length > MAX_BODY ? text.slice(0, MAX_BODY) : text)

/** Tool input as a person reads it: `command: npm test`, one field a line, long values whole. */
export function inputText(input: unknown): string {
  if (input === null || input === undefined) return ''
  if (typeof input !== 'object') return String(input)
  const lines: string[] = []
  for (const [k, v] of Object.entries(input as Record<string, unknown>)) lines.push(`${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
  return lines.join('\n')
}

interface Held {
  kind: 'text' | 'thinking'
  text: string
  seq: number
  ts: number
  turn: number
}

/** One agent's transcript, line by line. `held()` says whether deltas wait for their stream's end. */
export class DocExtractor {
  private heldDeltas: Held[] = []
  /** Texts this run's prompt already made a document of (its first user message repeats it). */
  private runPrompt: string | null = null
  /** The turn the agent is in (turn_start), 0 before its run's first. */
  private turn = 0

  get holding(): boolean {
    return this.heldDeltas.length > 0
  }

  /** What carries over to the next line besides held deltas (kept with the index, see session-index.ts). */
  get state(): string | null {
    return this.runPrompt === null && !this.turn ? null : JSON.stringify({ prompt: this.runPrompt, turn: this.turn })
  }

  set state(value: string | null) {
    const saved = value ? (JSON.parse(value) as { prompt?: string | null; turn?: number }) : {}
    this.runPrompt = saved.prompt ?? null
    this.turn = saved.turn ?? 0
  }

  line(e: RecordedEvent): SearchDoc[] {
    const out: SearchDoc[] = []
    const doc = (kind: DocKind, body: string, extra: Partial<SearchDoc> = {}) => {
      const text = bodyOf(body.trim())
      if (text) out.push({ kind, body: text, agentId: e.agentId, seq: e.seq, ts: e.ts, ...(this.turn ? { turn: this.turn } : {}), ...extra })
    }
    if (e.type === 'text_delta' || e.type === 'thinking_delta') {
      const kind = e.type === 'text_delta' ? 'text' : 'thinking'
      const last = this.heldDeltas[this.heldDeltas.length - 1]
      if (last && last.kind === kind) last.text += e.text
      else this.heldDeltas.push({ kind, text: e.text, seq: e.seq, ts: e.ts, turn: this.turn })
      return out
    }
    const end = streamEnd(e)
    if (end) {
      if (end === 'kept') for (const h of this.heldDeltas) out.push(...this.heldDoc(e, h))
      this.heldDeltas = []
    }
    switch (e.type) {
      case 'turn_start':
        this.turn = e.turn
        break
      case 'agent_start':
        this.turn = 0
        // A run a delivery opened (a report, a message) is found through that message, and one Fanout's note
        // after a restart opened is the same task going on: neither is a prompt of its own.
        this.runPrompt = continuesTask(e.prompt) ? null : e.prompt.trim()
        if (this.runPrompt) doc('prompt', `${e.description}\n${e.prompt}`)
        break
      case 'message':
        for (const b of contentBlocks(e.message)) {
          if (b.type === 'text') {
            if (e.message.role === 'assistant') doc('text', b.text)
            else if (!REMINDER.test(b.text) && b.text.trim() !== this.runPrompt && !continuesTask(b.text)) doc('prompt', b.text)
          } else if (b.type === 'thinking' && e.message.role === 'assistant') doc('thinking', b.thinking)
        }
        if (e.message.role === 'user') this.runPrompt = null
        break
      case 'tool_run':
        doc('tool_input', `${e.name}\n${inputText(e.input)}`, { toolUseId: e.toolUseId, toolName: e.name })
        break
      case 'tool_end':
        // An Agent call's output is the subagent's report and lines for the model (its id, how to continue it): its words only.
        doc('tool_output', e.name === 'Agent' ? reportBody(e.output) : e.output, { toolUseId: e.toolUseId, toolName: e.name })
        break
      case 'message_received':
        doc('message', inboxText(e.text, e.from))
        break
      case 'error':
        if (!e.retrying) doc('error', e.message)
        break
      case 'agent_end':
        doc('report', e.result)
        if (e.error) doc('error', e.error)
        break
    }
    return out
  }

  private heldDoc(e: AgentEvent, h: Held): SearchDoc[] {
    const text = bodyOf(h.text.trim())
    if (!text) return []
    return [{ kind: h.kind, body: text, agentId: e.agentId, seq: h.seq, ts: h.ts, ...(h.turn ? { turn: h.turn } : {}) }]
  }
}
