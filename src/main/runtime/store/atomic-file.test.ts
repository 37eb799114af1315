import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { writeFileAtomic, writeFileAtomicSync } from './atomic-file'

const dirs: string[] = []
const folder = async () => {
  const d = await mkdtemp(join(tmpdir(), 'atomic-file-'))
  dirs.push(d)
  return d
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

describe('the one atomic write', () => {
  it('async and sync alike replace a link at the name instead of writing through it, and leave no temp file', async () => {
    const d = await folder()
    const outside = join(d, 'outside')
    await writeFile(outside, 'keep')
    for (const [name, write] of [
      ['a', (f: string) => writeFileAtomic(f, 'new')],
      ['b', async (f: string) => writeFileAtomicSync(f, 'new')]
    ] as const) {
      await symlink(outside, join(d, name))
      await write(join(d, name))
      expect(await readFile(join(d, name), 'utf8')).toBe('new')
    }
    expect(await readFile(outside, 'utf8')).toBe('keep')
    expect((await readdir(d)).sort()).toEqual(['a', 'b', 'outside'])
  })

  it('makes a missing folder unless told not to; then the write fails and nothing is made', async () => {
    const d = await folder()
    await writeFileAtomic(join(d, 'x', 'f'), '1')
    writeFileAtomicSync(join(d, 'y', 'f'), '2')
    expect(await readFile(join(d, 'y', 'f'), 'utf8')).toBe('2')
    await expect(writeFileAtomic(join(d, 'z', 'f'), '3', { createDir: false })).rejects.toMatchObject({ code: 'ENOENT' })
    expect(() => writeFileAtomicSync(join(d, 'w', 'f'), '4', { createDir: false })).toThrow(/ENOENT/)
    expect((await readdir(d)).sort()).toEqual(['x', 'y'])
  })
})
