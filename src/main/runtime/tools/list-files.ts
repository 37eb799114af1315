// "Every file under a root that a search should see": walked in-process for a small tree, `rg --files` for a
// larger one (search-engine.ts), the same walk when rg is missing; hidden files included, .gitignore honoured,
// `.git` skipped. Results are root-relative, forward-slash.
//
// Sibling Globs (a fan-out's agents searching one folder at once) share one listing: a walk or rg run under way
// for the same folder is joined (a search that overlaps another sees the tree as that one does), unless the
// runtime wrote since it began (noteWrite: every tool that may change files, ToolMeta.changesFiles) or one of the
// folder's own ignore files changed. A finished listing is served again only for a small tree the disk shows
// unchanged since the walk began (tree-quiet.ts: its folders, those above it and their ignore files all older
// than the walk), and the runtime did not write since: a fan-out's later agents start seconds after the first,
// and each walked the folder again (the ignore files of every folder up to / read again). A listing still going
// on is stopped only when every search that joined it was.
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { withDir } from '../security/open-beneath'
import { OverrideGlobs } from './ignore-rules'
import { walkFiles } from './file-walk'
import { runRipgrep } from './ripgrep'
import { IN_PROCESS_SEARCH_UP_TO, smallTreeWalk } from './search-engine'
import { folderId, pathsToWatch, quietSince, type Watched } from './tree-quiet'
import type { Walk } from './file-walk'

export const RG_BASE_ARGS = ['--no-config', '--hidden', '--no-require-git']
/** A Glob rooted at / or a home directory must not hold millions of paths in memory. */
export const LIST_FILES_CAP = 250_000

export type SearchEngine = 'rg' | 'js'

export interface Listing {
  /** Shared with the searches that joined it: never changed. */
  files: readonly string[]
  engine: SearchEngine
  /** Served from an earlier walk of a tree shown unchanged since (see above). */
  servedAgain?: true
}

const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore']

interface Shared {
  key: string
  writes: number
  /** When it finished; null while under way (only a listing under way is joined). */
  doneAt: number | null
  result: Promise<Listing>
  stop: AbortController
  joined: number
}

const shared = new Map<string, Shared>()
let writes = 0

/** A small tree's finished listing, with what tells whether it still holds. */
interface Kept {
  key: string
  writes: number
  files: readonly string[]
  /** Date.now() as its walk began. */
  walkedAt: number
  /** The root's identity as the walk began (tree-quiet.ts). */
  rootId: string
  walk: Pick<Walk, 'dirs' | 'read'>
  /** What to look at (tree-quiet.ts), made at the first look; null: never served again. */
  watch?: Watched[] | null
}

const kept = new Map<string, Kept>()

/** The runtime changed files (a tool that is not read-only ran): no listing from before is reused. */
export function noteWrite(): void {
  writes++
}

export async function listFiles(root: string, rg: string | null, signal?: AbortSignal, upTo = IN_PROCESS_SEARCH_UP_TO): Promise<Listing> {
  const key = `${root}\u0000${rg ?? ''}\u0000${upTo}\u0000${IGNORE_FILES.map((f) => stamp(join(root, f))).join('\u0000')}`
  let entry = shared.get(root)
  const usable = entry && entry.key === key && entry.writes === writes && entry.doneAt === null
  if (!entry || !usable) {
    const stop = new AbortController()
    const again = servedAgain(root, key)
    let result: Promise<Listing>
    if (again) result = Promise.resolve(again)
    else {
      const walkedAt = Date.now()
      const startWrites = writes
      const rootId = folderId(root)
      const keep = (walk: Walk) => {
        if (rootId === null) return
        if (kept.size > 64) kept.clear()
        kept.set(root, { key, writes: startWrites, files: walk.files, walkedAt, rootId, walk })
      }
      result = listFresh(root, rg, stop.signal, upTo, keep)
    }
    const mine: Shared = { key, writes, doneAt: null, stop, joined: 0, result }
    const forget = () => {
      mine.doneAt = Date.now()
      if (shared.get(root) === mine) shared.delete(root)
    }
    // A listing served again is joined for the rest of this turn of the event loop, as a walk is while it runs:
    // siblings started together share it, and what they learn of its files (list-files' facts in glob.ts).
    if (again) setImmediate(forget)
    else result.then(forget, forget)
    if (shared.size > 256) shared.clear()
    shared.set(root, (entry = mine))
  }
  return joinListing(entry, signal)
}

/** The small tree's last listing when it still holds (see the top of this file), as a copy: what a search learns of its files (their mtimes) it learns afresh. */
function servedAgain(root: string, key: string): Listing | null {
  const last = kept.get(root)
  if (!last) return null
  if (last.key === key && last.writes === writes) {
    if (last.watch === undefined) last.watch = pathsToWatch(root, last.walk)
    if (last.watch && quietSince(root, last.rootId, last.watch, last.walkedAt)) return { files: last.files.slice(), engine: 'js', servedAgain: true }
  }
  kept.delete(root)
  return null
}

/** Waits for the shared listing as one of its searches: this one's abort leaves it to the others. */
async function joinListing(entry: Shared, signal?: AbortSignal): Promise<Listing> {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted')
  entry.joined++
  let left = false
  const leave = () => {
    if (left) return
    left = true
    if (--entry.joined === 0 && entry.doneAt === null) entry.stop.abort()
  }
  let onAbort: (() => void) | undefined
  try {
    return await Promise.race([
      entry.result,
      new Promise<never>((_, reject) => {
        if (!signal) return
        onAbort = () => {
          leave()
          reject(signal.reason ?? new Error('aborted'))
        }
        signal.addEventListener('abort', onAbort, { once: true })
      })
    ])
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort)
    if (!left) {
      left = true
      entry.joined--
    }
  }
}

function stamp(file: string): string {
  const s = statSync(file, { throwIfNoEntry: false, bigint: true })
  return s ? `${s.ino}:${s.size}:${s.mtimeNs}` : '-'
}

async function listFresh(root: string, rg: string | null, signal: AbortSignal, upTo: number, keep: (walk: Walk) => void): Promise<Listing> {
  const overrides = new OverrideGlobs(['!.git'])
  if (!rg) return { files: await walkFiles({ root, overrides, signal, maxFiles: LIST_FILES_CAP }), engine: 'js' }
  const small = await smallTreeWalk({ root, overrides, signal, upTo })
  if (small) {
    keep(small)
    return { files: small.files, engine: 'js' }
  }
  const files: string[] = []
  // rg starts in the folder through a verified fd (open-beneath.ts), so a link swapped in for it cannot move it.
  const run = await withDir(root, root, false, (dir) =>
    runRipgrep(rg, ['--files', '--null', ...RG_BASE_ARGS, '--glob', '!.git', '--', '.'], {
      cwd: dir.at('.'),
      signal,
      separator: '\0',
      onLine: (line) => {
        if (line) files.push(line.startsWith('./') ? line.slice(2) : line)
        return files.length < LIST_FILES_CAP
      }
    })
  )
  if (run.code === 2 && files.length === 0) throw new Error(`ripgrep failed: ${run.stderr || 'unknown error'}`)
  return { files, engine: 'rg' }
}
