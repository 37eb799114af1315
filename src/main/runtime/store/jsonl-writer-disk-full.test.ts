// A transcript on a disk that fills and frees while it is written (a real small tmpfs): the writer says once
// that it is paused, keeps only whole lines on disk meanwhile, goes on by itself when space returns, and in
// the end every value is there once, in order — no torn line, nothing written twice, nothing lost.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { waitUntil } from '../tools/test-kit'
import { JsonlWriter } from './jsonl-writer'

const isRoot = process.getuid?.() === 0
const reason = 'mounting a tmpfs needs root (CI and the dev machines run as root)'

/** Fills the file system at `dir` with one file until a write is refused; returns that file. */
function fill(dir: string): string {
  const file = join(dir, 'filler')
  const chunk = Buffer.alloc(4096, 120)
  let data = Buffer.alloc(0)
  for (;;) {
    const next = Buffer.concat([data, chunk])
    try {
      writeFileSync(file, next)
      data = next
    } catch {
      writeFileSync(file, data) // as full as it gets
      // The last few bytes: what a small write still finds room for.
      for (let n = 1024; n >= 1; n = Math.floor(n / 2))
        try {
          writeFileSync(file, Buffer.alloc(n, 120), { flag: 'a' })
        } catch {}
      return file
    }
  }
}

const wholeLines = (file: string) => {
  const text = readFileSync(file, 'utf8')
  expect(text === '' || text.endsWith('\n'), 'the file ends with a complete line').toBe(true)
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { n?: number; type?: string })
}

describe.skipIf(!isRoot)(`JsonlWriter on a disk that fills and frees (${isRoot ? 'tmpfs' : `skipped: ${reason}`})`, () => {
  it('pauses with one plain notice, keeps whole lines only, goes on when space returns, and loses or repeats nothing', { timeout: 60_000 }, async () => {
    const mountPoint = mkdtempSync(join(tmpdir(), 'fanout-full-disk-'))
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mountPoint])
    try {
      const file = join(mountPoint, 'agent.jsonl')
      const errors: Error[] = []
      let recovered = 0
      const w = new JsonlWriter<{ n: number; pad: string }>(file, {
        header: () => ({ type: 'header' }),
        flushDelayMs: 1,
        retryDelayMs: 20,
        onError: (e) => errors.push(e),
        onRecover: () => recovered++
      })
      const pad = 'x'.repeat(700) // a line is bigger than what the filled disk has left: every write fails part way
      let n = 0
      for (; n < 20; n++) w.append({ n, pad })
      await w.flush()
      const filler = fill(mountPoint)

      // Full: batches fail; the writer says so once, and the file holds whole lines only.
      for (let k = 0; k < 5; k++) {
        for (let j = 0; j < 30; j++, n++) w.append({ n, pad })
        await expect(w.flush()).rejects.toThrow(/ENOSPC|no space/i)
      }
      expect(errors).toHaveLength(1)
      expect(errors[0].message).toMatch(/^Could not write .*agent\.jsonl: .*(ENOSPC|no space)/i)
      const during = wholeLines(file)
      expect(during.slice(1).map((v) => v.n)).toEqual(Array.from({ length: during.length - 1 }, (_, i) => i))

      // Space returns: writing goes on by itself (no new append needed), and says so.
      rmSync(filler)
      await waitUntil(() => recovered === 1, 'the writer to go on once space returned')
      for (let j = 0; j < 20; j++, n++) w.append({ n, pad })
      await w.close()
      const after = wholeLines(file)
      expect(after[0]).toEqual({ type: 'header' })
      expect(after.slice(1).map((v) => v.n)).toEqual(Array.from({ length: n }, (_, i) => i))
      expect(errors).toHaveLength(1)
    } finally {
      execFileSync('umount', ['-l', mountPoint])
      rmSync(mountPoint, { recursive: true, force: true })
    }
  })
})
