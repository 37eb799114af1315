// A kill inside git's write of a new worktree's `commondir` leaves the file empty, and every git command that
// reads the worktrees then fails in the whole repository ("failed to read …/commondir"): listing them, deleting
// or moving a branch, `git log --all`. The review of the other agents' work must not stop there: once the process
// that was making it is gone, the registration (which holds nothing but git's own files) is removed and the
// review lists, merges and discards as before; while that process still runs, it is waited for, and then named.
import { existsSync, realpathSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, type TestContext } from 'vitest'
import { worktreePathFor } from '../worktrees/agent-worktree-lifecycle'
import { killedAdd } from '../worktrees/testing/killed-add'
import { makeTempRepo, type TempRepo } from '../worktrees/testing/temp-repo'
import { AgentWorkReview, ReviewError } from './index'
import { agentWorked } from './testing/agent-work'

const review = new AgentWorkReview()
const DEAD = { pid: 99_999_999, hostname: hostname() }
const LIVE = { pid: process.ppid, hostname: hostname() }

function tempRepo(t: TestContext): TempRepo {
  const r = makeTempRepo()
  t.onTestFinished(() => r.cleanup())
  return r
}

/** One agent's work on its branch, and another agent's `git worktree add` killed inside its write of `commondir`. */
async function tornBeside(t: TestContext, recordFor?: typeof DEAD, more = false) {
  const r = tempRepo(t)
  const wt = await agentWorked(r, 'a1', { files: { 'src/a.ts': 'export const a = 1\n' } })
  if (more) await agentWorked(r, 'a2', { files: { 'src/b.ts': 'export const b = 2\n' } })
  const path = worktreePathFor({ mainRoot: r.root, repoName: 'project' }, 'ak9')
  const killed = killedAdd(r, 'ak9', path, 'commondir', { torn: true, ...(recordFor ? { recordFor } : {}) })
  // The person's own git is broken as the kill left it.
  expect(() => r.git('log', '--all', '--format=%H')).toThrow(/commondir/)
  return { r, wt, killed }
}

describe.concurrent('a worktree whose `commondir` a kill left empty, beside another agent’s work', () => {
  for (const [how, recordFor] of [
    ["with Fanout's record of the add", DEAD],
    ['by an older build (no record)', undefined]
  ] as const) {
    it(`${how}: the review lists the work, and the person's git works again`, async (t) => {
      const { r, wt, killed } = await tornBeside(t, recordFor)
      const list = await review.list(r.root)
      // The killed agent's branch stays, with nothing on it (it never had a checkout to work in).
      expect(list.agents.map((a) => [a.agentId, a.worktreePath, a.files.map((f) => f.path)])).toEqual([
        ['ak9', null, []],
        ['a1', wt.path, ['src/a.ts']]
      ])
      expect(existsSync(killed.adminDir)).toBe(false)
      expect(r.git('log', '--all', '--format=%H').split('\n')).toContain(r.git('rev-parse', 'HEAD'))
      expect(r.git('worktree', 'list', '--porcelain')).not.toContain('ak9')
    })
  }

  it('merges and discards: the branches are moved and deleted as without it', async (t) => {
    const { r } = await tornBeside(t, DEAD, true)
    const merged = await review.merge(r.root, { agents: ['a1'], strategy: 'merge' })
    expect(merged.merged.map((m) => m.agentId)).toEqual(['a1'])
    expect(r.git('show', 'HEAD:src/a.ts')).toBe('export const a = 1')
    const tip = r.git('rev-parse', 'fanout/a2')
    await review.discard(r.root, 'a2', tip)
    expect(r.git('branch', '--list', 'fanout/a2')).toBe('')
  })

  it('whose maker still runs: the review waits for it, then names the file and the process; nothing is removed', async (t) => {
    const { r, killed } = await tornBeside(t, LIVE)
    const err = await review.list(r.root).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ReviewError)
    expect((err as ReviewError).code).toBe('conflict')
    expect((err as Error).message).toContain(join(realpathSync(killed.adminDir), 'commondir'))
    expect((err as Error).message).toContain(`pid ${LIVE.pid}`)
    expect(existsSync(join(killed.adminDir, 'commondir'))).toBe(true)
  })

  it('whose maker finishes writing it while the review waits: the review goes on', async (t) => {
    const { r, killed, wt } = await tornBeside(t, LIVE)
    setTimeout(() => writeFileSync(join(killed.adminDir, 'commondir'), '../..\n'), 150)
    const list = await review.list(r.root)
    expect(list.agents.find((a) => a.agentId === 'a1')?.worktreePath).toBe(wt.path)
    expect(existsSync(killed.adminDir)).toBe(true)
  })
})
