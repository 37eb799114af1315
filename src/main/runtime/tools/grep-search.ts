// The two Grep engines — ripgrep (`rg --json`) and a JS fallback — producing the same structured result, so
// one formatter serves both and a machine without rg answers exactly as one with it.
import { stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { openRegular, readRegular, withDir } from '../security/open-beneath'
import { realTarget } from '../security/real-target'
import { compileGlob, matchGlob } from './glob-pattern'
import { OverrideGlobs } from './ignore-rules'
import { walkFiles } from './file-walk'
import { RG_TYPES } from './grep-types'
import { RG_BASE_ARGS } from './list-files'
import { runRipgrep } from './ripgrep'
import { rustRegex } from './rust-regex'
import { IN_PROCESS_SEARCH_UP_TO, smallTreeFiles } from './search-engine'
import { errorMessage } from '../../../shared/error-message'

export interface GrepQuery {
  pattern: string
  /** Absolute path of the file or directory to search, as written (what results are shown under). */
  root: string
  /**
   * Where `root` really leads, as the path check judged it: the only place read. Defaults to resolving `root`
   * now; a tool passes the answer it checked, so a link swapped in later cannot move the search.
   */
  rootReal?: string
  globs: string[]
  type?: string
  ignoreCase: boolean
  multiline: boolean
  before: number
  after: number
  /** files_with_matches: only which files match, no lines. */
  filesOnly: boolean
  signal?: AbortSignal
}

export interface GrepLine {
  n: number
  text: string
  match: boolean
}

export interface GrepFile {
  /** Absolute path. */
  path: string
  lines: GrepLine[]
  /** Lines that are (part of) a match. */
  matchLines: number
}

export interface GrepOutcome {
  files: GrepFile[]
  /** Collection stopped at the safety cap. */
  capped: boolean
}

/** Bound on collected lines, so a pattern like "." over a large tree cannot exhaust memory. */
export const GREP_MAX_COLLECTED_LINES = 20_000

export class GrepInputError extends Error {}

function decodeField(field: { text?: string; bytes?: string } | undefined): string {
  if (!field) return ''
  return field.text ?? Buffer.from(field.bytes ?? '', 'base64').toString('utf8')
}

function stripEol(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line
}

/** The most an in-process search reads of one file (rg streams; this engine holds a file in memory). */
export const GREP_MAX_FILE_BYTES = 50 * 1024 * 1024

export async function grepWithRipgrep(rg: string, q: GrepQuery): Promise<GrepOutcome> {
  const real = q.rootReal ?? realTarget(q.root)
  if (real === null) throw new GrepInputError(`${q.root} cannot be resolved (a symbolic link loop).`)
  if (!(await stat(real)).isDirectory()) {
    // One file: opened here (no link followed, a regular file only: a FIFO named here would block rg forever)
    // and handed to rg as its standard input, so rg never opens a path of its own.
    const { fh } = await openRegular(real, q.root)
    try {
      return await runGrep(rg, q, { stdin: fh.fd })
    } finally {
      await fh.close()
    }
  }
  // A folder: rg starts in it through a verified fd (its cwd is /proc/self/fd/N of the spawning process, which
  // the child still holds when it changes directory), so a link swapped in for the root or above cannot move
  // it. rg itself follows no links while it walks; what it reports is checked again below.
  const found = await withDir(real, q.root, false, (dir) => runGrep(rg, q, { cwd: dir.at('.') }))
  const kept = await Promise.all(found.files.map((f) => confirmed(f, join(real, relative(q.root, f.path)))))
  return { ...found, files: found.files.filter((_, i) => kept[i]) }
}

/**
 * Whether what rg reported of a file is what the file beneath the real root holds, read through a verified
 * folder fd: a folder swapped for a link while rg walked could have let it read elsewhere. A file whose
 * lines differ (or that is no longer a regular file there) is dropped.
 */
async function confirmed(file: GrepFile, real: string): Promise<boolean> {
  try {
    if (file.lines.length === 0) {
      const { fh } = await openRegular(real, real)
      await fh.close()
      return true
    }
    const found = await readRegular(real, real, GREP_MAX_FILE_BYTES)
    if (!found) return false
    const text = decodeText(found.bytes)
    if (text === null) return false
    const lines = text.split('\n')
    return file.lines.every((l) => stripEol(lines[l.n - 1] ?? '') === l.text)
  } catch {
    return false
  }
}

async function runGrep(rg: string, q: GrepQuery, where: { stdin: number } | { cwd: string }): Promise<GrepOutcome> {
  const stdin = 'stdin' in where ? where.stdin : undefined
  const cwd = 'cwd' in where ? where.cwd : process.cwd()
  const target = stdin !== undefined ? '-' : '.'
  const args = [...RG_BASE_ARGS, ...q.globs.flatMap((g) => ['--glob', g]), '--glob', '!.git']
  if (q.type) args.push('--type', q.type)
  args.push(q.ignoreCase ? '--ignore-case' : '--case-sensitive')
  if (q.multiline) args.push('--multiline', '--multiline-dotall')
  if (q.filesOnly) args.push('--files-with-matches', '--null')
  else args.push('--json', '--after-context', String(q.after), '--before-context', String(q.before))
  args.push('--regexp', q.pattern, '--', target)

  const byPath = new Map<string, GrepFile>()
  let collected = 0
  let capped = false
  const abs = (p: string): string => (stdin !== undefined ? q.root : join(q.root, p.startsWith('./') ? p.slice(2) : p))
  const run = await runRipgrep(rg, args, {
    cwd,
    ...(stdin !== undefined ? { stdin } : {}),
    signal: q.signal,
    ...(q.filesOnly ? { separator: '\0' as const } : {}),
    onLine: (line) => {
      if (!line) return
      if (q.filesOnly) {
        byPath.set(abs(line), { path: abs(line), lines: [], matchLines: 0 })
        return ++collected < GREP_MAX_COLLECTED_LINES || ((capped = true), false)
      }
      const msg = JSON.parse(line) as { type: string; data: any }
      if (msg.type !== 'match' && msg.type !== 'context') return
      const path = abs(decodeField(msg.data.path))
      let file = byPath.get(path)
      if (!file) byPath.set(path, (file = { path, lines: [], matchLines: 0 }))
      const text = decodeField(msg.data.lines)
      const parts = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n')
      parts.forEach((part, i) => file.lines.push({ n: msg.data.line_number + i, text: stripEol(part), match: msg.type === 'match' }))
      if (msg.type === 'match') file.matchLines += parts.length
      collected += parts.length
      if (collected >= GREP_MAX_COLLECTED_LINES) {
        capped = true
        return false
      }
    }
  })
  if (run.code === 2 && byPath.size === 0) {
    const reason = run.stderr.replace(/^rg: /gm, '').trim()
    throw new GrepInputError(reason.includes('regex') ? `Invalid regex pattern: ${reason}` : reason || 'ripgrep failed')
  }
  return { files: [...byPath.values()], capped }
}

/** The pattern as rg reads it (rust-regex.ts), else as JavaScript reads it: the engine when there is no rg. */
export function compileGrepRegex(pattern: string, ignoreCase: boolean, multiline: boolean): RegExp {
  const faithful = rustRegex(pattern, { ignoreCase, multiline })
  if (faithful) return faithful
  const flags = `${multiline ? 'gms' : ''}${ignoreCase ? 'i' : ''}`
  try {
    return new RegExp(pattern, `${flags}u`)
  } catch {
    try {
      return new RegExp(pattern, flags)
    } catch (err) {
      throw new GrepInputError(`Invalid regex pattern: ${errorMessage(err)}`)
    }
  }
}

function typeFilter(type: string | undefined): ((rel: string) => boolean) | undefined {
  if (!type) return undefined
  const globs = RG_TYPES[type]
  if (!globs) throw new GrepInputError(`unrecognized file type: ${type}. Known types include: ${Object.keys(RG_TYPES).join(', ')}.`)
  const compiled = globs.map((g) => compileGlob(g))
  return (rel) => compiled.some((g) => matchGlob(g, rel))
}

/** Match lines plus before/after context, merged where windows overlap (ripgrep's behaviour). */
function withContext(lines: string[], matched: Set<number>, before: number, after: number): GrepLine[] {
  const keep = new Set<number>()
  for (const n of matched) for (let k = Math.max(1, n - before); k <= Math.min(lines.length, n + after); k++) keep.add(k)
  return [...keep].sort((a, b) => a - b).map((n) => ({ n, text: lines[n - 1], match: matched.has(n) }))
}

function searchText(text: string, regex: RegExp, q: GrepQuery): { lines: GrepLine[]; matchLines: number } | null {
  // Lines end at \n only, as in rg: a \r stays part of the line it is matched against, and is only left out of
  // what is shown.
  const raw = text.split('\n')
  if (raw.length > 0 && text.endsWith('\n')) raw.pop()
  const lines = raw.map(stripEol)
  const matched = new Set<number>()
  if (!q.multiline) {
    raw.forEach((line, i) => {
      if (regex.test(line)) matched.add(i + 1)
    })
  } else {
    const starts = [0]
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
    const lineOf = (offset: number): number => {
      let lo = 0
      let hi = starts.length - 1
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1
        if (starts[mid] <= offset) lo = mid
        else hi = mid - 1
      }
      return lo + 1
    }
    regex.lastIndex = 0
    for (let m = regex.exec(text); m; m = regex.exec(text)) {
      const first = lineOf(m.index)
      const last = lineOf(Math.max(m.index, m.index + m[0].length - 1))
      for (let n = first; n <= Math.min(last, lines.length); n++) matched.add(n)
      if (m[0].length === 0) regex.lastIndex++
    }
  }
  if (matched.size === 0) return null
  return { lines: q.filesOnly ? [] : withContext(lines, matched, q.before, q.after), matchLines: matched.size }
}

