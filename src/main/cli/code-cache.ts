// Loads the CLI bundle with a V8 code cache. Compiling ~2 MB of JavaScript is the largest part of
// `fanout run`'s start-up, and Node 20 has no compile cache of its own (module.enableCompileCache is
// Node 22) nor cached data for ES modules; a CommonJS-style bundle run through vm.Script can take
// cachedData, and createCachedData() after a run also keeps the functions that run compiled lazily.
//
// A cache never decides whether a run works: it is used only when its header names this exact bundle
// (content hash), this Node/V8 and platform (V8 itself checks little more than the source length), and V8
// refuses a damaged payload: Node 20's V8 verifies no checksum of a code cache by default, and a damaged one
// can crash it, so every cache is made and read with --verify-snapshot-checksum on (checkedByV8). V8's checksum
// costs a fraction of the ~1.2 ms a SHA-256 of the 1.8 MB payload took at every start. Anything else is ignored
// and replaced.
//
// Hashing the 1.8 MB bundle and checking that it is ASCII cost ~4 ms of every start, for an answer that only
// changes when the bundle does. So the header also records what the bundle's file looked like when it was
// hashed (size, modification time to the nanosecond, and when that was seen): a later start whose bundle has
// that size and time takes the recorded hash instead of hashing again, as git and make trust a file's stat.
// Only a bundle that was already older than FILE_TIME_SLACK when it was seen is trusted so (git's "racy"
// rule): a file rewritten soon after, in the same tick of a coarse file clock (ext4's is a few ms, FAT's 2 s),
// could keep its time and size; one written later gets a later time.
import { createHash } from 'node:crypto'
import { isAscii } from 'node:buffer'
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, type BigIntStats } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import v8 from 'node:v8'
import vm from 'node:vm'
import { quickDigest } from '../runtime/quick-hash'
import { writeFileAtomicSync } from '../runtime/store/atomic-file'
import { BUNDLE_WRAPPER_START } from './bundle-parts'

// Header: magic, flags, the bundle file's size, time and when it was seen, the bundle's hash (sha256), the
// runtime's digest (runtimeKey through quick-hash.ts: a start makes it without loading node:crypto; V8 checks
// its own version and flags in the payload as well). 104 bytes, so the payload starts 8-byte aligned in the
// buffer read from disk: V8 copies cached data that is not pointer-aligned (2 MB more at each start). The
// payload carries V8's own checksum (checkedByV8).
const MAGIC = Buffer.from('FANOUTC4')
const DIGEST = 32
const FLAGS = MAGIC.length
const SIZE = FLAGS + 8
const MTIME = SIZE + 8
const SEEN_AT = MTIME + 8
const BUNDLE_HASH = SEEN_AT + 8
const RUNTIME_HASH = BUNDLE_HASH + DIGEST
const HEADER = RUNTIME_HASH + DIGEST
export const CACHE_HEADER_BYTES = HEADER
/** Header flag: the cache was made after a run that ended well, so it holds that run's whole path. */
const COMPLETE = 1
/** Header flag: the bundle is all ASCII (decoded as latin1, several times faster than UTF-8). */
const ASCII = 2
/** How much older than the moment it was seen a bundle must be for its size and time to stand for its content. */
export const FILE_TIME_SLACK_MS = 2000

export type CacheUse =
  /** V8 took the cache. */
  | 'hit'
  /** No cache file in any folder. */
  | 'none'
  /** A file was there but not for this bundle and runtime, or cut short: compiled from source. */
  | 'stale'
  /** Our checks passed but V8 refused it (a damaged payload, other V8 flags): compiled from source. */
  | 'rejected'

export interface LoadedBundle<T> {
  exports: T
  cache: CacheUse
  /** How the bundle was matched to the cache: by the size and time the cache recorded, or by hashing it. */
  bundleCheck: 'recorded' | 'hashed'
  /** Writes a fresh cache unless this run used a complete one; `ok` says the run ended well. Never throws. */
  save(ok: boolean): void
}

export interface LoadOptions {
  /** One cache per name (the command), since each command compiles a different part of the bundle. */
  name: string
  /** Where caches live, most preferred first: read from the first that has one, written to the first that takes it. */
  dirs: string[]
  /** What the cache must have been made by; default this Node, V8, platform and architecture. */
  runtime?: string
}

