// Redaction of an event stream. A streamed reply arrives in small deltas, so a key can be cut in two
// between them, and neither half looks like a key: each delta stream holds back its unfinished last word
// (and a credential name whose value may still be coming) until the next delta or the next event of the
// agent completes it. Nothing is lost: held text is sent, redacted, before the agent's next other event
// (its `message`, `tool_start`, `turn_end` or `agent_end` always follows). Every other event is redacted
// whole. Pure: the session's event bus uses it, so transcripts, pumps and the CLI see the same text.
import type { AgentEvent } from './events'
import { markRedacted, redactionGeneration, redactText, redactValue } from './redact'

type DeltaEvent = Extract<AgentEvent, { type: 'text_delta' | 'thinking_delta' | 'tool_input_delta' }>

/** Longest tail held back: a key is about 110 characters; a longer run of word characters is sent. */
const HOLD_MAX = 512

// A credential's name (header or environment variable) whose value may follow in the next delta.
const NAME =
  /x-api-key|api-key|x-auth-token|x-goog-api-key|(?:proxy-)?authorization|\b[A-Za-z][A-Za-z0-9_]*?(?:API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH_?TOKEN|ACCESS_?TOKEN|_TOKEN|_SECRET|SECRET_?KEY|PASSWORD)/gi
const OPEN_VALUE = /^["']?\s*[:=]?\s*["']?(?:(?:bearer|basic|token)\b\s*)?[^\s"',;]*$/i

const isDelta = (e: AgentEvent): e is DeltaEvent => e.type === 'text_delta' || e.type === 'thinking_delta' || e.type === 'tool_input_delta'
const textOf = (e: DeltaEvent): string => (e.type === 'tool_input_delta' ? e.partialJson : e.text)
const withText = (e: DeltaEvent, text: string): DeltaEvent => (e.type === 'tool_input_delta' ? { ...e, partialJson: text } : { ...e, text })
const streamKey = (e: DeltaEvent): string => `${e.agentId}\u0000${e.type}\u0000${e.type === 'tool_input_delta' ? e.toolUseId : ''}`

/** Where the text can be cut: everything before it is final, the rest may still become a secret. */
export function safeCut(text: string): number {
  const floor = Math.max(0, text.length - HOLD_MAX)
  let cut = text.length
  // The last word, unless whitespace ended it.
  let i = text.length - 1
  while (i >= floor && !/\s/.test(text[i])) i--
  if (i < text.length - 1) cut = Math.max(floor, i + 1)
  // A credential name on the last line whose value is still open.
  const lineStart = Math.max(floor, text.lastIndexOf('\n') + 1)
  const line = text.slice(lineStart)
  NAME.lastIndex = 0
  for (let m = NAME.exec(line); m; m = NAME.exec(line)) {
    if (OPEN_VALUE.test(line.slice(m.index + m[0].length))) {
      cut = Math.min(cut, lineStart + m.index)
      break
    }
  }
  return cut
}

type Sink = (event: AgentEvent) => void

interface Held {
  event: DeltaEvent
  text: string
}

export class EventRedactor {
  private readonly held = new Map<string, Held>()
  /**
   * Per delta stream, the redaction generation at which the rest of its delta events (ids, type, time: the
   * same in every delta of a stream) was found clean: then only each delta's text is read, and the event is
   * marked redacted whole, so no exit (the WebSocket, Electron IPC) walks it again.
   */
  private readonly restClean = new Map<string, number>()

  /** What to emit for `event`, in order: held text of the agent's other streams, then the event (redacted). */
  take(event: AgentEvent): AgentEvent[] {
    const out: AgentEvent[] = []
    this.each(event, (e) => out.push(e))
    return out
  }

  /** take(), handing each event to `sink` as it comes: no array per event on the stream's hot path. */
  each(event: AgentEvent, sink: Sink): void {
    if (!isDelta(event)) {
      this.flushAgent(event.agentId, sink)
      if (event.type === 'agent_end') this.forget(event.agentId)
      sink(redactValue(event))
      return
    }
    const key = streamKey(event)
    this.flushAgent(event.agentId, sink, key)
    const h = this.held.get(key)
    const text = h ? h.text + textOf(event) : textOf(event)
    const cut = safeCut(text)
    if (cut < text.length) {
      if (h) {
        h.event = event
        h.text = text.slice(cut)
      } else this.held.set(key, { event, text: text.slice(cut) })
    } else if (h) this.held.delete(key)
    if (cut > 0) sink(this.redacted(key, event, cut === text.length ? text : text.slice(0, cut)))
  }

  /** Everything still held (a session closing). */
  flush(): AgentEvent[] {
    const out = [...this.held.entries()].map(([key, h]) => this.redacted(key, h.event, h.text))
    this.held.clear()
    this.restClean.clear()
    return out
  }

  /** The delta with `text`, redacted: its text always; the rest once per stream and generation. */
  private redacted(key: string, event: DeltaEvent, text: string): AgentEvent {
    const at = redactionGeneration()
    if (this.restClean.get(key) !== at) {
      const bare = withText(event, '')
      // Something besides the text holds a secret: this delta is walked whole (and the next one checked again).
      if (redactValue(bare) !== bare) return redactValue(withText(event, text))
      this.restClean.set(key, at)
    }
    return markRedacted(withText(event, redactText(text)), at)
  }

  private flushAgent(agentId: string, sink: Sink, except?: string): void {
    if (!this.held.size) return
    for (const [key, h] of this.held) {
      if (key === except || h.event.agentId !== agentId) continue
      this.held.delete(key)
      sink(this.redacted(key, h.event, h.text))
    }
  }

  /** An agent's run ended: its streams' notes go (a resumed run starts new ones). */
  private forget(agentId: string): void {
    const prefix = `${agentId}\u0000`
    for (const key of this.restClean.keys()) if (key.startsWith(prefix)) this.restClean.delete(key)
  }
}