export async function grepWithJs(q: GrepQuery): Promise<GrepOutcome> {
  const regex = compileGrepRegex(q.pattern, q.ignoreCase, q.multiline)
  const accept = typeFilter(q.type)
  const walkRoot = q.rootReal ?? q.root
  const rootIsDir = (await stat(walkRoot)).isDirectory()
  const rels = rootIsDir ? await walkFiles({ root: walkRoot, overrides: new OverrideGlobs([...q.globs, '!.git']), accept, signal: q.signal }) : ['']
  return (await searchFiles(q, regex, rels, Infinity))!
}

/** Text a search reads in-process before leaving the tree to rg: the regex runs on the main thread. */
export const IN_PROCESS_GREP_BYTES = 2 * 1024 * 1024

/**
 * The search by the cheaper engine for this tree (search-engine.ts): in-process for a small tree with little
 * text, rg otherwise, and in-process always when there is no rg.
 */
export async function grepSearch(q: GrepQuery, rg: string | null, upTo = IN_PROCESS_SEARCH_UP_TO): Promise<GrepOutcome & { engine: 'rg' | 'js' }> {
  if (!rg) return { ...(await grepWithJs(q)), engine: 'js' }
  const regex = upTo > 0 ? inProcessRegex(q) : null
  if (regex) {
    const walkRoot = q.rootReal ?? q.root
    const rootIsDir = (await stat(walkRoot)).isDirectory()
    const rels = rootIsDir
      ? await smallTreeFiles({ root: walkRoot, overrides: new OverrideGlobs([...q.globs, '!.git']), accept: typeFilter(q.type), signal: q.signal, upTo })
      : ['']
    const found = rels && (await searchFiles(q, regex, rels, IN_PROCESS_GREP_BYTES))
    if (found) return { ...found, engine: 'js' }
  }
  return { ...(await grepWithRipgrep(rg, q)), engine: 'rg' }
}

