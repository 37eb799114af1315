// The code cache may only ever make start-up faster: a stale, damaged or foreign cache must never change
// what runs. (V8 alone would take a cache made for another bundle of the same length and run the old
// code, and by default it does not notice a damaged payload: the caches are checksummed by V8 on request.)
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { buildSync } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { quickDigest } from '../runtime/quick-hash'
import { BUNDLE_WRAPPER_START, CACHE_HEADER_BYTES, cacheDirs, FILE_TIME_SLACK_MS, loadBundle, primeCaches, runtimeKey } from './code-cache'

interface Exports {
  value(): string
}

// Enough code that the cache has a body worth damaging; `value` is what a test checks ran.
const bundleText = (value: string) =>
  `exports.value = function () { return ${JSON.stringify(value)} }\n` +
  Array.from({ length: 50 }, (_, i) => `exports.f${i} = function (x) { return x.map((y) => y * ${i}).filter(Boolean) }`).join('\n')

// Within one process V8 keeps what it compiled for a source (its compilation cache) and never looks at the cached
// data again: whether V8 takes a cache file shows only in a fresh process, as each start of `fanout` is.
const freshDir = mkdtempSync(join(tmpdir(), 'fanout-code-cache-module-'))
const freshModule = join(freshDir, 'code-cache.cjs')
buildSync({ entryPoints: [join(__dirname, 'code-cache.ts')], outfile: freshModule, bundle: true, platform: 'node', format: 'cjs', logLevel: 'silent' })

/** In a fresh process: the bundle loaded through its cache, its value, and (with `save`) the cache saved as the launcher does. */
function loadFresh(bundle: string, cacheDir: string, save = false): { cache: string; value: string } {
  const script = `
    const { loadBundle } = require(${JSON.stringify(freshModule)})
    const loaded = loadBundle(${JSON.stringify(bundle)}, { name: 'run', dirs: [${JSON.stringify(cacheDir)}] })
    const value = loaded.exports.value()
    if (${save}) loaded.save(true)
    process.stdout.write(JSON.stringify({ cache: loaded.cache, value }))`
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' })
  expect(r.status, r.stderr).toBe(0)
  return JSON.parse(r.stdout)
}

function setup(value = 'old') {
  const dir = mkdtempSync(join(tmpdir(), 'fanout-code-cache-'))
  const bundle = join(dir, 'bundle.cjs')
  writeFileSync(bundle, bundleText(value))
  const cacheDir = join(dir, 'cache')
  /** Gives the bundle a modification time `ago` ms in the past: old enough, its size and time stand for its content. */
  const age = (ago = 60_000) => {
    const at = new Date(Date.now() - ago)
    utimesSync(bundle, at, at)
  }
  const load = (opts: { dirs?: string[]; runtime?: string } = {}) =>
    loadBundle<Exports>(bundle, { name: 'run', dirs: opts.dirs ?? [cacheDir], ...(opts.runtime ? { runtime: opts.runtime } : {}) })
  /** A load that runs the bundle's code and saves, as the launcher does after a command. */
  const run = (opts: { dirs?: string[]; runtime?: string; ok?: boolean } = {}) => {
    const loaded = load(opts)
    const value = loaded.exports.value()
    loaded.save(opts.ok ?? true)
    return { cache: loaded.cache, value }
  }
  /** The next run cannot use the cache and runs `value` from the bundle; the run after it uses the cache it wrote. */
  const expectRebuilt = (value: string) => {
    expect(run()).toEqual({ cache: 'stale', value })
    expect(run()).toEqual({ cache: 'hit', value })
  }
  return { dir, bundle, cacheDir, cacheFile: join(cacheDir, 'run.bin'), age, load, run, expectRebuilt }
}

