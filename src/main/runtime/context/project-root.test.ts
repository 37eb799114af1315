// findRepoRoot looks at every ancestor at once and shares a look-up under way: the answer is still the nearest
// folder holding .git (a folder, or a linked worktree's file), and a repository made after a look-up is found by the next.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findRepoRoot, projectRootOf } from './project-root'

const tree = () => {
  const top = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-root-')))
  const deep = join(top, 'outer', 'inner', 'src', 'deep')
  mkdirSync(deep, { recursive: true })
  return { top, deep }
}

describe('findRepoRoot', () => {
  it('answers the nearest folder with .git, a worktree’s .git file included, not an outer one', async () => {
    const { top, deep } = tree()
    mkdirSync(join(top, 'outer', '.git'))
    writeFileSync(join(top, 'outer', 'inner', '.git'), 'gitdir: /elsewhere\n')
    expect(await findRepoRoot(deep)).toBe(join(top, 'outer', 'inner'))
    expect(await findRepoRoot(join(top, 'outer'))).toBe(join(top, 'outer'))
  })

  it('answers the same to callers asking at once, and sees a repository made after a look-up', async () => {
    const { top, deep } = tree()
    const outside = await findRepoRoot(deep)
    // The temporary folder may itself lie in a repository; whatever is above `top` is no part of this test.
    expect(outside === null || !outside.startsWith(top)).toBe(true)
    mkdirSync(join(top, 'outer', 'inner', '.git'))
    const answers = await Promise.all([findRepoRoot(deep), findRepoRoot(deep), projectRootOf(deep)])
    expect(answers).toEqual(Array(3).fill(join(top, 'outer', 'inner')))
  })
})
