// What a Fanout process that ended without cleaning up (kill -9, a crash, power loss) left in projects: the
// placeholders its journal names. The next Fanout process to start removes each one that is still exactly
// the empty file or folder that was made (never one with content, or changed since), unless a live process's
// sandbox stands on it too; it also takes away placeholders live processes left for each other. A journal of
// a process that still has sandboxes running (an orphaned command) is left alone until they end.
import { rmdirSync, unlinkSync } from 'node:fs'
import { processAlive, readJournals, type ProcessJournal } from './mount-journal'
import { stillPlaceholder } from './placeholder-identity'

export interface SweepOptions {
  /** This process's own journal (its entries are in memory). */
  isOwn: (j: ProcessJournal) => boolean
  /** Paths this process's commands stand on. */
  ownPaths: ReadonlySet<string>
  /** Whether a path inside a placeholder folder is a placeholder too. */
  isPlaceholder: (path: string) => boolean
}

export interface SweepResult {
  removed: string[]
  /** Journals of ended processes that were deleted. */
  journalsClosed: number
}

const alive = (j: ProcessJournal): boolean => processAlive(j.pid, j.start) || [...j.runs].some(([pid, start]) => processAlive(pid, start))

export function sweepJournals(dir: string, opts: SweepOptions): SweepResult {
  const journals = readJournals(dir).filter((j) => !opts.isOwn(j))
  const live = new Map(journals.map((j) => [j, alive(j)]))
  const heldBy = (path: string, except: ProcessJournal) =>
    opts.ownPaths.has(path) || journals.some((j) => j !== except && live.get(j) && j.entries.get(path)?.held)
  const result: SweepResult = { removed: [], journalsClosed: 0 }
  for (const j of journals) {
    const isLive = live.get(j) ?? false
    let remaining = 0
    for (const e of [...j.entries.values()].sort((a, b) => b.path.length - a.path.length)) {
      if ((isLive && e.held) || heldBy(e.path, j)) {
        remaining++
        continue
      }
      if (!stillPlaceholder(e, opts.isPlaceholder)) continue
      try {
        if (e.kind === 'dir') rmdirSync(e.path)
        else unlinkSync(e.path)
        result.removed.push(e.path)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') remaining++
      }
    }
    if (isLive) continue
    for (const source of j.sources) {
      try {
        rmdirSync(source) // only while empty: never what something put in it
      } catch {}
    }
    if (remaining === 0) {
      try {
        unlinkSync(j.file)
        result.journalsClosed++
      } catch {}
    }
  }
  return result
}