const sha256 = (...parts: (Buffer | string)[]): Buffer => {
  const h = createHash('sha256')
  for (const p of parts) h.update(p)
  return h.digest()
}

export const runtimeKey = (): string => `${process.version} ${process.versions.v8} ${process.platform} ${process.arch}`

/** The cache folders for a bundle: beside it (same owner as the code), else the user's cache folder. */
export function cacheDirs(bundleFile: string, env: Record<string, string | undefined> = process.env, platform = process.platform): string[] {
  const chosen = env.FANOUT_CODE_CACHE_DIR
  if (chosen === 'off') return []
  if (chosen) return [chosen]
  const userCache =
    platform === 'win32'
      ? env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local')
      : platform === 'darwin'
        ? join(homedir(), 'Library', 'Caches')
        : env.XDG_CACHE_HOME || join(homedir(), '.cache')
  // A read-only install (e.g. a global one) still gets a cache: per user, per bundle location.
  const perBundle = quickDigest(bundleFile, 8).toString('hex')
  return [join(dirname(bundleFile), 'cache'), join(userCache, 'fanout', 'code-cache', perBundle)]
}

/** What a cache records of the bundle it was made from, as seen before the bundle was read. */
interface BundleFile {
  size: bigint
  mtimeNs: bigint
  /** When the file was stat'ed (ms since the epoch). */
  seenAt: number
}

function statBundle(fd: number): BundleFile {
  const seenAt = Date.now()
  const st: BigIntStats = fstatSync(fd, { bigint: true })
  return { size: st.size, mtimeNs: st.mtimeNs, seenAt }
}

/** Whether a bundle file seen so could not since have been rewritten without its size or time changing. */
const settled = (f: BundleFile): boolean => Number(f.mtimeNs / 1_000_000n) + FILE_TIME_SLACK_MS < f.seenAt

/** The header's record of the bundle matches this file, and can be trusted without hashing it. */
function recordedMatch(header: Buffer, now: BundleFile): boolean {
  const recorded = { size: header.readBigUInt64LE(SIZE), mtimeNs: header.readBigUInt64LE(MTIME), seenAt: Number(header.readBigUInt64LE(SEEN_AT)) }
  return recorded.size === now.size && recorded.mtimeNs === now.mtimeNs && settled(recorded)
}

const headerFits = (header: Buffer, runtimeHash: Buffer): boolean =>
  header.length >= HEADER && header.subarray(0, MAGIC.length).equals(MAGIC) && header.subarray(RUNTIME_HASH, RUNTIME_HASH + DIGEST).equals(runtimeHash)

/**
 * Every cache is made and read with V8's checksum of its payload: with the flag on, createCachedData() writes the
 * checksum and V8 refuses a payload that does not match it (cachedDataRejected). The flag counts in a code cache's
 * flag hash, so it is on exactly while one of ours is read or made: Node's own modules come with code caches made
 * without it, and a module of Node's loaded while it was on would be compiled from source (~7 ms of a start).
 */
function checkedByV8<T>(f: () => T): T {
  v8.setFlagsFromString('--verify-snapshot-checksum')
  try {
    return f()
  } finally {
    v8.setFlagsFromString('--no-verify-snapshot-checksum')
  }
}

function readAt(fd: number, into: Buffer, position: number): number {
  let done = 0
  while (done < into.length) {
    const n = readSync(fd, into, done, into.length - done, position + done)
    if (n === 0) break
    done += n
  }
  return done
}

function tryOpen(file: string): number | undefined {
  try {
    return openSync(file, 'r')
  } catch {
    return undefined
  }
}

interface Bundle {
  source: string
  file: BundleFile
  ascii: boolean
  /** The content hash, when known: computed, or recorded by a cache whose record was trusted. */
  hash(): Buffer
  check: 'recorded' | 'hashed'
}

interface FoundCache {
  data?: Buffer
  complete: boolean
  found: boolean
}

/**
 * Reads the bundle and the first cache file there is, into one buffer: the bundle's bytes are decoded to a
 * string before the cache's payload is read over them, so the start touches 1.8 MB less fresh memory
 * (first touches of pages are most of what reading a file costs a new process). A bad first cache makes the
 * later folders be read as before.
 */
