// A transcript on a disk that fills and frees while it is written (a real small tmpfs): the writer says once
// that it is paused, keeps only whole lines on disk meanwhile, goes on by itself when space returns, and in
// the end every value is there once, in order — no torn line, nothing written twice, nothing lost.
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { waitUntil } from '../tools/test-kit'
import { CAN_MOUNT, CANNOT_MOUNT_REASON, fillDisk, mountSmallDisk } from './testing/full-disk'
import { JsonlWriter } from './jsonl-writer'

const wholeLines = (file: string) => {
  const text = readFileSync(file, 'utf8')
  expect(text === '' || text.endsWith('\n'), 'the file ends with a complete line').toBe(true)
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { n?: number; type?: string })
}

describe.skipIf(!CAN_MOUNT)(`JsonlWriter on a disk that fills and frees (${CAN_MOUNT ? 'tmpfs' : `skipped: ${CANNOT_MOUNT_REASON}`})`, () => {
  it('pauses with one plain notice, keeps whole lines only, goes on when space returns, and loses or repeats nothing', { timeout: 60_000 }, async () => {
    const { dir: mountPoint, unmount } = mountSmallDisk('256k')
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
      const filler = fillDisk(mountPoint)

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
      unmount()
    }
  })
})