describe('loadBundle', () => {
  it('writes a cache after the first run and uses it on the next', () => {
    const t = setup()
    expect(t.run()).toEqual({ cache: 'none', value: 'old' })
    expect(existsSync(t.cacheFile)).toBe(true)
    expect(t.run()).toEqual({ cache: 'hit', value: 'old' })
    expect(readdirSync(t.cacheDir)).toEqual(['run.bin']) // written under a temporary name, then renamed
  })

  it('runs the new code when the bundle changed, even to text of the same length', () => {
    const t = setup('old')
    t.run()
    writeFileSync(t.bundle, bundleText('new'))
    t.expectRebuilt('new')
  })

  it('takes the recorded hash of a bundle whose size and time are those the cache recorded, once it is old enough', () => {
    const t = setup('old')
    t.age()
    expect(t.run()).toEqual({ cache: 'none', value: 'old' })
    expect(t.load().bundleCheck).toBe('recorded')
    expect(t.run()).toEqual({ cache: 'hit', value: 'old' })
    // A bundle written since has another time (or size): it is hashed, and its new code runs.
    writeFileSync(t.bundle, bundleText('new'))
    expect(t.load().bundleCheck).toBe('hashed')
    t.expectRebuilt('new')
  })

  it('hashes a bundle seen while it was newer than the slack, then records it again once it is old enough', () => {
    const t = setup('old')
    expect(t.run()).toEqual({ cache: 'none', value: 'old' }) // the bundle was just written: its time could repeat
    expect(t.load().bundleCheck).toBe('hashed')
    // Rewritten to text of the same length within the same tick of a coarse file clock: the hash still tells.
    const { mtime } = statSync(t.bundle)
    writeFileSync(t.bundle, bundleText('new'))
    utimesSync(t.bundle, mtime, mtime)
    t.expectRebuilt('new')
    const rewritten = statSync(t.cacheFile).ino
    expect(t.run()).toEqual({ cache: 'hit', value: 'new' })
    expect(statSync(t.cacheFile).ino).toBe(rewritten) // complete, and a new one would not record more
    t.age(FILE_TIME_SLACK_MS + 1000)
    expect(t.run()).toEqual({ cache: 'hit', value: 'new' }) // hashed, and rewritten with a record that holds
    expect(statSync(t.cacheFile).ino).not.toBe(rewritten)
    expect(t.load().bundleCheck).toBe('recorded')
  })

  it('decodes a recorded non-ASCII bundle as UTF-8', () => {
    const t = setup('caf\u00e9 \u2713')
    t.age()
    expect(t.run()).toEqual({ cache: 'none', value: 'caf\u00e9 \u2713' })
    expect(t.run()).toEqual({ cache: 'hit', value: 'caf\u00e9 \u2713' })
    expect(t.load().bundleCheck).toBe('recorded')
  })

  it('runs a bundle already in the CommonJS wrapper (as the build writes it) as it is, with its cache', () => {
    const t = setup()
    writeFileSync(t.bundle, `${BUNDLE_WRAPPER_START}${bundleText('wrapped')}\n})\n//# sourceMappingURL=bundle.cjs.map\n`)
    expect(t.run()).toEqual({ cache: 'none', value: 'wrapped' })
    expect(t.run()).toEqual({ cache: 'hit', value: 'wrapped' })
  })

  it('ignores a damaged cache and replaces it: V8 checks its checksum', () => {
    const t = setup()
    t.run()
    const bytes = readFileSync(t.cacheFile)
    bytes[Math.floor(bytes.length * 0.6)]! ^= 0xff
    writeFileSync(t.cacheFile, bytes)
    expect(loadFresh(t.bundle, t.cacheDir, true)).toEqual({ cache: 'rejected', value: 'old' })
    expect(loadFresh(t.bundle, t.cacheDir)).toEqual({ cache: 'hit', value: 'old' })
  })

  it('the damaged payload is what V8 refuses: the same bytes undamaged are taken', () => {
    const t = setup()
    t.run()
    const whole = readFileSync(t.cacheFile)
    for (const at of [0.2, 0.5, 0.9]) {
      const bytes = Buffer.from(whole)
      bytes[CACHE_HEADER_BYTES + Math.floor((bytes.length - CACHE_HEADER_BYTES) * at)]! ^= 0x01
      writeFileSync(t.cacheFile, bytes)
      expect(loadFresh(t.bundle, t.cacheDir)).toEqual({ cache: 'rejected', value: 'old' })
      writeFileSync(t.cacheFile, whole)
      expect(loadFresh(t.bundle, t.cacheDir)).toEqual({ cache: 'hit', value: 'old' })
    }
  })

  it('ignores a truncated, empty or foreign file', () => {
    const t = setup()
    t.run()
    const whole = readFileSync(t.cacheFile)
    // Cut short, the payload no longer has the length V8 wrote in it: refused by V8, the others by the header.
    const cases: Array<[Buffer, string]> = [
      [whole.subarray(0, whole.length - 100), 'rejected'],
      [whole.subarray(0, CACHE_HEADER_BYTES), 'stale'],
      [Buffer.alloc(0), 'stale'],
      [Buffer.from('not a cache at all'), 'stale']
    ]
    for (const [text, use] of cases) {
      writeFileSync(t.cacheFile, text)
      expect(loadFresh(t.bundle, t.cacheDir)).toEqual({ cache: use, value: 'old' })
    }
  })

  it('ignores a cache made by another Node or V8', () => {
    const t = setup()
    t.run({ runtime: 'v18.0.0 10.2 linux x64' })
    expect(t.run()).toEqual({ cache: 'stale', value: 'old' })
  })

  it('falls back to the next folder when the first cannot be written, and runs without a cache when none can', () => {
    const t = setup()
    const blocker = join(t.dir, 'a-file')
    writeFileSync(blocker, '')
    const readOnly = join(blocker, 'cache') // below a file: mkdir fails, even for root
    const second = join(t.dir, 'user-cache')
    expect(t.run({ dirs: [readOnly, second] })).toEqual({ cache: 'none', value: 'old' })
    expect(existsSync(join(second, 'run.bin'))).toBe(true)
    expect(t.run({ dirs: [readOnly, second] })).toEqual({ cache: 'hit', value: 'old' })
    expect(t.run({ dirs: [readOnly] })).toEqual({ cache: 'none', value: 'old' })
    expect(t.run({ dirs: [] })).toEqual({ cache: 'none', value: 'old' })
  })

  it('uses a good cache in the next folder when the first holds a bad one it could not replace', () => {
    const t = setup()
    const second = join(t.dir, 'user-cache')
    t.run({ dirs: [second] })
    mkdirSync(t.cacheDir)
    writeFileSync(t.cacheFile, 'left behind by an older build')
    expect(t.load({ dirs: [t.cacheDir, second] }).cache).toBe('hit')
  })

  it('starts the payload 8-byte aligned in the file, so V8 takes it without a copy', () => {
    const t = setup()
    t.run()
    const file = readFileSync(t.cacheFile)
    expect(CACHE_HEADER_BYTES % 8).toBe(0)
    // The header ends with the runtime's digest (the last thing it records): V8's data starts right there.
    const runtimeHash = file.subarray(CACHE_HEADER_BYTES - 32, CACHE_HEADER_BYTES)
    expect(runtimeHash.equals(quickDigest(runtimeKey(), 32))).toBe(true)
    expect(file.length).toBeGreaterThan(CACHE_HEADER_BYTES + 1000)
  })

  it('replaces a cache from a failed run after a run that ends well, and leaves a complete one alone', () => {
    const t = setup()
    // Each write renames a new file into place, so a new inode means the cache was rewritten.
    const state = () => ({ ino: statSync(t.cacheFile).ino, complete: (readFileSync(t.cacheFile)[8]! & 1) === 1 })
    t.run({ ok: false })
    const partial = state()
    expect(partial.complete).toBe(false)
    t.run({ ok: false })
    expect(state()).toEqual(partial)
    t.run({ ok: true })
    const complete = state()
    expect(complete.complete).toBe(true)
    expect(complete.ino).not.toBe(partial.ino)
    t.run({ ok: false })
    t.run({ ok: true })
    expect(state()).toEqual(complete)
  })
})