function readBundleAndCache(bundleFile: string, dirs: string[], name: string, runtimeHash: Buffer): { bundle: Bundle; found: FoundCache } {
  const bundleFd = openSync(bundleFile, 'r')
  let file: BundleFile
  let buffer: Buffer
  let bytes: Buffer
  let cacheFd: number | undefined
  let cacheIndex = -1
  let cacheSize = 0
  try {
    file = statBundle(bundleFd)
    for (let i = 0; i < dirs.length && cacheFd === undefined; i++) {
      cacheFd = tryOpen(join(dirs[i]!, `${name}.bin`))
      if (cacheFd !== undefined) cacheIndex = i
    }
    if (cacheFd !== undefined) {
      try {
        cacheSize = fstatSync(cacheFd).size
      } catch {}
    }
    const size = Number(file.size)
    buffer = Buffer.allocUnsafeSlow(Math.max(size, cacheSize - HEADER, 0))
    bytes = buffer.subarray(0, readAt(bundleFd, buffer.subarray(0, size), 0))
  } catch (err) {
    if (cacheFd !== undefined) closeSync(cacheFd)
    throw err
  } finally {
    closeSync(bundleFd)
  }
  let hash: Buffer | undefined
  const hashBundle = () => (hash ??= sha256(bytes))
  let check: Bundle['check'] = 'hashed'
  let ascii: boolean | undefined
  let found: FoundCache = { found: cacheFd !== undefined, complete: false }
  let header: Buffer | undefined
  if (cacheFd !== undefined) {
    try {
      header = Buffer.alloc(HEADER)
      if (cacheSize <= HEADER || readAt(cacheFd, header, 0) < HEADER || !headerFits(header, runtimeHash)) header = undefined
      else if (recordedMatch(header, file)) {
        hash = Buffer.from(header.subarray(BUNDLE_HASH, BUNDLE_HASH + DIGEST))
        ascii = (header[FLAGS]! & ASCII) !== 0
        check = 'recorded'
      } else if (!header.subarray(BUNDLE_HASH, BUNDLE_HASH + DIGEST).equals(hashBundle())) header = undefined
    } catch {
      header = undefined
    }
  }
  // An ASCII bundle (esbuild escapes non-ASCII) decodes as latin1 several times faster than as UTF-8.
  ascii ??= isAscii(bytes)
  hashBundle() // known from here on: the buffer's bytes may be overwritten below
  const source = bytes.toString(ascii ? 'latin1' : 'utf8')
  if (cacheFd !== undefined) {
    try {
      if (header) {
        const payload = buffer.subarray(0, cacheSize - HEADER)
        if (payload.length > 0 && readAt(cacheFd, payload, HEADER) === payload.length)
          found = { data: payload, complete: (header[FLAGS]! & COMPLETE) !== 0, found: true }
      }
    } catch {
    } finally {
      closeSync(cacheFd)
    }
    if (!found.data) found = { ...readCache(dirs.slice(cacheIndex + 1), name, hashBundle(), runtimeHash), found: true }
  }
  const bundle: Bundle = { source, file, ascii, hash: hashBundle, check }
  return { bundle, found }
}

/** The first valid cache in `dirs` for a bundle of this hash, read whole (after a bad first one: rare). */
function readCache(dirs: string[], name: string, bundleHash: Buffer, runtimeHash: Buffer): FoundCache {
  // A bad file does not end the search: when it could not be replaced (on Windows, say, while another
  // process read it), the next folder may hold a good one.
  let found = false
  for (const dir of dirs) {
    let file: Buffer
    try {
      file = readFileSync(join(dir, `${name}.bin`))
    } catch {
      continue
    }
    found = true
    const header = file.subarray(0, HEADER)
    if (file.length > HEADER && headerFits(header, runtimeHash) && header.subarray(BUNDLE_HASH, BUNDLE_HASH + DIGEST).equals(bundleHash)) {
      const data = file.subarray(HEADER)
      if (data.length > 0) return { data, complete: (file[FLAGS]! & COMPLETE) !== 0, found }
    }
  }
  return { found, complete: false }
}

