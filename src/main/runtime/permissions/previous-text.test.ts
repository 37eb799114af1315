// What an overwriting Write's request carries of the file it replaces: the text of a regular file inside the
// working directory; nothing for a file outside it, one reached through a link that leads out, a protected
// path, a binary or a large file, a folder, or a new file.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PREVIOUS_TEXT_MAX, previousTextOf } from './previous-text'

let root: string
let cwd: string
let outside: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'fanout-previous-'))
  cwd = join(root, 'project')
  outside = join(root, 'elsewhere')
  mkdirSync(join(cwd, 'src'), { recursive: true })
  mkdirSync(join(cwd, '.git'), { recursive: true })
  mkdirSync(outside)
  writeFileSync(join(cwd, 'src/a.ts'), 'export const a = 1\n')
  writeFileSync(join(cwd, '.git/config'), '[core]\n')
  writeFileSync(join(outside, 'secret.txt'), 'not for the page\n')
  symlinkSync(join(outside, 'secret.txt'), join(cwd, 'src/link.txt'))
  writeFileSync(join(cwd, 'big.txt'), 'x'.repeat(PREVIOUS_TEXT_MAX + 1))
  writeFileSync(join(cwd, 'bin.dat'), Buffer.from([0x61, 0, 0x62]))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const write = (file_path: string) => previousTextOf('Write', { file_path, content: 'new' }, cwd, join(root, 'home'))

describe('previousTextOf', () => {
  it('carries the text of a file inside the working directory, by relative or absolute path', async () => {
    expect(await write('src/a.ts')).toBe('export const a = 1\n')
    expect(await write(join(cwd, 'src/a.ts'))).toBe('export const a = 1\n')
  })

  it('carries nothing it may not show, or that is not there', async () => {
    for (const path of [join(outside, 'secret.txt'), '../elsewhere/secret.txt', 'src/link.txt', '.git/config', 'big.txt', 'bin.dat', 'src', 'src/new.ts'])
      expect(await write(path), path).toBeUndefined()
    expect(await previousTextOf('Edit', { file_path: 'src/a.ts' }, cwd)).toBeUndefined()
    expect(await previousTextOf('Write', { file_path: 42 }, cwd)).toBeUndefined()
  })
})
