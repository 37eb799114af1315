// Sibling searches of one folder share one listing while it is under way; nothing older is ever served.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { listFiles, noteWrite } from './list-files'

const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-list-files-')))
for (let i = 0; i < 20; i++) writeFileSync(join(root, `f${i}.ts`), '')
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('listFiles shared by sibling searches', () => {
  it('sixteen searches started together get one listing', async () => {
    const all = await Promise.all(Array.from({ length: 16 }, () => listFiles(root, null)))
    for (const l of all) expect(l.files).toBe(all[0].files)
    expect(all[0].files).toHaveLength(20)
  })

  it('a search after a listing finished, or after the runtime wrote, lists afresh', async () => {
    const before = await listFiles(root, null)
    writeFileSync(join(root, 'late.ts'), '')
    const after = await listFiles(root, null)
    expect(after.files).toContain('late.ts')
    const running = listFiles(root, null)
    noteWrite()
    writeFileSync(join(root, 'written.ts'), '')
    const next = await listFiles(root, null)
    expect(next.files).toContain('written.ts')
    expect((await running).files).not.toBe(next.files)
    expect(before.files).not.toContain('late.ts')
  })

  it("one search's abort leaves the listing to the others", async () => {
    const stop = new AbortController()
    const aborted = listFiles(root, null, stop.signal)
    const other = listFiles(root, null)
    stop.abort(new Error('stopped'))
    await expect(aborted).rejects.toThrow('stopped')
    expect((await other).files.length).toBeGreaterThan(20)
  })
})