function writeCache(dirs: string[], name: string, bundle: Bundle, runtimeHash: Buffer, data: Buffer, complete: boolean): void {
  const header = Buffer.alloc(HEADER)
  MAGIC.copy(header)
  header[FLAGS] = (complete ? COMPLETE : 0) | (bundle.ascii ? ASCII : 0)
  header.writeBigUInt64LE(bundle.file.size, SIZE)
  header.writeBigUInt64LE(bundle.file.mtimeNs, MTIME)
  header.writeBigUInt64LE(BigInt(bundle.file.seenAt), SEEN_AT)
  bundle.hash().copy(header, BUNDLE_HASH)
  runtimeHash.copy(header, RUNTIME_HASH)
  for (const dir of dirs) {
    const file = join(dir, `${name}.bin`)
    // Written whole under a private name, then renamed: a reader sees the old cache or the new one.
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      writeFileAtomicSync(file, Buffer.concat([header, data]), { mode: 0o600, fsync: false })
      return
    } catch {}
  }
}

// Node's CommonJS wrapper, on the bundle's first line so that line numbers still fit.
export { BUNDLE_WRAPPER_START }
const BUNDLE_WRAPPER_END = '\n})'

/**
 * The bundle compiled, not run, as a function of Node's CommonJS wrapper. The built CLI's file is already
 * wrapped (scripts/build.mjs): wrapping its text here would make V8 flatten the concatenation into a new
 * 1.8 MB string before compiling it, ~6 ms of every start.
 */
function compile(bundleFile: string, source: string, cachedData?: Buffer): vm.Script {
  return checkedByV8(
    () =>
      new vm.Script(source.startsWith(BUNDLE_WRAPPER_START) ? source : BUNDLE_WRAPPER_START + source + BUNDLE_WRAPPER_END, {
        filename: bundleFile,
        ...(cachedData ? { cachedData } : {}),
        // The bundle's one import() (of a Node built-in) resolves as in any module.
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER
      })
  )
}

/** Runs a CommonJS bundle (as Node's loader would) through the code cache and returns its exports. */
export function loadBundle<T>(bundleFile: string, opts: LoadOptions): LoadedBundle<T> {
  const runtimeHash = quickDigest(opts.runtime ?? runtimeKey(), DIGEST)
  const { bundle, found } = readBundleAndCache(bundleFile, opts.dirs, opts.name, runtimeHash)
  const script = compile(bundleFile, bundle.source, found.data)
  const cache: CacheUse = found.data ? (script.cachedDataRejected ? 'rejected' : 'hit') : found.found ? 'stale' : 'none'
  const module = { exports: {} as T }
  script.runInThisContext()(module.exports, createRequire(bundleFile), module, bundleFile, dirname(bundleFile))
  return {
    exports: module.exports,
    cache,
    bundleCheck: bundle.check,
    save(ok) {
      if (!opts.dirs.length) return
      // A complete cache is left alone, unless it had to be checked by hashing the bundle and a new one
      // would not have to be (the bundle is now old enough for its size and time to be trusted).
      const current = cache === 'hit' && (found.complete || !ok)
      if (current && (bundle.check === 'recorded' || !found.complete || !settled(bundle.file))) return
      try {
        writeCache(
          opts.dirs,
          opts.name,
          bundle,
          runtimeHash,
          checkedByV8(() => script.createCachedData()),
          ok || found.complete
        )
      } catch {}
    }
  }
}

/**
 * Writes, at build time, a cache of the bundle compiled but not run, under each name: the first run then
 * skips parsing the whole bundle (~40 ms) and compiles only the functions it calls. It counts as
 * incomplete, so that run replaces it with a cache of everything it compiled.
 */
export function primeCaches(bundleFile: string, opts: { names: string[]; dirs: string[] }): void {
  if (!opts.dirs.length) return
  const runtimeHash = quickDigest(runtimeKey(), DIGEST)
  const { bundle } = readBundleAndCache(bundleFile, [], '', runtimeHash)
  const script = compile(bundleFile, bundle.source)
  const data = checkedByV8(() => script.createCachedData())
  for (const name of opts.names) writeCache(opts.dirs, name, bundle, runtimeHash, data, false)
}
