// The fast git probe must say exactly what git says: repository or not, which branch, where the top is.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, unlinkSync } from 'node:fs'
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

  // A repository may hold anything in `.git`: a named pipe there must not hang the probe (nor git, which hangs on
  // a HEAD pipe), so it is refused at once and the folder counts as no repository.
  it('refuses a .git that is a named pipe, without hanging', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-fifo-git-')))
    execFileSync('mkfifo', [join(dir, '.git')])
    expect(await probeGit(dir)).toEqual({ isGitRepo: false, branch: null, repoRoot: null })
    rmSync(dir, { recursive: true, force: true })
  })

  it('refuses a HEAD that is a named pipe, without hanging', async () => {
    repo = makeTempRepo()
    unlinkSync(join(repo.root, '.git', 'HEAD'))
    execFileSync('mkfifo', [join(repo.root, '.git', 'HEAD')])
    expect(await probeGit(repo.root)).toEqual({ isGitRepo: false, branch: null, repoRoot: null })
  })
})
