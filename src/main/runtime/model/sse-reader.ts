// Server-sent events off a byte stream, read line by line exactly as the SDK reads them (core/streaming's
// _iterSSEMessages): lines end at \n, \r\n or \r (a \r at a chunk's end waits for the next chunk), a byte-order
// mark at a line's start is dropped, a line starting with ':' is a comment, only the `event` and `data` fields
// count, one space after the colon is dropped, data lines join with \n, and a blank line ends an event that has
// either. Synchronous: a chunk's events come back at once, not one promise each.

export interface ServerSentEvent {
  event: string | null
  data: string
}

// Only for a chunk given as a string (a body that yields text): one for every reader.
const encoder = new TextEncoder()

export class SseReader {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  private text = ''
  private endsWithCR = false
  private event: string | null = null
  private data: string[] = []

  /** The events that end in this chunk. */
  push(chunk: Uint8Array | string): ServerSentEvent[] {
    const out: ServerSentEvent[] = []
    const decoded = this.decoder.decode(typeof chunk === 'string' ? encoder.encode(chunk) : chunk, { stream: true })
    this.text += decoded
    // Searching the pending text again copies the whole pending line: wait for a chunk with a line ending.
    if (!this.endsWithCR && !decoded.includes('\n') && !decoded.includes('\r')) return out
    const text = this.text
    let start = 0
    if (!text.includes('\r')) {
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        this.take(text.slice(start, end), out)
        start = end + 1
      }
    } else {
      for (let i = 0; i < text.length; i++) {
        const char = text[i]
        if (char !== '\n' && char !== '\r') continue
        if (char === '\r' && i + 1 === text.length) break
        this.take(text.slice(start, i), out)
        if (char === '\r' && text[i + 1] === '\n') i++
        start = i + 1
      }
    }
    this.text = text.slice(start)
    this.endsWithCR = this.text.endsWith('\r')
    return out
  }

  /** The events that end with the stream's last bytes (an event is only whole at a blank line). */
  end(): ServerSentEvent[] {
    const out: ServerSentEvent[] = []
    const text = this.text + this.decoder.decode()
    this.text = ''
    if (text) for (const line of text.replace(/\r$/, '').split(/\r\n|[\n\r]/)) this.take(line, out)
    return out
  }

  private take(line: string, out: ServerSentEvent[]): void {
    if (line.charCodeAt(0) === 0xfeff) line = line.slice(1)
    if (!line) {
      if (!this.event && !this.data.length) return
      out.push({ event: this.event, data: this.data.join('\n') })
      this.event = null
      this.data = []
      return
    }
    const colon = line.indexOf(':')
    if (colon === 0) return
    const field = colon === -1 ? line : line.slice(0, colon)
    if (field !== 'event' && field !== 'data') return
    const value = colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1)
    if (field === 'event') this.event = value
    else this.data.push(value)
  }
}
