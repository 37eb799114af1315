// Loads the CLI bundle with a V8 code cache. Compiling ~2 MB of JavaScript is the largest part of
// `fanout run`'s start-up, and Node 20 has no compile cache of its own (module.enableCompileCache is
// Node 22) nor cached data for ES modules; a CommonJS-style bundle run through vm.Script can take
// cachedData, and createCachedData() after a run also keeps the functions that run compiled lazily.
//
// A cache never decides whether a run works: it is used only when its header names this exact bundle
// (content hash), this Node/V8 and platform, and its payload hash matches (V8 itself checks little more
// than the source length, and a damaged payload can crash it). Anything else is ignored and replaced.
import { createHash } from 'node:crypto'
import { isAscii } from 'node:buffer'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import vm from 'node:vm'
import { writeFileAtomicSync } from '../runtime/store/atomic-file'

// Header: magic, flags, padding, the key, the payload's hash. 80 bytes, so the payload starts 8-byte aligned
// in the buffer read from disk: V8 copies cached data that is not pointer-aligned (2 MB more at each start).
const MAGIC = Buffer.from('FANOUTC2')
const DIGEST = 32
const FLAGS = MAGIC.length
const KEY = 16
const PAYLOAD_HASH = KEY + DIGEST
const HEADER = PAYLOAD_HASH + DIGEST
export const CACHE_HEADER_BYTES = HEADER
/** Header flag: the cache was made after a run that ended well, so it holds that run's whole path. */
const COMPLETE = 1

export type CacheUse =
  /** V8 took the cache. */
  | 'hit'
  /** No cache file in any folder. */
  | 'none'
  /** A file was there but not for this bundle and runtime, or damaged: compiled from source. */
  | 'stale'
  /** Our checks passed but V8 refused it (e.g. other V8 flags): compiled from source. */
  | 'rejected'

export interface LoadedBundle<T> {
  exports: T
  cache: CacheUse
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
  const perBundle = sha256(bundleFile).toString('hex').slice(0, 16)
  return [join(dirname(bundleFile), 'cache'), join(userCache, 'fanout', 'code-cache', perBundle)]
}

function readCache(dirs: string[], name: string, key: Buffer): { data?: Buffer; complete: boolean; found: boolean } {
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
    const valid =
      file.length > HEADER &&
      file.subarray(0, MAGIC.length).equals(MAGIC) &&
      file.subarray(KEY, KEY + DIGEST).equals(key) &&
      file.subarray(PAYLOAD_HASH, HEADER).equals(sha256(file.subarray(HEADER)))
    found = true
    if (valid) return { data: file.subarray(HEADER), complete: (file[FLAGS]! & COMPLETE) !== 0, found }
  }
  return { found, complete: false }
}

function writeCache(dirs: string[], name: string, key: Buffer, data: Buffer, complete: boolean): void {
  const header = Buffer.alloc(HEADER)
  MAGIC.copy(header)
  header[FLAGS] = complete ? COMPLETE : 0
  key.copy(header, KEY)
  sha256(data).copy(header, PAYLOAD_HASH)
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

/** The bundle's text, and the key its caches are filed under (its content hash with the runtime's). */
function readBundle(bundleFile: string, runtime: string): { source: string; key: Buffer } {
  const bytes = readFileSync(bundleFile)
  // An ASCII bundle (esbuild escapes non-ASCII) decodes as latin1 several times faster than as UTF-8.
  return { source: bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8'), key: sha256(bytes, '\0', runtime) }
}

/** The bundle compiled, not run, in Node's CommonJS wrapper (on the first line, so line numbers still fit). */
function compile(bundleFile: string, source: string, cachedData?: Buffer): vm.Script {
  return new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundleFile,
    ...(cachedData ? { cachedData } : {}),
    // The bundle's one import() (of a Node built-in) resolves as in any module.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER
  })
}

/** Runs a CommonJS bundle (as Node's loader would) through the code cache and returns its exports. */
export function loadBundle<T>(bundleFile: string, opts: LoadOptions): LoadedBundle<T> {
  const { source, key } = readBundle(bundleFile, opts.runtime ?? runtimeKey())
  const found = opts.dirs.length ? readCache(opts.dirs, opts.name, key) : { found: false, complete: false }
  const script = compile(bundleFile, source, found.data)
  const cache: CacheUse = found.data ? (script.cachedDataRejected ? 'rejected' : 'hit') : found.found ? 'stale' : 'none'
  const module = { exports: {} as T }
  script.runInThisContext()(module.exports, createRequire(bundleFile), module, bundleFile, dirname(bundleFile))
  return {
    exports: module.exports,
    cache,
    save(ok) {
      if (!opts.dirs.length || (cache === 'hit' && (found.complete || !ok))) return
      try {
        writeCache(opts.dirs, opts.name, key, script.createCachedData(), ok)
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
  const { source, key } = readBundle(bundleFile, runtimeKey())
  const data = compile(bundleFile, source).createCachedData()
  for (const name of opts.names) writeCache(opts.dirs, name, key, data, false)
}
