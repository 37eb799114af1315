// The open that proves where it landed, with the swap made deterministic: the path is judged, then a folder or
// the file itself is swapped for a link out, then the open runs. It must refuse, and nothing outside may change.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { FileRefusal, openRegular, plannedTarget, readRegular, replaceRegular } from './open-beneath'
import { tempFolders } from '../../../../test/support/temp-folders'

const tempFolder = tempFolders('fanout-beneath-')
let root: string
let project: string
let outside: string
beforeEach(() => {
  root = realpathSync(tempFolder())
  project = join(root, 'project')
  outside = join(root, 'outside')
  mkdirSync(join(project, 'dir'), { recursive: true })
  mkdirSync(outside)
  writeFileSync(join(project, 'dir/f.txt'), 'inside\n')
  writeFileSync(join(outside, 'f.txt'), 'outside\n')
})

/** Swaps project/dir for a link to the outside folder, as a racing process would between check and open. */
const swapDir = (): void => {
  renameSync(join(project, 'dir'), join(project, 'dir.real'))
  symlinkSync(outside, join(project, 'dir'))
}

const outsideUnchanged = (): void => {
  expect(readdirSync(outside)).toEqual(['f.txt'])
  expect(readFileSync(join(outside, 'f.txt'), 'utf8')).toBe('outside\n')
}

describe('open beneath a proved folder', () => {
  it('refuses a read, a write and a new file when a folder on the way was swapped after the check', async () => {
    const real = plannedTarget(join(project, 'dir/f.txt'), 'dir/f.txt')
    const fresh = plannedTarget(join(project, 'dir/new/deeper.txt'), 'dir/new/deeper.txt')
    swapDir()
    await expect(openRegular(real, 'dir/f.txt')).rejects.toThrow(/changed while it was being opened/)
    await expect(readRegular(real, 'dir/f.txt', 1024)).rejects.toBeInstanceOf(FileRefusal)
    await expect(replaceRegular(real, 'dir/f.txt', 'pwned')).rejects.toBeInstanceOf(FileRefusal)
    await expect(replaceRegular(fresh, 'dir/new/deeper.txt', 'pwned')).rejects.toBeInstanceOf(FileRefusal)
    outsideUnchanged()
  })

  it('does not follow a link swapped in for the file itself, and a write replaces the link, not its target', async () => {
    const real = plannedTarget(join(project, 'dir/f.txt'), 'dir/f.txt')
    rmSync(real)
    symlinkSync(join(outside, 'f.txt'), real)
    await expect(openRegular(real, 'dir/f.txt')).rejects.toThrow(/changed while it was being opened/)
    await expect(replaceRegular(real, 'dir/f.txt', 'mine\n')).rejects.toThrow(/a symbolic link, not a regular file/)
    outsideUnchanged()
  })

  it('replaces a file whole, keeping its mode, and leaves no temp file; a hard link elsewhere keeps the old text', async () => {
    const real = join(project, 'dir/f.txt')
    execFileSync('chmod', ['750', real])
    execFileSync('ln', [real, join(project, 'hard.txt')])
    await replaceRegular(real, 'dir/f.txt', 'new text\n')
    expect(readFileSync(real, 'utf8')).toBe('new text\n')
    expect(statSync(real).mode & 0o777).toBe(0o750)
    expect(readFileSync(join(project, 'hard.txt'), 'utf8')).toBe('inside\n')
    expect(readdirSync(join(project, 'dir'))).toEqual(['f.txt'])
  })

  it('creates missing folders one by one and reads within a bound', async () => {
    const real = plannedTarget(join(project, 'a/b/c.txt'), 'a/b/c.txt')
    await replaceRegular(real, 'a/b/c.txt', 'x'.repeat(5000))
    expect((await readRegular(real, 'a/b/c.txt', 5000))?.bytes.length).toBe(5000)
    await expect(readRegular(real, 'a/b/c.txt', 4999)).rejects.toThrow(/too large for the file tools/)
    expect(await readRegular(join(project, 'a/missing.txt'), 'a/missing.txt', 10)).toBeNull()
  })

  it('refuses a FIFO and a device without blocking', async () => {
    execFileSync('mkfifo', [join(project, 'dir/pipe')])
    await expect(openRegular(join(project, 'dir/pipe'), 'dir/pipe')).rejects.toThrow(/FIFO \(named pipe\), not a regular file/)
    await expect(replaceRegular(join(project, 'dir/pipe'), 'dir/pipe', 'x')).rejects.toThrow(/FIFO/)
    await expect(openRegular('/dev/zero', '/dev/zero')).rejects.toThrow(/a device/)
    expect(statSync(join(project, 'dir/pipe')).isFIFO()).toBe(true)
  })
})
