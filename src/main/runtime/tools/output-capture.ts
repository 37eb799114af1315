// Bounded capture of a command's interleaved stdout+stderr: keeps the head and the tail (errors usually come
// last) and counts what was dropped in between, so a chatty command cannot exhaust memory or the context.
import { StringDecoder } from 'node:string_decoder'

export class OutputCapture {
  private head = ''
  private tail = ''
  private dropped = 0
  private total = 0
  private readonly decoders = new Map<string, StringDecoder>()

  constructor(
    private readonly headChars = 15_000,
    private readonly tailChars = 15_000
  ) {}

  /** Appends a chunk from a named stream (UTF-8 split across chunks is decoded correctly per stream). */
  push(stream: string, chunk: Buffer): string {
    let decoder = this.decoders.get(stream)
    if (!decoder) this.decoders.set(stream, (decoder = new StringDecoder('utf8')))
    const text = decoder.write(chunk)
    this.append(text)
    return text
  }

  flush(): void {
    for (const d of this.decoders.values()) this.append(d.end())
  }

  private append(text: string): void {
    if (!text) return
    this.total += text.length
    const room = this.headChars - this.head.length
    if (room > 0) {
      this.head += text.slice(0, room)
      text = text.slice(room)
    }
    if (!text) return
    this.tail += text
    if (this.tail.length > this.tailChars) {
      this.dropped += this.tail.length - this.tailChars
      this.tail = this.tail.slice(this.tail.length - this.tailChars)
    }
  }

  get totalChars(): number {
    return this.total
  }

  get truncated(): boolean {
    return this.dropped > 0
  }

  /** The last `n` characters seen, for live progress. */
  recent(n: number): string {
    const all = this.head + this.tail
    return all.slice(Math.max(0, all.length - n))
  }

  text(): string {
    if (!this.dropped) return this.head + this.tail
    return `${this.head}\n\n[… ${this.dropped} characters of output omitted …]\n\n${this.tail}`
  }
}
