// A batched, ordered JSONL appender for one file. `append` is synchronous and cheap (the hot path of
// every agent event): values queue in memory and one fs write per batch carries them all, after a short
// delay. Writes never overlap, so lines land in append order. The fd stays open between batches and can
// be released (agents that finished) so a session with hundreds of agents does not hold hundreds of fds.
import { openSync, writeSync } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { mkdir, open, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'
import { errorMessage } from '../../../shared/error-message'
import { FdFile, type AppendFile } from './fd-file'
import { batchTick } from './batch-tick'

export interface JsonlWriterOptions<T> {
  /** How long values wait to be written with later ones. Default 16 ms. */
  flushDelayMs?: number
  /** Written as the first line when the file is created (or found empty). */
  header?: () => unknown
  /** Folds `next` into the still-unwritten `prev` when they can be one line; returns the merged value or null. */
  merge?: (prev: T, next: T) => T | null
  /** Awaited before the file is first opened (e.g. the recorder creating its data folder). */
  beforeOpen?: () => Promise<void>
  /**
   * Whether `prepare` may create the file at once, on the calling thread (beforeOpen has nothing left to wait
   * for). Default: never; the file is opened through the thread pool.
   */
  openNow?: () => boolean
  /** A write failed (the batch is kept and retried on the next append or flush); once per outage. Default: console.error. */
  onError?: (err: Error) => void
  /** A write succeeded after `onError` reported an outage: the file is whole again and writing goes on. */
  onRecover?: () => void
  /** While a write keeps failing (a full disk), how often it is tried again without waiting for an append. Default 1 s. */
  retryDelayMs?: number
}

export const DEFAULT_FLUSH_DELAY_MS = 16

/**
 * A batch up to this size is written on the calling thread. A model request, a spawn and a tool that changes
 * anything each wait for their agent's lines to be on disk (flush); through the thread pool, that wait was two
 * wake-ups between threads, 0.3-1.5 ms on an idle two-core machine, for a write of a few kilobytes into the page
 * cache that takes 10-30 µs here. A larger batch (a big tool result) still goes through the pool.
 */
const WRITE_HERE_UP_TO = 64 * 1024

type Opened = { handle: AppendFile; prefix: string; header: boolean }

/** Writes all of `buf` at the end of the file (opened for appending), on the calling thread. */
function appendHere(handle: AppendFile, buf: Buffer): void {
  for (let at = 0; at < buf.length; ) at += writeSync(handle.fd, buf, at, buf.length - at)
}

export class JsonlWriter<T = unknown> {
  private pending: T[] = []
  /** Serialized text of a batch whose write failed; written before anything newer. */
  private unwritten = ''
  /** `unwritten` begins with the header: a file opened again (after release) must not get another. */
  private headerUnwritten = false
  /** Waiting for its delay's tick (batchTick). */
  private scheduled = false
  private writing: Promise<void> | null = null
  private handle: AppendFile | null = null
  /** Values appended so far, and how many of them are on disk: a flush waits for those before it, not after. */
  private appended = 0
  private written = 0
  /** An open started ahead of the first write (prepare). */
  private opening: Promise<Opened> | null = null
  /** This writer created the file (it was not there before). */
  private createdHere = false
  private closed = false
  private lastError: Error | null = null
  /** A failure was reported and no write has succeeded since: repeats are not reported again. */
  private failing = false
  /**
   * The file's length up to the end of its last complete line that this writer knows of (null before it has
   * opened the file). A write that fails part way (ENOSPC, EIO) can leave some of its bytes: the file is cut
   * back to this length before the next write, so no line is torn or written twice.
   */
  private committed: number | null = null
  /** A write failed since the file was last known whole. */
  private dirty = false
  private retryTimer: ReturnType<typeof setTimeout> | null = null
  private readonly delay: number

  constructor(
    readonly file: string,
    private readonly opts: JsonlWriterOptions<T> = {}
  ) {
    this.delay = opts.flushDelayMs ?? DEFAULT_FLUSH_DELAY_MS
  }

  /**
   * The file's length as this writer left it (every line it wrote included), once it has opened the file and
   * while nothing it wrote failed part way; null when it does not know.
   */
  get writtenLength(): number | null {
    return this.dirty || this.writing || this.pending.length || this.unwritten ? null : this.committed
  }

  /**
   * Starts opening the file now (a new agent's transcript, whose first lines a model request will wait for), so
   * that the first write finds it open. A failed open here is tried again, and reported, by that write.
   */
  prepare(): void {
    if (this.handle || this.opening || this.closed) return
    const made = this.opts.openNow?.() ? this.createHere() : null
    const opening = made ? Promise.resolve(made) : this.openFile()
    this.opening = opening
    opening.catch(() => {
      if (this.opening === opening) this.opening = null
    })
  }

  get pendingCount(): number {
    return this.pending.length
  }

  /**
   * Queues `value`; returns the line it will be written as: `value` itself, or the merged value that now
   * stands in for the previous unwritten line (see `merge`).
   */
  append(value: T): T {
    if (this.closed) throw new Error(`Cannot append to ${this.file}: the writer is closed.`)
    const last = this.pending.length ? this.pending[this.pending.length - 1] : undefined
    const merged = last !== undefined && this.opts.merge ? this.opts.merge(last, value) : null
    if (merged !== null) this.pending[this.pending.length - 1] = merged
    else this.pending.push(value)
    this.appended++
    this.schedule()
    return merged ?? value
  }

  /** Resolves when everything appended so far is written; rejects with the write error if it could not be. */
  async flush(): Promise<void> {
    // Values appended while it waits are not its to wait for (they have their own timer, or their own flush).
    const target = this.appended
    this.cancelTimer()
    while (this.written < target || this.unwritten) {
      if (!this.writing) this.startDrain()
      await this.writing
      if (this.lastError) {
        const err = this.lastError
        this.lastError = null
        throw err
      }
    }
  }

  /** Flushes and closes the fd; a later append opens the file again. */
  async release(): Promise<void> {
    try {
      await this.flush()
    } finally {
      // An open started ahead and never written to: its file is let go too (a later write opens it again).
      const early = this.opening
      this.opening = null
      if (early) await early.catch(() => undefined)
      const h = this.handle
      this.handle = null
      await h?.close().catch(() => {})
    }
  }

  /** Flushes and closes for good. */
  async close(): Promise<void> {
    this.closed = true
    this.cancelRetry()
    await this.release()
  }

  /** Whether nothing was ever appended here (a file opened ahead for an agent that never started). */
  get unused(): boolean {
    return this.appended === 0
  }

  /**
   * Closes a writer nothing was appended to, and removes the empty file it created ahead (prepare): an agent that
   * never started leaves no transcript. A file it found there is left as it was.
   */
  async discard(): Promise<void> {
    await this.close()
    if (this.createdHere && this.unused) await unlink(this.file).catch(() => undefined)
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return // a running drain picks up new values itself
    this.scheduled = true
    batchTick(this.delay).add(this.onTick)
  }

  /** While failing: tried again now and then, so writing goes on when space returns even if nothing new comes. */
  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      if (!this.writing && (this.pending.length || this.unwritten)) this.startDrain()
    }, this.opts.retryDelayMs ?? 1000)
    // A process that is done otherwise is not kept alive by a disk that stays full.
    this.retryTimer.unref?.()
  }

  private cancelRetry(): void {
    if (!this.retryTimer) return
    clearTimeout(this.retryTimer)
    this.retryTimer = null
  }

  private cancelTimer(): void {
    if (!this.scheduled) return
    this.scheduled = false
    batchTick(this.delay).delete(this.onTick)
  }

  private readonly onTick = (): void => {
    this.scheduled = false
    if (!this.writing) this.startDrain()
  }

  private startDrain(): void {
    this.writing = this.drain().finally(() => {
      this.writing = null
      // Appended as this drain ended: they get their timer (a flush may have taken the last one).
      if (this.pending.length && !this.lastError) this.schedule()
    })
  }

  private async drain(): Promise<void> {
    this.lastError = null
    while (this.pending.length || this.unwritten) {
      const batch = this.pending
      const upTo = this.appended
      this.pending = []
      let text = this.unwritten + this.serialize(batch)
      this.unwritten = ''
      let withHeader = this.headerUnwritten
      try {
        // Not awaited when the file is open: the write goes out in this turn of the loop, behind nothing else.
        const opened = this.opened()
        const { handle, prefix, header } = opened instanceof Promise ? await opened : opened
        text = prefix + text // a failed write keeps the header (or line end) for the retry
        withHeader ||= header
        if (this.dirty && this.committed !== null) {
          // What a failed write left (part of a batch that is written again whole below) goes first.
          await handle.truncate(this.committed)
          this.dirty = false
        }
        if (text) {
          this.dirty = true
          const buf = Buffer.from(text, 'utf8')
          if (buf.length <= WRITE_HERE_UP_TO) appendHere(handle, buf)
          else await handle.appendFile(buf)
          this.dirty = false
          if (this.committed !== null) this.committed += buf.length
        }
        this.headerUnwritten = false
        this.written = upTo
        if (this.failing) {
          this.failing = false
          this.cancelRetry()
          this.opts.onRecover?.()
        }
      } catch (err) {
        // Cut back at once what the failed write left (shrinking needs no space): the file on disk holds
        // whole lines only, also while the disk stays full and if the process is killed meanwhile.
        if (this.dirty && this.handle && this.committed !== null) {
          const h = this.handle
          await h.truncate(this.committed).then(
            () => (this.dirty = false),
            () => undefined
          )
        }
        this.unwritten = text
        this.headerUnwritten = withHeader
        this.lastError = new Error(`Could not write ${this.file}: ${errorMessage(err)}`, { cause: err })
        // Reported once per outage, not once per batch (a full disk would otherwise log 60 times a second).
        if (!this.failing) (this.opts.onError ?? ((e) => console.error(e.message)))(this.lastError)
        this.failing = true
        this.scheduleRetry()
        return
      }
    }
  }

  private serialize(batch: T[]): string {
    let out = ''
    for (const value of batch) {
      try {
        out += JSON.stringify(value) + '\n'
      } catch (err) {
        // One unserializable value (a cycle, a BigInt) must not cost the rest of the batch.
        const e = new Error(`Dropped a value that cannot be written to ${this.file} as JSON: ${errorMessage(err)}`)
        ;(this.opts.onError ?? ((x) => console.error(x.message)))(e)
      }
    }
    return out
  }

  /**
   * Creates the file now, on the calling thread (a new agent's transcript: tens of microseconds, where an open
   * through the thread pool waits for the calling thread to come back to the event loop, behind whatever else
   * it runs then). Null when it is there already or cannot be made: the open through the pool deals with that.
   */
  private createHere(): Opened | null {
    let fd: number
    try {
      fd = openSync(this.file, 'ax')
    } catch {
      return null
    }
    return this.adoptCreated(new FdFile(fd))
  }

  /** A file this writer just created: empty, so its first write begins with the header. */
  private adoptCreated(handle: AppendFile): Opened {
    const prefix = this.headerLine()
    this.committed = 0
    this.createdHere = true
    this.handle = handle
    return { handle, prefix, header: prefix !== '' }
  }

  /** The open file, and what its first write must begin with (a header, or the end of a torn line). */
  private opened(): Opened | Promise<Opened> {
    const early = this.opening
    if (early) {
      this.opening = null
      return early
    }
    return this.handle ? { handle: this.handle, prefix: '', header: false } : this.openFile()
  }

  /**
   * Opens the file for appending. A new file (the usual case: one per agent) is created exclusively, and
   * its header goes out with the first batch, in one write; an existing one is checked for a torn last line.
   * The folder is created only when the open says it is missing.
   */
  private async openFile(): Promise<Opened> {
    await this.opts.beforeOpen?.()
    const created = await this.tryOpen('ax')
    if (created) return this.adoptCreated(created)
    const handle = (await this.tryOpen('a+'))!
    let prefix = ''
    try {
      let { size } = await handle.stat()
      // Opened again after a failed write of ours (released meanwhile): what that write left goes.
      if (this.dirty && this.committed !== null && size > this.committed) {
        await handle.truncate(this.committed)
        size = this.committed
      }
      this.dirty = false
      this.committed = size
      if (size === 0) {
        prefix = this.headerLine()
      } else {
        // A crash can leave a torn last line; end it so our first line is not glued onto it.
        // The torn fragment stays (nothing is ever deleted) and readers skip it with a note.
        const last = Buffer.alloc(1)
        await handle.read(last, 0, 1, size - 1)
        if (last[0] !== 0x0a) prefix = '\n'
      }
    } catch (err) {
      await handle.close().catch(() => {})
      throw err
    }
    this.handle = handle
    return { handle, prefix, header: prefix !== '' && prefix !== '\n' }
  }

  /** The header line a new (or empty) file begins with; none while one waits in `unwritten` (its write failed). */
  private headerLine(): string {
    return this.opts.header && !this.headerUnwritten ? JSON.stringify(this.opts.header()) + '\n' : ''
  }

  /** Opens with `flags`; null when 'ax' finds the file already there. */
  private async tryOpen(flags: 'ax' | 'a+'): Promise<FileHandle | null> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await open(this.file, flags)
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code === 'EEXIST' && flags === 'ax') return null
        if (code !== 'ENOENT' || attempt > 0) throw err
        await mkdir(dirname(this.file), { recursive: true })
      }
    }
  }
}
