// The placeholders the Bash sandbox puts in a project while a command runs. To keep a sandboxed command from
// creating a protected path that does not exist yet (.bashrc, .mcp.json, .vscode, .claude…), bubblewrap
// mounts /dev/null or an empty folder onto it, and for that an empty file or folder has to exist at the path
// on the host. sandbox-runtime lets bubblewrap make them and removes them once no sandbox of the process is
// running, and at exit — not after a crash, and meanwhile a person, git and every reader of the project sees
// them. This ledger, one per process:
// - learns each wrap's placeholders from the command line it was handed (bwrap-args.ts) and makes them
//   itself before the command starts, recording each (mount-journal.ts) first, so it knows them exactly;
// - removes a placeholder as soon as no command of any Fanout process stands on it (not when the last
//   sandbox of the process ends), and only while it is still exactly what was made (placeholder-identity);
// - answers every consumer's question "is this a person's file or a live placeholder?" (placeholderAt);
// - and sweeps, at start, what a crashed process left (mount-sweep.ts).
import { closeSync, mkdirSync, openSync, rmdirSync, statSync, unlinkSync } from 'node:fs'
import { dirname, sep } from 'node:path'
import { MAKES_DEST, mountsOfWrappedCommand } from './bwrap-args'
import { keepThrough, pad, restore, surround } from './library-guard'
import { JournalWriter, processAlive, processStart, readJournals, type JournalLine, type MountKind, type ProcessJournal } from './mount-journal'
import { sweepJournals } from './mount-sweep'
import { identityOf, isEmptyPlaceholderShape, kindOf, lstatOrNull, PLACEHOLDER_DIR_MODE, PLACEHOLDER_FILE_MODE, stillPlaceholder } from './placeholder-identity'

interface Placeholder {
  path: string
  kind: MountKind
  id: ReturnType<typeof identityOf> | null
  at: number
  /** Commands of this process whose sandbox stands on it (id → command text, for messages). */
  users: Map<string, string>
}

/** What one wrapped command's sandbox stands on. */
export interface MountHold {
  readonly commandId: string
  readonly paths: readonly string[]
  /** sandbox-runtime's reset count when it was wrapped: a reset since dropped it from the library's own count. */
  generation: number
  released: boolean
  pid?: number
}

/** A live placeholder, for a consumer to skip or explain. */
export interface PlaceholderInfo {
  path: string
  kind: MountKind
  /** Who stands on it, in words: `the sandbox of "npm run dev"`, or another Fanout process. */
  holder: string
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false
  } catch {
    return false
  }
}

const isUnder = (path: string, root: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)

export class MountPointLedger {
  private readonly placeholders = new Map<string, Placeholder>()
  /** Paths sandbox-runtime found absent since it last emptied its own list: its cleanup would remove them. */
  private readonly tracked = new Set<string>()
  private readonly runs = new Map<number, string | null>()
  private liveWraps = 0
  private journal: JournalWriter | null = null
  private sourcesSeen = new Set<string>()

  private readonly removedListeners = new Set<(path: string) => void>()

  constructor(private readonly platform: NodeJS.Platform = process.platform) {}

  /** Tells `listener` about every placeholder removed from now on (the attack suite's judge tells them from escapes). */
  onRemoved(listener: (path: string) => void): () => void {
    this.removedListeners.add(listener)
    return () => this.removedListeners.delete(listener)
  }

  private removed(path: string): void {
    for (const l of this.removedListeners) l(path)
  }

  /** Where the journal lives (the data folder's `sandbox-mounts/`); sweeps what crashed processes left there. */
  configure(dir: string, onError?: (err: Error) => void): void {
    if (this.platform !== 'linux') return
    if (!this.journal || (this.journal.dir !== dir && this.placeholders.size === 0 && this.runs.size === 0)) {
      this.journal?.discard()
      this.journal = new JournalWriter(dir, onError)
    }
    this.sweep()
  }

