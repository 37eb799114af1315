// The on-disk record of the mount points a Fanout process's sandboxes hold, so that what a crash leaves behind
// (kill -9, power loss: bubblewrap's empty placeholders for absent protected paths) can be told apart from a
// person's files and removed by the next Fanout process to start, and so that two processes working in the
// same folder do not remove each other's. One append-only file per process, `<dir>/<pid>.jsonl`: a header
// naming the process (pid and start time, so a reused pid is not taken for it), then one line per change,
// each synced before the change it announces is made. A torn last line is ignored.
import { closeSync, fdatasyncSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { procStat } from '../proc-stat'

export type MountKind = 'file' | 'dir'

/** What a placeholder looked like when it was made: it is still the same one while these hold. */
export interface Identity {
  dev: string
  ino: string
  /** Permission bits. */
  mode: number
  /** Modification time in ns (a string: it does not fit a double). */
  mtimeNs: string
}

export type JournalLine =
  | { t: 'head'; v: 1; pid: number; start: string; host: string }
  /** About to make a placeholder (written first, so a crash in between still names it). */
  | { t: 'intent'; path: string; kind: MountKind; at: number }
  /** Made it, or (`use`) holds one another process made: its identity. */
  | { t: 'made' | 'use'; path: string; kind: MountKind; id: Identity }
  /** No command of this process needs it any more, but it was left (another process held it). */
  | { t: 'free'; path: string }
  /** Removed, or no longer a placeholder (someone wrote to it): nothing left to do. */
  | { t: 'gone'; path: string }
  /** A sandbox process started / ended (while one runs, its mounts rely on the placeholders). */
  | { t: 'run' | 'end'; pid: number; start: string | null }
  /** sandbox-runtime's empty folder that directory placeholders are covered with. */
  | { t: 'source'; path: string }

export interface JournalEntry {
  path: string
  kind: MountKind
  id: Identity | null
  /** When the intent was written (entries without an identity are judged by it). */
  at: number
  /** A command of the writing process still needs it. */
  held: boolean
}

export interface ProcessJournal {
  file: string
  pid: number
  start: string
  entries: Map<string, JournalEntry>
  /** Sandbox processes started and not seen to end. */
  runs: Map<number, string | null>
  sources: Set<string>
}

/** The start time of a process (clock ticks since boot, from /proc), or null when there is no such process. */
export function processStart(pid: number): string | null {
  const stat = procStat(pid)
  return !stat || stat.state === 'Z' ? null : (stat.start ?? null)
}

/** The process is running and is the one that was recorded (not another that got its pid). */
export function processAlive(pid: number, start: string | null): boolean {
  const now = processStart(pid)
  return now !== null && (start === null || now === start)
}

/** Folds a journal's lines; null when it has no valid header. */
export function foldJournal(file: string, text: string): ProcessJournal | null {
  const lines = text.split('\n')
  let head: Extract<JournalLine, { t: 'head' }> | null = null
  const entries = new Map<string, JournalEntry>()
  const runs = new Map<number, string | null>()
  const sources = new Set<string>()
  for (const raw of lines) {
    if (!raw.trim()) continue
    let line: JournalLine
    try {
      line = JSON.parse(raw) as JournalLine
    } catch {
      continue // a line torn by a crash
    }
    if (!head) {
      if (line.t !== 'head' || typeof line.pid !== 'number') return null
      head = line
      continue
    }
    if (line.t === 'intent') entries.set(line.path, { path: line.path, kind: line.kind, id: null, at: line.at, held: true })
    else if (line.t === 'made' || line.t === 'use')
      entries.set(line.path, { path: line.path, kind: line.kind, id: line.id, at: entries.get(line.path)?.at ?? 0, held: true })
    else if (line.t === 'free') {
      const e = entries.get(line.path)
      if (e) e.held = false
    } else if (line.t === 'gone') entries.delete(line.path)
    else if (line.t === 'run') runs.set(line.pid, line.start)
    else if (line.t === 'end') runs.delete(line.pid)
    else if (line.t === 'source') sources.add(line.path)
  }
  return head ? { file, pid: head.pid, start: head.start, entries, runs, sources } : null
}

/** Every process's journal in `dir` (unreadable or headless files are skipped). */
export function readJournals(dir: string): ProcessJournal[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const out: ProcessJournal[] = []
  for (const name of names) {
    if (!/^\d+\.jsonl$/.test(name)) continue
    const file = join(dir, name)
    try {
      const j = foldJournal(file, readFileSync(file, 'utf8'))
      if (j) out.push(j)
    } catch {}
  }
  return out
}

/** The writing end: this process's own file, opened on first use and removed once nothing in it matters. */
export class JournalWriter {
  private fd: number | null = null
  readonly file: string
  private readonly start = processStart(process.pid) ?? '0'

  constructor(
    readonly dir: string,
    private readonly onError: (err: Error) => void = () => undefined
  ) {
    this.file = join(dir, `${process.pid}.jsonl`)
  }

  /** Appends the lines and syncs them to disk before returning. */
  append(...lines: JournalLine[]): void {
    try {
      if (this.fd === null) {
        mkdirSync(this.dir, { recursive: true, mode: 0o700 })
        this.fd = openSync(this.file, 'w', 0o600)
        writeSync(this.fd, JSON.stringify({ t: 'head', v: 1, pid: process.pid, start: this.start, host: hostname() } satisfies JournalLine) + '\n')
      }
      writeSync(this.fd, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
      fdatasyncSync(this.fd)
    } catch (err) {
      this.onError(err as Error)
    }
  }

  /** `j` is this process's own journal (not a dead process's that had the same pid). */
  isOwn(j: ProcessJournal): boolean {
    return j.file === this.file && j.pid === process.pid && j.start === this.start
  }

  /** Closes and deletes the file (nothing in it is needed any more). */
  discard(): void {
    if (this.fd === null) return
    try {
      closeSync(this.fd)
      unlinkSync(this.file)
    } catch {}
    this.fd = null
  }
}
