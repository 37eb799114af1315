// Agent files parsed before, by their text: a person's hundred agent files in ~/.claude/agents were parsed anew at
// every `fanout run` (YAML, validation, diagnostics: ~25 ms of its start, and again for the folder's trust
// check). A file's result is kept by a digest of everything it depends on (the build, where the file is, the
// options it was parsed with, its whole text), so an edited file, a moved one or a new build never gets an old
// result; the key costs a hash of the text (~15 µs a file) where the parse cost ~250 µs.
// Kept in memory for the process (the trust check and the session read the same files) and, where the CLI gives
// it a file (useParseCacheFile), across runs: read once, written back (atomically, after the answer) when it
// changed, holding only the files this run read. A result that JSON would not give back as it is (a YAML value
// JSON has no form for) is never kept. The file is Fanout's own (its data folder), never a repository's.
import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import type { AgentSource } from '../../../shared/agent-definition'
import { writeFileAtomicSync } from '../store/atomic-file'
import type { ParseAgentOptions, ParsedAgent } from './parse'

const FORMAT = 1
const MEMORY_KEPT = 2000

/** This build (its bundle, as it is on disk): a result parsed by another (a changed parser) is never served. Null when unknown. */
const build = ((): string | null => {
  try {
    const self = typeof __filename === 'string' ? __filename : null
    if (!self) return null
    const s = statSync(self)
    return `${self}\u0000${s.size}\u0000${s.mtimeMs}`
  } catch {
    return null
  }
})()

const memory = new Map<string, ParsedAgent>()
/** The entries read from the file, and those this process used or made (what the file is written back with). */
let stored = new Map<string, ParsedAgent>()
const used = new Map<string, ParsedAgent>()
let file: string | null = null
let changed = false

/** Keeps parsed agent files in `path` across runs (read now; what this process parsed so far is let go); null stops that. */
export function useParseCacheFile(path: string | null): void {
  // Across runs only where the build is known: a parse of another build is never read back.
  file = build ? path : null
  memory.clear()
  stored = new Map()
  used.clear()
  changed = false
  if (!file) return
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { format?: number; build?: string; entries?: [string, ParsedAgent][] }
    if (raw.format === FORMAT && raw.build === build && Array.isArray(raw.entries)) stored = new Map(raw.entries)
  } catch {
    // none yet, or unreadable: every file is parsed, and the file written anew
  }
}

/** The parse of `text`, from the cache when this build parsed the very same file with the same options before. */
export function cachedParse(text: string, path: string, source: AgentSource, opts: ParseAgentOptions, parse: () => ParsedAgent): ParsedAgent {
  const key = createHash('sha256')
    .update(JSON.stringify([build, source, path, opts]))
    .update('\u0000')
    .update(text)
    .digest('base64url')
  const known = memory.get(key) ?? stored.get(key)
  if (known) {
    memory.set(key, known)
    if (file && !used.has(key)) used.set(key, known)
    return structuredClone(known)
  }
  const parsed = parse()
  // Only what JSON gives back unchanged: a served result must be the parse's own.
  let kept: ParsedAgent | null = null
  try {
    const copy = JSON.parse(JSON.stringify(parsed)) as ParsedAgent
    if (isDeepStrictEqual(copy, parsed)) kept = copy
  } catch {
    kept = null
  }
  if (kept) {
    // Bounded: an app open for days sees many versions of the files a person edits.
    if (memory.size >= MEMORY_KEPT) memory.clear()
    memory.set(key, kept)
    if (file) {
      used.set(key, kept)
      changed = true
    }
  }
  return parsed
}

/**
 * Writes the cache file back when this run parsed a file it did not hold, or no longer reads one it held; best
 * effort (a failed write costs the next run its parse, nothing else). Synchronous: `fanout run` calls it once
 * its answer is out.
 */
export function saveParseCache(): void {
  if (!file || (!changed && used.size === stored.size)) return
  try {
    writeFileAtomicSync(file, JSON.stringify({ format: FORMAT, build, entries: [...used] }), { fsync: false, mode: 0o600 })
    stored = new Map(used)
    changed = false
  } catch {
    // best effort
  }
}