  get journalDir(): string | null {
    return this.journal?.dir ?? null
  }

  /** Called inside the wrap queue, right after sandbox-runtime returned `line`: makes and records its placeholders. */
  hold(commandId: string, commandText: string, line: string): MountHold {
    const hold: MountHold = { commandId, paths: [], generation: this.generation, released: false }
    this.liveWraps++
    if (this.platform !== 'linux') return hold
    try {
      this.guardExit()
      return Object.assign(hold, { paths: this.makePlaceholders(commandId, commandText, line) })
    } catch {
      // Never in the way of the command: sandbox-runtime still removes what it made when its count allows.
      return hold
    }
  }

  private makePlaceholders(commandId: string, commandText: string, line: string): string[] {
    const mounts = mountsOfWrappedCommand(line) ?? []
    const fresh: { path: string; kind: MountKind }[] = []
    const paths: string[] = []
    const adopt: JournalLine[] = []
    let journals: ProcessJournal[] | null = null
    for (const m of mounts) {
      if (!MAKES_DEST.has(m.op) || m.dest.startsWith('/dev/') || m.dest.startsWith('/proc/')) continue
      const known = this.placeholders.get(m.dest)
      if (known && this.matches(known)) {
        known.users.set(commandId, commandText)
        paths.push(m.dest)
        continue
      }
      const st = lstatOrNull(m.dest)
      if (!st) {
        const sourceIsDir = m.source !== undefined && m.source !== '/dev/null' && isDirectory(m.source)
        fresh.push({ path: m.dest, kind: m.op === '--tmpfs' || m.op === '--dir' || sourceIsDir ? 'dir' : 'file' })
        if (sourceIsDir && m.source && !this.sourcesSeen.has(m.source)) {
          this.sourcesSeen.add(m.source)
          adopt.push({ t: 'source', path: m.source })
        }
        continue
      }
      // There already: a placeholder another process (or a crashed one) made, which this sandbox stands on too.
      journals ??= this.otherJournals()
      const entry = journals.flatMap((j) => [...j.entries.values()]).find((e) => e.path === m.dest && stillPlaceholder(e))
      const kind = kindOf(st)
      if (!entry || !kind) continue
      this.placeholders.set(m.dest, { path: m.dest, kind, id: identityOf(st), at: Date.now(), users: new Map([[commandId, commandText]]) })
      adopt.push({ t: 'use', path: m.dest, kind, id: identityOf(st) })
      paths.push(m.dest)
    }
    const at = Date.now()
    if (fresh.length || adopt.length) this.journal?.append(...adopt, ...fresh.map((f) => ({ t: 'intent' as const, path: f.path, kind: f.kind, at })))
    const made: JournalLine[] = []
    for (const f of fresh) {
      this.tracked.add(f.path)
      const p: Placeholder = { path: f.path, kind: f.kind, id: null, at, users: new Map([[commandId, commandText]]) }
      try {
        if (f.kind === 'dir') mkdirSync(f.path, PLACEHOLDER_DIR_MODE)
        else closeSync(openSync(f.path, 'wx', PLACEHOLDER_FILE_MODE))
        const st = lstatOrNull(f.path)
        if (st) {
          p.id = identityOf(st)
          made.push({ t: 'made', path: f.path, kind: f.kind, id: p.id })
        }
      } catch {
        // Not makeable from here (bubblewrap, as the folder's owner in its namespace, may still make it): the
        // intent names it, and it is judged by its shape and time.
      }
      this.placeholders.set(f.path, p)
      paths.push(f.path)
    }
    if (made.length) this.journal?.append(...made)
    return paths
  }

  /** The command's sandbox process (its placeholders must stay while it runs, even if this process dies). */
  started(hold: MountHold, pid: number): void {
    if (this.platform !== 'linux' || hold.released) return
    hold.pid = pid
    const start = processStart(pid)
    this.runs.set(pid, start)
    this.journal?.append({ t: 'run', pid, start })
  }

