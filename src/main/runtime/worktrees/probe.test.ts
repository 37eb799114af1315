// The fast git probe must say exactly what git says: repository or not, which branch, where the top is.
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { probeGit } from './probe'
import { makeTempRepo, type TempRepo } from './testing/temp-repo'

let repo: TempRepo | null = null
afterEach(() => repo?.cleanup())

describe('probeGit', () => {
  it('finds the branch and the top of the checkout from a subfolder', async () => {
    repo = makeTempRepo()
    repo.git('checkout', '-q', '-b', 'feature/x')
    mkdirSync(join(repo.root, 'src/deep'), { recursive: true })
    expect(await probeGit(join(repo.root, 'src/deep'))).toEqual({ isGitRepo: true, branch: 'feature/x', repoRoot: repo.root })
  })

  it('reports no branch on a detached HEAD', async () => {
    repo = makeTempRepo()
    repo.git('checkout', '-q', '--detach')
    expect(await probeGit(repo.root)).toEqual({ isGitRepo: true, branch: null, repoRoot: repo.root })
  })

  it('reads a linked worktree, whose .git is a file', async () => {
    repo = makeTempRepo()
    const wt = join(repo.sandbox, 'linked')
    repo.git('worktree', 'add', '-q', '-b', 'side', wt)
    expect(await probeGit(wt)).toEqual({ isGitRepo: true, branch: 'side', repoRoot: wt })
    expect(repo.git('-C', wt, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('side')
  })

  it('says a plain folder is not a repository', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-norepo-')))
    expect(await probeGit(dir)).toEqual({ isGitRepo: false, branch: null, repoRoot: null })
  })
})