describe('primeCaches', () => {
  it('gives the first run a cache of the compiled bundle, which that run then completes', () => {
    const t = setup()
    primeCaches(t.bundle, { names: ['run', 'agents'], dirs: [t.cacheDir] })
    expect(readdirSync(t.cacheDir).sort()).toEqual(['agents.bin', 'run.bin'])
    expect(readFileSync(t.cacheFile)[8]! & 1).toBe(0)
    expect(t.run()).toEqual({ cache: 'hit', value: 'old' })
    expect(readFileSync(t.cacheFile)[8]! & 1).toBe(1)
    expect(t.run()).toEqual({ cache: 'hit', value: 'old' })
  })
})

describe('cacheDirs', () => {
  it('keeps the cache beside the bundle, then in the user cache folder of each platform', () => {
    expect(cacheDirs('/opt/fanout/out/cli/fanout.cjs', { XDG_CACHE_HOME: '/home/u/.cache' }, 'linux')).toEqual([
      '/opt/fanout/out/cli/cache',
      expect.stringMatching(/^\/home\/u\/\.cache\/fanout\/code-cache\/[0-9a-f]{16}$/)
    ])
    expect(cacheDirs('/x/fanout.cjs', {}, 'darwin')[1]).toMatch(/Library\/Caches\/fanout\/code-cache\//)
    expect(cacheDirs('/x/fanout.cjs', { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32')[1]).toContain('C:\\Users\\u\\AppData\\Local')
  })

  it('uses FANOUT_CODE_CACHE_DIR alone when set, and no cache when it is "off"', () => {
    expect(cacheDirs('/x/fanout.cjs', { FANOUT_CODE_CACHE_DIR: '/tmp/cc' }, 'linux')).toEqual(['/tmp/cc'])
    expect(cacheDirs('/x/fanout.cjs', { FANOUT_CODE_CACHE_DIR: 'off' }, 'linux')).toEqual([])
  })
})
