// A session another process runs, shown here read-only and followed live: its transcripts are read as they
// grow (complete lines only, each event once: an agent's events up to the last one the opened view folded
// are skipped by their seq) and passed on like this process's own events. When the owner lets the session
// go (it finished, or it died and its lock went stale) the follower says so once and stops: the session can
// then be continued here.
import { open, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { AgentEvent } from '../../../shared/events'
import { agentsDir } from '../store'
import { sessionOwner } from '../store/session-lock'
import { openTranscriptDecoder, type TranscriptDecoder } from '../store/transcript/decode'
import type { RecordedEvent } from '../store/transcript/migrations'

/** How often the transcripts are looked at (a file system watch would miss appends on some file systems). */
const POLL_MS = 250

export interface FollowerOptions {
  dataDir: string
  sessionId: string
  /** New events, in the order they happened. */
  emit(events: AgentEvent[]): void
  /** The owner let the session go: it is not run anywhere now. */
  released(): void
  pollMs?: number
}

export class SessionFollower {
  /** Each transcript's bytes read so far (complete lines). */
  private readonly offsets = new Map<string, number>()
  /** Each agent's last event passed on (or folded into the view that was opened). */
  private readonly seen = new Map<string, number>()
  /** Each transcript's version, once its header is there: its lines are checked and migrated as any reader's. */
  private readonly decoders = new Map<string, TranscriptDecoder>()
  private timer: ReturnType<typeof setInterval> | null = null
  private polling: Promise<void> | null = null
  private stopped = false

  constructor(private readonly o: FollowerOptions) {}

  /**
   * Follows from a view just folded: `sizes` are the transcripts' sizes measured before it was read, `seen`
   * each agent's last seq in it (see replaySession). Starting again (the session was opened again) keeps
   * what was passed on already, so no event is sent twice.
   */
  start(sizes: Record<string, number>, seen: Record<string, number>): void {
    for (const [name, size] of Object.entries(sizes)) this.offsets.set(name, Math.max(size, this.offsets.get(name) ?? 0))
    for (const [agentId, seq] of Object.entries(seen)) this.seen.set(agentId, Math.max(seq, this.seen.get(agentId) ?? 0))
    if (this.timer || this.stopped) return
    this.timer = setInterval(() => void this.tick(), this.o.pollMs ?? POLL_MS)
    this.timer.unref?.()
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** One look: new lines of every transcript, then whether the owner is still there. */
  tick(): Promise<void> {
    this.polling ??= this.look().finally(() => (this.polling = null))
    return this.polling
  }

  private async look(): Promise<void> {
    if (this.stopped) return
    const owned = (await sessionOwner(this.o.dataDir, this.o.sessionId)) !== null
    const events = await this.readNew().catch(() => [] as AgentEvent[])
    if (events.length && !this.stopped) this.o.emit(events)
    if (!owned && !this.stopped) {
      this.stop()
      this.o.released()
    }
  }

  private async readNew(): Promise<AgentEvent[]> {
    const dir = agentsDir(this.o.dataDir, this.o.sessionId)
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl'))
    const out: RecordedEvent[] = []
    for (const name of names) {
      const from = this.offsets.get(name) ?? 0
      const size = (await stat(join(dir, name)).catch(() => null))?.size ?? from
      if (size <= from) continue
      // No header yet: looked at again next time. A newer Fanout's file: not followed (opening it said why).
      const decoder = this.decoders.get(name) ?? (await openTranscriptDecoder(join(dir, name)).catch(() => null))
      if (!decoder) continue
      this.decoders.set(name, decoder)
      const { text, end } = await readComplete(join(dir, name), from, size)
      this.offsets.set(name, end)
      for (const line of text.split('\n')) {
        if (!line.trim()) continue
        let e: unknown
        try {
          e = JSON.parse(line)
        } catch {
          continue // a torn line a crash left: readers skip it
        }
        const read = decoder.event(e)
        if (!read.ok) continue // the header, or a line the transcript reader reports
        const event = read.event
        if (event.seq <= (this.seen.get(event.agentId) ?? 0)) continue
        this.seen.set(event.agentId, event.seq)
        out.push(event)
      }
    }
    return out.sort((a, b) => a.seq - b.seq)
  }
}

/** The bytes in [from, size) up to the last newline: a line still being written waits for the next look. */
async function readComplete(file: string, from: number, size: number): Promise<{ text: string; end: number }> {
  const handle = await open(file, 'r')
  try {
    const buf = Buffer.alloc(size - from)
    const { bytesRead } = await handle.read(buf, 0, buf.length, from)
    const last = buf.lastIndexOf(0x0a, bytesRead - 1)
    if (last < 0) return { text: '', end: from }
    return { text: buf.toString('utf8', 0, last + 1), end: from + last + 1 }
  } finally {
    await handle.close()
  }
}
