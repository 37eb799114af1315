// Bounded capture of a command's interleaved stdout+stderr: keeps the head and the tail (errors usually come
// last) and counts what was dropped in between, so a chatty command cannot exhaust memory or the context.
// Given a file, it also saves the whole output there once it outgrows the head and tail, so that what the
// conversation leaves out can still be read.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import { savedOutputNote } from './large-output'
import { errorMessage } from '../../../shared/error-message'

export class OutputCapture {
  private head = ''
  private tail = ''
  private dropped = 0
  private total = 0
  private readonly decoders = new Map<string, StringDecoder>()
  private spool: { fd: number; lines: number } | null = null
  private spoolError: string | null = null

  constructor(
    private readonly headChars = 15_000,
    private readonly tailChars = 15_000,
    /** Where the whole output is saved when it outgrows head and tail. */
    private readonly spoolFile?: string
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
    if (this.spool) closeSync(this.spool.fd)
  }

  /** Saves `text` to the spool file, opening it (with what came before) the first time output is dropped. */
  private save(text: string): void {
    if (!this.spoolFile || this.spoolError) return
    try {
      if (!this.spool) {
        mkdirSync(dirname(this.spoolFile), { recursive: true })
        this.spool = { fd: openSync(this.spoolFile, 'w', 0o600), lines: 0 }
        this.write(this.head + this.tail)
      }
      this.write(text)
    } catch (err) {
      this.spoolError = errorMessage(err)
    }
  }

  private write(text: string): void {
    if (!this.spool || !text) return
    writeSync(this.spool.fd, text)
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.spool.lines++
  }

  private append(text: string): void {
    if (!text) return
    if (this.spool || this.head.length + this.tail.length + text.length > this.headChars + this.tailChars) this.save(text)
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
    const where =
      this.spool && this.spoolFile
        ? ` ${savedOutputNote(this.spoolFile, this.total, this.spool.lines + 1, 'its beginning and its end are shown')}`
        : this.spoolError
          ? ` (the whole output could not be saved: ${this.spoolError})`
          : ''
    return `${this.head}\n\n[… ${this.dropped} characters of output omitted …]${where}\n\n${this.tail}`
  }
}
