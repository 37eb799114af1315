// The Review screen reads an agent's worktree while the agent may still change it: whatever stands at a path
// (or is swapped in between the look and the read), the viewer answers at once, never waiting on a pipe.
import { execFileSync } from 'node:child_process'
import { unlinkSync, writeFileSync } from 'node:fs'
import * as fsp from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { diskSide, MAX_VIEW_BYTES } from './file-diff'
import { ReviewError } from './review-error'
import { tempFolders } from '../../../../test/support/temp-folders'

// Swaps the file named `swap-me` for a named pipe right after it is looked at: the race an agent can win.
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fsp>()
  return {
    ...real,
    lstat: async (path: string, ...rest: unknown[]) => {
      const info = await (real.lstat as (p: string, ...r: unknown[]) => Promise<unknown>)(path, ...rest)
      if (String(path).endsWith('swap-me')) {
        unlinkSync(path)
        execFileSync('mkfifo', [path])
      }
      return info
    }
  }
})

const folder = tempFolders('fanout-diskside-')

describe('diskSide', () => {
  it('refuses a named pipe, saying what it is', async () => {
    const root = folder()
    execFileSync('mkfifo', [join(root, 'pipe')])
    const err = await diskSide(root, 'pipe').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ReviewError)
    expect((err as ReviewError).code).toBe('unsupported')
    expect((err as Error).message).toMatch(/pipe cannot be shown: .*pipe/)
  })

  it('refuses a pipe swapped in after the look, instead of hanging', async () => {
    const root = folder()
    writeFileSync(join(root, 'swap-me'), 'plain text\n')
    const err = await diskSide(root, 'swap-me').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ReviewError)
    expect((err as Error).message).toMatch(/swap-me cannot be shown/)
  })

  it('refuses a path that leads through a folder link out of the worktree', async () => {
    const root = folder()
    const outside = folder()
    writeFileSync(join(outside, 'secret'), 'private\n')
    await fsp.symlink(outside, join(root, 'dir'))
    await expect(diskSide(root, 'dir/secret')).rejects.toThrow(/cannot be shown/)
  })

  it('reads a regular file, and says a large one is too large', async () => {
    const root = folder()
    writeFileSync(join(root, 'a.txt'), 'hello\n')
    expect(await diskSide(root, 'a.txt')).toEqual({ text: 'hello\n', binary: false, size: 6, tooLarge: false })
    writeFileSync(join(root, 'big.txt'), Buffer.alloc(MAX_VIEW_BYTES + 10, 'x'))
    expect(await diskSide(root, 'big.txt')).toMatchObject({ text: null, tooLarge: true })
    expect(await diskSide(root, 'missing.txt')).toMatchObject({ text: null, tooLarge: false })
  })
})
