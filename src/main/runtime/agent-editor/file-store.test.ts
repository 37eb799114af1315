import { chmodSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../tools/test-kit'
import { readVersioned, removeChecked, saveChecked, writeAtomic } from './file-store'

let dir: string
useTempDirs('each', ['fanout-file-store-'], (d) => (dir = d))

describe('file store', () => {
  it('saves when the file is still the version that was read', async () => {
    const file = join(dir, 'a.md')
    writeFileSync(file, 'one')
    const read = (await readVersioned(file))!
    const saved = await saveChecked(file, 'two', read.version)
    expect('version' in saved && saved.version.hash).toBe((await readVersioned(file))!.version.hash)
    expect(readFileSync(file, 'utf8')).toBe('two')
  })

  it('writes nothing when someone else changed or deleted the file since, and returns what is there now', async () => {
    const file = join(dir, 'a.md')
    writeFileSync(file, 'one')
    const read = (await readVersioned(file))!
    writeFileSync(file, 'theirs')
    expect(await saveChecked(file, 'mine', read.version)).toEqual({ conflict: { text: 'theirs', version: expect.objectContaining({ size: 6 }) } })
    expect(readFileSync(file, 'utf8')).toBe('theirs')
    unlinkSync(file)
    expect(await saveChecked(file, 'mine', read.version)).toEqual({ conflict: { text: null, version: null } })
    // Keeping mine is a deliberate choice.
    await saveChecked(file, 'mine', read.version, true)
    expect(readFileSync(file, 'utf8')).toBe('mine')
  })

  it('refuses to create a file that already exists', async () => {
    const file = join(dir, 'a.md')
    writeFileSync(file, 'there')
    expect(await saveChecked(file, 'new', null)).toMatchObject({ conflict: { text: 'there' } })
  })

  it('writes atomically: no temporary file is left, permissions stay, a symlink stays a symlink', async () => {
    const target = join(dir, 'real.md')
    writeFileSync(target, 'x')
    chmodSync(target, 0o600)
    const link = join(dir, 'link.md')
    symlinkSync(target, link)
    await writeAtomic(link, 'through the link')
    expect(readFileSync(target, 'utf8')).toBe('through the link')
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readdirSync(dir).sort()).toEqual(['link.md', 'real.md'])
    expect(statSync(target).mode & 0o777).toBe(0o600)
  })

  it('removes a file only when it is still the version that was read', async () => {
    const file = join(dir, 'a.md')
    writeFileSync(file, 'one')
    const read = (await readVersioned(file))!
    writeFileSync(file, 'changed')
    expect(await removeChecked(file, read.version)).toMatchObject({ conflict: { text: 'changed' } })
    const again = (await readVersioned(file))!
    expect(await removeChecked(file, again.version)).toEqual({ removed: true })
    expect(await readVersioned(file)).toBeNull()
  })
})
