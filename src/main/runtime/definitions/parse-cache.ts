// Agent files parsed before, by their text: a person's hundred agent files in ~/.claude/agents were parsed anew at
// every `fanout run` (YAML, validation, diagnostics: ~25 ms of its start, and again for the folder's trust
// check). A file's result is kept by a digest of everything it depends on (the build, where the file is, the
// options it was parsed with, its whole text), so an edited file, a moved one or a new build never gets an old
// result; the key costs a hash of the text (~15 µs a file) where the parse cost ~250 µs.
// Kept in memory for the process (the trust check and the session read the same files) and, where the CLI gives
// it a file (useParseCacheFile), across runs: read once, written back (atomically, after the answer) when it
// changed, holding only the files this run read. A result that JSON would not give back as it is (a YAML value
// JSON has no form for) is never kept. The file is Fanout's own (its data folder), never a repository's.
// An entry holds the agent's prompt as where it is in the file's text (the text is read anyway, to be hashed), not
// as a copy: with the prompts in it, the file was as large as the agent files themselves (927 KB for the corpus's
// hundred), and reading it back, with the collections its strings caused, was ~30 ms of a 230 ms start.
import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import type { AgentSource } from '../../../shared/agent-definition'
import { writeFileAtomicSync } from '../store/atomic-file'
import type { ParseAgentOptions, ParsedAgent } from './parse'

const FORMAT = 2
const MEMORY_KEPT = 2000

/** A parse as kept: the definition's prompt left out when it is a stretch of the file's text, and that stretch's place. */
interface Kept {
  parsed: ParsedAgent
  /** [from, to): the prompt is text.slice(from, to); absent when it is held in `parsed` as it is. */
  prompt?: [number, number]
}

/** `parsed` as kept for `text`: its prompt as a place in the text where it is one. */
function keep(parsed: ParsedAgent, text: string): Kept {
  const prompt = parsed.definition?.systemPrompt
  const from = prompt ? text.lastIndexOf(prompt) : -1
  if (!prompt || from < 0) return { parsed }
  return { parsed: { ...parsed, definition: { ...parsed.definition!, systemPrompt: '' } }, prompt: [from, from + prompt.length] }
}

/** A copy of the kept parse for the caller (a change of theirs stays their own), its prompt taken from `text`. */
function served(kept: Kept, text: string): ParsedAgent {
  const copy = structuredClone(kept.parsed)
  if (kept.prompt && copy.definition) copy.definition.systemPrompt = text.slice(kept.prompt[0], kept.prompt[1])
  return copy
}

/** An entry read from the file, when it has the shape this build writes (a prompt's place within the text). */
function wellFormed(entry: unknown, text: string): entry is Kept {
  const e = entry as Kept | null
  if (!e || typeof e !== 'object' || !e.parsed || typeof e.parsed !== 'object') return false
  if (e.prompt === undefined) return true
  const [from, to] = Array.isArray(e.prompt) ? e.prompt : []
  return Number.isInteger(from) && Number.isInteger(to) && 0 <= from! && from! <= to! && to! <= text.length && !!e.parsed.definition
}

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

const memory = new Map<string, Kept>()
/** The entries read from the file, and those this process used or made (what the file is written back with). */
let stored = new Map<string, unknown>()
const used = new Map<string, Kept>()
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
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { format?: number; build?: string; entries?: [string, unknown][] }
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
  const found = memory.get(key) ?? stored.get(key)
  if (found !== undefined && wellFormed(found, text)) {
    memory.set(key, found)
    if (file && !used.has(key)) used.set(key, found)
    return served(found, text)
  }
  const parsed = parse()
  // Only what JSON gives back unchanged: a served result must be the parse's own.
  let kept: Kept | null = null
  try {
    const copy = JSON.parse(JSON.stringify(keep(parsed, text))) as Kept
    if (isDeepStrictEqual(served(copy, text), parsed)) kept = copy
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
