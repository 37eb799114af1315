// A kill in the middle of `git worktree add` leaves the worktree registered, locked "initializing", with only some
// files checked out. The restarted agent must get a complete worktree, and its branch must never record the
// missing files as deleted; a half-made worktree with work in it is left alone, and nothing is committed from one.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isHalfMade } from './half-made'
import { commitAll, createAgentWorktree, finishAgentWorktree, updateMetadata, WorktreeError, worktreeGitDirs } from './index'
import { makeTempRepo, type TempRepo } from './testing/temp-repo'

const DEAD_PID = 99_999_999
let r: TempRepo | null = null
afterEach(() => r?.cleanup())

/** An agent's worktree as a killed `git worktree add` leaves it: locked "initializing", files missing, maker dead. */
async function halfMade(repo: TempRepo, agentId: string) {
  const wt = await createAgentWorktree({ repoCwd: repo.root, agentId })
  const dirs = await worktreeGitDirs(wt.path, wt.commonDir)
  writeFileSync(join(dirs.gitDir, 'locked'), 'initializing\n')
  unlinkSync(join(wt.path, 'src/app.ts'))
  unlinkSync(join(wt.path, 'README.md'))
  await updateMetadata(wt.path, wt.commonDir, { owner: { pid: DEAD_PID, hostname: hostname() } })
  return { wt, dirs }
}

describe('a half-made worktree', () => {
  it('is removed and made again for the restarted agent, whose branch records no deletion', async () => {
    r = makeTempRepo()
    const base = r.git('rev-parse', 'HEAD')
    const { wt, dirs } = await halfMade(r, 'a1')
    expect(isHalfMade(dirs.gitDir)).toBe(true)

    const again = await createAgentWorktree({ repoCwd: r.root, agentId: 'a1' })
    expect(readFileSync(join(again.path, 'src/app.ts'), 'utf8')).toBe(r.read('src/app.ts'))
    expect(readFileSync(join(again.path, 'README.md'), 'utf8')).toBe(r.read('README.md'))
    expect(r.git('-C', again.path, 'status', '--porcelain')).toBe('')
    expect(isHalfMade((await worktreeGitDirs(again.path, again.commonDir)).gitDir)).toBe(false)
    expect(again.baseCommit).toBe(base)

    // The agent changes one file; its commit holds that change and no deletion.
    writeFileSync(join(again.path, 'notes.txt'), 'agent work\n')
    const done = await finishAgentWorktree({ worktree: again, agentType: 'general-purpose', description: 'work' })
    expect(done.changed).toBe(true)
    expect(r.git('diff', '--name-status', base, 'fanout/a1')).toBe('A\tnotes.txt')
    expect(wt.path).toBe(again.path)
  })

  it('is removed and made again when the kill came before git set its HEAD, leaving the repository whole', async () => {
    // git writes a placeholder HEAD (the null id; newer git `ref: refs/heads/.invalid`) before it points HEAD at
    // the start commit and checks files out: killed there, the worktree is empty and `git log --all` fails on it.
    for (const [agentId, placeholder] of [
      ['p1', '0'.repeat(40)],
      ['p2', 'ref: refs/heads/.invalid']
    ]) {
      r = makeTempRepo()
      const { wt, dirs } = await halfMade(r, agentId)
      writeFileSync(join(dirs.gitDir, 'HEAD'), `${placeholder}\n`)
      for (const f of ['src/app.ts', 'README.md']) if (existsSync(join(wt.path, f))) unlinkSync(join(wt.path, f))
      const again = await createAgentWorktree({ repoCwd: r.root, agentId })
      expect(readFileSync(join(again.path, 'src/app.ts'), 'utf8')).toBe(r.read('src/app.ts'))
      expect(r.git('-C', again.path, 'status', '--porcelain')).toBe('')
      expect(r.git('log', '--all', '--format=%H').split('\n')).toContain(r.git('rev-parse', 'HEAD'))
      r.cleanup()
      r = null
    }
  })

  it('is never committed from', async () => {
    r = makeTempRepo()
    const base = r.git('rev-parse', 'HEAD')
    const { dirs } = await halfMade(r, 'a2')
    await expect(commitAll(dirs, 'fanout/a2', 'x')).rejects.toThrow(/never fully checked out/)
    expect(r.git('rev-parse', 'fanout/a2')).toBe(base)
  })

  it('is left alone when a file in it is not its start commit’s', async () => {
    r = makeTempRepo()
    const { wt } = await halfMade(r, 'a3')
    writeFileSync(join(wt.path, 'new-work.txt'), 'not from the checkout\n')
    const err = await createAgentWorktree({ repoCwd: r.root, agentId: 'a3' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(WorktreeError)
    expect((err as Error).message).toMatch(/new-work\.txt/)
    expect(existsSync(join(wt.path, 'new-work.txt'))).toBe(true)
  })

  it('is not taken from a maker still running', async () => {
    r = makeTempRepo()
    const { wt } = await halfMade(r, 'a4')
    await updateMetadata(wt.path, wt.commonDir, { owner: { pid: process.ppid, hostname: hostname() } })
    await expect(createAgentWorktree({ repoCwd: r.root, agentId: 'a4' })).rejects.toThrow(/still being created/)
  })
})