  /**
   * The command ended: its placeholders go as soon as nothing else stands on them. `libraryCleanup` is
   * sandbox-runtime's own per-command cleanup, run with what must stay protected from it.
   */
  release(hold: MountHold, libraryCleanup: () => void): void {
    if (hold.released) return
    hold.released = true
    for (const p of hold.paths) this.placeholders.get(p)?.users.delete(hold.commandId)
    if (hold.pid !== undefined && this.runs.delete(hold.pid)) this.journal?.append({ t: 'end', pid: hold.pid, start: null })
    this.settle()
    // Its own cleanup, once per wrap it counted, removes what it tracked when its count reaches zero.
    if (hold.generation === this.generation) {
      this.liveWraps = Math.max(0, this.liveWraps - 1)
      if (this.liveWraps === 0) {
        keepThrough(this.keepers(), libraryCleanup)
        this.tracked.clear()
      } else libraryCleanup()
    }
    if (this.placeholders.size === 0 && this.runs.size === 0) this.sweep()
  }

  /** sandbox-runtime's reset() removes everything it tracks (shutdown): run it with what must stay kept. */
  aroundLibraryReset<T>(reset: () => T): T {
    const result = keepThrough(this.keepers(), reset)
    this.libraryWasReset()
    return result
  }

  /** The library's count and list are empty now: holds still running no longer count in it. */
  private libraryWasReset(): void {
    this.tracked.clear()
    this.liveWraps = 0
    this.generation++
  }

  private generation = 0

  /** The placeholder at `path`, if that is what is there (this process's, or any Fanout process's), else null. */
  placeholderAt(path: string): PlaceholderInfo | null {
    if (this.platform !== 'linux') return null
    const st = lstatOrNull(path)
    if (!st || !(st.isDirectory() || (st.isFile() && st.size === 0n))) return null
    const own = this.placeholders.get(path)
    if (own) return this.matches(own) ? { path, kind: own.kind, holder: this.describe(own) } : null
    for (const j of this.otherJournals()) {
      const e = j.entries.get(path)
      if (e && stillPlaceholder(e, (p) => this.placeholderAt(p) !== null))
        return {
          path,
          kind: e.kind,
          holder: processAlive(j.pid, j.start) ? `another Fanout process (pid ${j.pid})` : 'a Fanout process that ended without removing it'
        }
    }
    return null
  }

  /** Every placeholder under `root` (absolute paths): this process's and other Fanout processes'. */
  placeholdersUnder(root: string): string[] {
    if (this.platform !== 'linux') return []
    const found = new Set<string>()
    for (const p of this.placeholders.values()) if (isUnder(p.path, root) && this.matches(p)) found.add(p.path)
    for (const j of this.otherJournals())
      for (const e of j.entries.values()) if (isUnder(e.path, root) && !found.has(e.path) && this.placeholderAt(e.path)) found.add(e.path)
    return [...found].sort()
  }

  /** The first placeholder file on the way to `path` (a folder that cannot be made while a sandbox holds it). */
  placeholderOnTheWay(path: string): PlaceholderInfo | null {
    for (let d = dirname(path); dirname(d) !== d; d = dirname(d)) {
      const st = lstatOrNull(d)
      if (!st) continue
      if (st.isDirectory()) return null
      return st.isFile() ? this.placeholderAt(d) : null
    }
    return null
  }

  private matches(p: Placeholder): boolean {
    return stillPlaceholder(p, (inner) => this.placeholderAt(inner) !== null)
  }

  private describe(p: Placeholder): string {
    const commands = [...p.users.values()]
    if (!commands.length) return 'the Bash sandbox (about to remove it)'
    const first = commands[0].replace(/\s+/g, ' ').trim()
    return `the sandbox of the running command "${first.length > 60 ? `${first.slice(0, 57)}…` : first}"${commands.length > 1 ? ` and ${commands.length - 1} more` : ''}`
  }

