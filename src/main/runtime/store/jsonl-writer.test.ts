import { existsSync, readFileSync } from 'node:fs'
import { open, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { JsonlWriter } from './jsonl-writer'
import { tempDataDir } from './test-fixtures'
import { waitUntil } from '../tools/test-kit'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())

const lines = async (file: string) =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))

describe('JsonlWriter', () => {
  it('writes a header once, then every value in append order, across many batches', async () => {
    const file = join(dir, 'a', 'b.jsonl')
    const w = new JsonlWriter<{ n: number }>(file, { header: () => ({ type: 'header' }), flushDelayMs: 1 })
    for (let n = 0; n < 5000; n++) {
      w.append({ n })
      if (n % 97 === 0) await new Promise((r) => setTimeout(r, 0)) // let some batches go out mid-stream
    }
    await w.close()
    const got = await lines(file)
    expect(got[0]).toEqual({ type: 'header' })
    expect(got.slice(1).map((v) => v.n)).toEqual(Array.from({ length: 5000 }, (_, i) => i))
  })

  it('sixteen writers with lines waiting share one timer, and each is written within its delay', async () => {
    const set = vi.spyOn(globalThis, 'setTimeout')
    try {
      const writers = Array.from({ length: 16 }, (_, i) => new JsonlWriter<{ n: number }>(join(dir, `t${i}.jsonl`), { flushDelayMs: 5 }))
      for (const [i, w] of writers.entries()) w.append({ n: i })
      expect(set.mock.calls.filter(([, ms]) => ms === 5)).toHaveLength(1)
      // Written by the tick alone, no flush asked for.
      const written = (file: string) => existsSync(file) && readFileSync(file, 'utf8').endsWith('}\n')
      await waitUntil(() => writers.every((w) => written(w.file)), 'every writer written by the tick')
      for (const [i, w] of writers.entries()) expect(await lines(w.file)).toEqual([{ n: i }])
      // A flush that takes the last waiting writer off the tick leaves no timer behind to keep the process up.
      const cleared = vi.spyOn(globalThis, 'clearTimeout')
      writers[0].append({ n: 99 })
      const tick = set.mock.results.at(-1)!.value
      await writers[0].flush()
      expect(cleared).toHaveBeenCalledWith(tick)
      cleared.mockRestore()
      await Promise.all(writers.map((w) => w.close()))
    } finally {
      set.mockRestore()
    }
  })

  it('keeps appending to an existing file without a second header, and ends a torn last line first', async () => {
    const file = join(dir, 't.jsonl')
    await writeFile(file, '{"type":"header"}\n{"n":1}\n{"n":2, "tor')
    const w = new JsonlWriter(file, { header: () => ({ type: 'header' }) })
    w.append({ n: 3 })
    await w.close()
    expect(await readFile(file, 'utf8')).toBe('{"type":"header"}\n{"n":1}\n{"n":2, "tor\n{"n":3}\n')
  })

  it('knows the length it left the file at (what a checkpoint records), and says it does not while lines wait', async () => {
    const { stat } = await import('node:fs/promises')
    const file = join(dir, 'len.jsonl')
    await writeFile(file, '{"type":"header"}\n{"n":1, "to')
    const w = new JsonlWriter(file, { header: () => ({ type: 'header' }), flushDelayMs: 1000 })
    expect(w.writtenLength).toBeNull() // not opened yet
    w.append({ n: 2 })
    expect(w.writtenLength).toBeNull() // a line waits
    await w.flush()
    expect(w.writtenLength).toBe((await stat(file)).size)
    await w.release()
    w.append({ n: 3, text: 'ünïcode' })
    await w.close()
    expect(w.writtenLength).toBe((await stat(file)).size)
    const fresh = new JsonlWriter(join(dir, 'new.jsonl'), { header: () => ({ type: 'header' }) })
    fresh.append({ n: 1 })
    await fresh.close()
    expect(fresh.writtenLength).toBe((await stat(join(dir, 'new.jsonl'))).size)
  })

  it('a file opened ahead is written with its header first, and one nothing was written to is removed', async () => {
    const { existsSync } = await import('node:fs')
    const used = join(dir, 'used.jsonl')
    const w = new JsonlWriter(used, { header: () => ({ type: 'header' }) })
    w.prepare()
    w.append({ n: 1 })
    await w.flush()
    await w.discard() // not unused: kept
    expect(await lines(used)).toEqual([{ type: 'header' }, { n: 1 }])
    const ahead = join(dir, 'never.jsonl')
    const never = new JsonlWriter(ahead, { header: () => ({ type: 'header' }) })
    never.prepare()
    await waitUntil(() => existsSync(ahead), 'the file opened ahead') // there, empty
    expect(never.unused).toBe(true)
    await never.discard()
    expect(existsSync(ahead)).toBe(false)
    // A file that was there before is never removed.
    const found = join(dir, 'found.jsonl')
    await writeFile(found, '')
    const other = new JsonlWriter(found, { header: () => ({ type: 'header' }) })
    other.prepare()
    await other.discard()
    expect(existsSync(found)).toBe(true)
  })

  it('with openNow, a file prepared ahead is there at once (no wait on the thread pool), written whole through its fd', async () => {
    const { existsSync, readFileSync, writeFileSync } = await import('node:fs')
    const file = join(dir, 'now.jsonl')
    const w = new JsonlWriter<{ n: number; pad?: string }>(file, { header: () => ({ type: 'header' }), openNow: () => true, flushDelayMs: 1000 })
    w.prepare()
    expect(existsSync(file)).toBe(true) // made on the calling thread, before any turn of the event loop
    expect(readFileSync(file, 'utf8')).toBe('') // the header goes with the first batch
    w.append({ n: 1 })
    await w.flush()
    // A batch past what is written on the calling thread goes through the fd's own asynchronous write.
    w.append({ n: 2, pad: 'x'.repeat(100 * 1024) })
    await w.release()
    w.append({ n: 3 }) // opened again after release: no second header
    await w.close()
    expect((await lines(file)).map((l) => l.n ?? l.type)).toEqual(['header', 1, 2, 3])
    // Nothing written to it: removed, as a file opened through the pool is.
    const never = join(dir, 'never-now.jsonl')
    const unused = new JsonlWriter(never, { header: () => ({ type: 'header' }), openNow: () => true })
    unused.prepare()
    expect(existsSync(never)).toBe(true)
    await unused.discard()
    expect(existsSync(never)).toBe(false)
    // A file already there, or a folder not there yet: the open through the pool, with its rules (torn line, mkdir).
    const torn = join(dir, 'torn-now.jsonl')
    writeFileSync(torn, '{"type":"header"}\n{"n":1, "to')
    const again = new JsonlWriter(torn, { header: () => ({ type: 'header' }), openNow: () => true })
    again.prepare()
    again.append({ n: 2 })
    await again.close()
    expect(readFileSync(torn, 'utf8')).toBe('{"type":"header"}\n{"n":1, "to\n{"n":2}\n')
    const deep = join(dir, 'not', 'yet', 'there.jsonl')
    const later = new JsonlWriter(deep, { header: () => ({ type: 'header' }), openNow: () => true })
    later.prepare()
    later.append({ n: 1 })
    await later.close()
    expect(await lines(deep)).toEqual([{ type: 'header' }, { n: 1 }])
  })

  it('merges values that the merge hook folds together, and only unwritten ones', async () => {
    const file = join(dir, 'm.jsonl')
    const w = new JsonlWriter<{ t: string }>(file, { merge: (a, b) => ({ t: a.t + b.t }), flushDelayMs: 1000 })
    const a = { t: 'a' }
    expect(w.append(a)).toBe(a) // the line each value is written as
    expect(w.append({ t: 'b' })).toEqual({ t: 'ab' })
    await w.flush()
    const c = { t: 'c' }
    expect(w.append(c)).toBe(c)
    await w.close()
    expect(await lines(file)).toEqual([{ t: 'ab' }, { t: 'c' }])
  })

  it('reports a failed write, keeps the batch, and writes it once the problem is gone', async () => {
    const blocked = join(dir, 'sub')
    await writeFile(blocked, 'a file where the folder should be')
    const errors: string[] = []
    const file = join(blocked, 'x.jsonl')
    const w = new JsonlWriter(file, { header: () => ({ type: 'header' }), onError: (e) => errors.push(e.message) })
    w.append({ n: 1 })
    await expect(w.flush()).rejects.toThrow(`Could not write ${file}`)
    w.append({ n: 2 })
    await expect(w.flush()).rejects.toThrow(`Could not write ${file}`)
    expect(errors).toHaveLength(1) // one report per outage
    expect(errors[0]).toContain(file)
    await rm(blocked)
    w.append({ n: 3 })
    await w.close()
    expect(await lines(file)).toEqual([{ type: 'header' }, { n: 1 }, { n: 2 }, { n: 3 }])
  })

  it('drops only a value that cannot be serialized, and says so', async () => {
    const file = join(dir, 'c.jsonl')
    const errors: string[] = []
    const w = new JsonlWriter<unknown>(file, { onError: (e) => errors.push(e.message) })
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    w.append({ n: 1 })
    w.append(cyclic)
    w.append({ n: 2 })
    await w.close()
    expect(await lines(file)).toEqual([{ n: 1 }, { n: 2 }])
    expect(errors[0]).toMatch(/Dropped a value that cannot be written/)
  })

  it('reopens the file after release, and refuses appends after close', async () => {
    const file = join(dir, 'r.jsonl')
    const w = new JsonlWriter(file)
    w.append({ n: 1 })
    await w.release()
    w.append({ n: 2 })
    await w.close()
    expect(await lines(file)).toEqual([{ n: 1 }, { n: 2 }])
    expect(() => w.append({ n: 3 })).toThrow(/closed/)
  })

  it('a first write that fails (disk full) and an agent that ends meanwhile still leave one header', async () => {
    // The file is created, its first write (header and first batch) fails, and the agent's end releases
    // the writer (the recorder does on agent_end); a later event (the agent resumed, the disk freed) opens
    // the file again and finds it empty.
    const file = join(dir, 'agent.jsonl')
    const probe = await open(join(dir, 'probe'), 'w')
    const fileHandle = Object.getPrototypeOf(probe) as { appendFile: (...args: unknown[]) => Promise<void> }
    await probe.close()
    const full = vi
      .spyOn(fileHandle, 'appendFile')
      .mockRejectedValueOnce(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))
    // Larger than a batch written on the calling thread: this one goes through the pool (FileHandle.appendFile).
    const big = 'x'.repeat(70_000)
    try {
      const w = new JsonlWriter<{ n: number; big?: string }>(file, { header: () => ({ type: 'header' }), onError: () => {} })
      w.append({ n: 1, big })
      await expect(w.release()).rejects.toThrow('no space left')
      w.append({ n: 2 })
      await w.close()
    } finally {
      full.mockRestore()
    }
    expect(await lines(file)).toEqual([{ type: 'header' }, { n: 1, big }, { n: 2 }])
  })

  it('a small batch written on the calling thread that fails part way leaves whole lines only, and goes out once', async () => {
    const fs = (await import('node:module')).createRequire(import.meta.url)('node:fs') as typeof import('node:fs')
    const { syncBuiltinESMExports } = await import('node:module')
    const file = join(dir, 'part.jsonl')
    const errors: string[] = []
    const real = fs.writeSync
    let calls = 0
    // The first write lands 10 bytes, then the disk is full: a torn line, as ENOSPC leaves one.
    const spy = vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, buf: Buffer, at: number, len: number) => {
      if (++calls === 1) return real(fd, buf, at, Math.min(len, 10))
      if (calls === 2) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
      return real(fd, buf, at, len)
    }) as typeof fs.writeSync)
    syncBuiltinESMExports()
    try {
      const w = new JsonlWriter<{ n: number }>(file, { header: () => ({ type: 'header' }), onError: (e) => errors.push(e.message) })
      w.append({ n: 1 })
      await expect(w.flush()).rejects.toThrow('no space left')
      expect(await readFile(file, 'utf8')).toBe('') // cut back: no torn line
      w.append({ n: 2 })
      await w.close()
    } finally {
      spy.mockRestore()
      syncBuiltinESMExports()
    }
    expect(calls).toBeGreaterThan(2)
    expect(errors).toHaveLength(1)
    expect(await lines(file)).toEqual([{ type: 'header' }, { n: 1 }, { n: 2 }])
  })
})