/** The regex for an in-process search, or null where only rg is sure to read the pattern as rg does. */
function inProcessRegex(q: GrepQuery): RegExp | null {
  // Anything that is not sure to mean what it means to rg, or that does not compile, goes to rg (which says
  // what is wrong with a bad pattern in its own words).
  return rustRegex(q.pattern, { ignoreCase: q.ignoreCase, multiline: q.multiline })
}

/** A file's text as rg reads it: a byte-order mark picks UTF-16 or is dropped; null for binary content. */
function decodeText(bytes: Buffer): string | null {
  let text: string
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes.subarray(2))
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes.subarray(2))
  else if (bytes.includes(0)) return null
  else text = bytes.toString('utf8', bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0)
  return text.includes('\0') ? null : text
}

/**
 * Searches the files at root-relative `rels` ('' for the root itself); null when they hold more than `maxBytes`
 * of text (the caller hands the search to rg). Each file is read at its real place under the root's real path
 * through a verified folder fd (open-beneath.ts): one that turned into a link, a FIFO or a device since the
 * walk is skipped, never followed or waited on.
 */
async function searchFiles(q: GrepQuery, regex: RegExp, rels: string[], maxBytes: number): Promise<GrepOutcome | null> {
  const rootReal = q.rootReal ?? realTarget(q.root)
  if (rootReal === null) return { files: [], capped: false }
  const read = (rel: string): Promise<Buffer | null> =>
    readRegular(rel ? join(rootReal, rel) : rootReal, rel || q.root, GREP_MAX_FILE_BYTES).then(
      (found) => found?.bytes ?? null,
      () => null
    )
  const files: GrepFile[] = []
  let collected = 0
  let capped = false
  let bytesRead = 0
  let tooBig = false
  // Bounded concurrency: fast on big trees without opening thousands of files at once.
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < rels.length && !capped && !tooBig) {
      if (q.signal?.aborted) throw new Error('aborted')
      const rel = rels[next++]
      const path = rel ? join(q.root, rel) : q.root
      const bytes = await read(rel)
      if (bytes && (bytesRead += bytes.length) > maxBytes) tooBig = true
      const text = bytes && !tooBig ? decodeText(bytes) : null
      if (text === null) continue // unreadable or binary: ripgrep skips these too
      const found = searchText(text, regex, q)
      if (!found) continue
      files.push({ path, ...found })
      collected += q.filesOnly ? 1 : found.lines.length
      if (collected >= GREP_MAX_COLLECTED_LINES) capped = true
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
  return tooBig ? null : { files, capped }
}