  private otherJournals(): ProcessJournal[] {
    const dir = this.journal?.dir
    if (!dir) return []
    return readJournals(dir).filter((j) => !this.journal?.isOwn(j))
  }

  /** Another live process's sandbox stands on `path`. */
  private heldElsewhere(path: string, journals: ProcessJournal[]): boolean {
    return journals.some((j) => j.entries.get(path)?.held && (processAlive(j.pid, j.start) || [...j.runs].some(([pid, s]) => processAlive(pid, s))))
  }

  /** Removes the placeholders no command stands on any more (deepest first: a folder may hold another's). */
  private settle(): void {
    const idle = [...this.placeholders.values()].filter((p) => p.users.size === 0).sort((a, b) => b.path.length - a.path.length)
    if (!idle.length) return
    const journals = this.otherJournals()
    const lines: JournalLine[] = []
    for (const p of idle) {
      if (!this.matches(p)) {
        // Written to, or turned into something else: a person's file now.
        lines.push({ t: 'gone', path: p.path })
        this.placeholders.delete(p.path)
      } else if (this.heldElsewhere(p.path, journals)) {
        lines.push({ t: 'free', path: p.path })
        this.placeholders.delete(p.path)
      } else {
        try {
          if (p.kind === 'dir') rmdirSync(p.path)
          else unlinkSync(p.path)
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code
          // A folder holding another command's placeholder: removed when that one goes.
          if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EBUSY') continue
          if (code !== 'ENOENT') {
            lines.push({ t: 'free', path: p.path })
            this.placeholders.delete(p.path)
            continue
          }
        }
        lines.push({ t: 'gone', path: p.path })
        this.placeholders.delete(p.path)
        this.removed(p.path)
      }
    }
    if (lines.length) this.journal?.append(...lines)
  }

  /** What sandbox-runtime's cleanup would remove but must not: every tracked path still there and empty. */
  private keepers(): string[] {
    return [...this.tracked].filter((p) => isEmptyPlaceholderShape(p))
  }

  /** Crash leftovers and placeholders other processes left: removed where nothing stands on them. */
  private sweep(): void {
    const dir = this.journal?.dir
    if (!dir) return
    const { removed } = sweepJournals(dir, {
      isOwn: (j) => this.journal?.isOwn(j) ?? false,
      ownPaths: new Set(this.placeholders.keys()),
      isPlaceholder: (p) => this.placeholderAt(p) !== null
    })
    for (const p of removed) this.removed(p)
    if (this.placeholders.size === 0 && this.runs.size === 0) this.journal?.discard()
  }

  /** At exit: remove ours (their sandboxes die with this process) and keep the rest through the library's own exit cleanup. */
  private guardExit(): void {
    surround('exit', this.beforeLibraryExit, this.afterLibraryExit)
  }

  private restoreAtExit: Parameters<typeof restore>[0] = []
  private readonly beforeLibraryExit = (): void => {
    for (const p of this.placeholders.values()) p.users.clear()
    this.settle()
    if (this.placeholders.size === 0) this.journal?.discard()
    this.restoreAtExit = pad(this.keepers())
  }

  private readonly afterLibraryExit = (): void => restore(this.restoreAtExit)

  /** Signals: sandbox-runtime resets itself on the first SIGINT/SIGTERM; surround that once, right after it registered. */
  guardSignals(): void {
    if (this.platform !== 'linux' || this.signalsGuarded) return
    this.signalsGuarded = true
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      let padded: Parameters<typeof restore>[0] = []
      surround(
        signal,
        () => (padded = pad(this.keepers())),
        () => {
          restore(padded)
          this.libraryWasReset()
        }
      )
    }
  }

  private signalsGuarded = false
}

/** The process's placeholders: one ledger, as sandbox-runtime keeps one set of mount points per process. */
export const mountPoints = new MountPointLedger()
