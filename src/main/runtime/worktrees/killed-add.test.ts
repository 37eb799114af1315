// A kill at any step of `git worktree add` (testing/killed-add.ts builds each state git can leave), before Fanout
// wrote its metadata into the worktree's admin folder: with Fanout's record of the add (this build writes one
// first, pending-add.ts) and without (an older build's). The restarted agent gets a whole worktree on its branch,
// and one never restarted is found and removed by the orphan cleanup; either way `git log --all` and
// `git worktree list` work again in the person's repository. Nothing holding work, and nothing whose maker still
// runs, is removed.
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, type TestContext } from 'vitest'
import { cleanupOrphanWorktree, createAgentWorktree, findOrphanWorktrees, readMetadata, WorktreeError, worktreePathFor } from './index'
import { readPendingAdd } from './pending-add'
import { ADD_STEPS, type AddStep, killedAdd, type KilledAddOptions, TORN_STEPS } from './testing/killed-add'
import { makeTempRepo, type TempRepo } from './testing/temp-repo'

const DEAD = { pid: 99_999_999, hostname: hostname() }

interface Case extends Omit<KilledAddOptions, 'recordFor'> {
  step: AddStep
  record: boolean
}

const CASES: Case[] = [
  ...ADD_STEPS.map((step) => ({ step, record: true })),
  ...ADD_STEPS.map((step) => ({ step, record: false })),
  ...(['locked', 'commondir', 'some-files', 'unlocked'] as const).map((step) => ({ step, record: true, reattach: true })),
  ...(['commondir', 'head-set'] as const).map((step) => ({ step, record: false, reattach: true })),
  { step: 'commondir', record: false, placeholder: 'ref: refs/heads/.invalid' },
  // The kill inside a step's own write: its file there, empty.
  ...TORN_STEPS.map((step) => ({ step, record: true, torn: true })),
  ...(['head-placeholder', 'commondir'] as const).map((step) => ({ step, record: false, torn: true })),
  { step: 'commondir', record: true, torn: true, reattach: true }
]

const title = (c: Case) =>
  `killed ${c.torn ? 'inside' : 'after'} ${c.step}, ${c.record ? "with Fanout's record" : 'by an older build (no record)'}${c.reattach ? ', on a kept branch' : ''}${c.placeholder ? `, HEAD ${c.placeholder}` : ''}`

/** Removed when its test ends (the test's own hook: the tests run concurrently). */
function tempRepo(t: TestContext): TempRepo {
  const r = makeTempRepo()
  t.onTestFinished(() => r.cleanup())
  return r
}

/** Both agents were being given their worktrees, at the same step, when the process was killed. */
function killedRepo(t: TestContext, c: Case, agents: string[], recordFor = DEAD) {
  const r = tempRepo(t)
  const start = r.git('rev-parse', 'HEAD')
  const kept = new Map<string, string>()
  for (const agentId of agents) {
    if (c.reattach) {
      // The agent's earlier run committed work on its branch, kept for it.
      r.write('work.txt', `work of ${agentId}\n`)
      kept.set(agentId, r.commitAll('agent work'))
      r.git('branch', `fanout/${agentId}`, kept.get(agentId)!)
      r.git('reset', '--hard', '--quiet', start)
    }
  }
  const paths = agents.map((agentId) => {
    const path = worktreePathFor({ mainRoot: r.root, repoName: 'project' }, agentId)
    killedAdd(r, agentId, path, c.step, { ...c, ...(c.record ? { recordFor } : {}) })
    return path
  })
  return { r, start, kept, paths, common: realpathSync(join(r.root, '.git')) }
}

/** `git log --all` and `git worktree list` work, and git knows `paths` as the only linked worktrees. */
function expectRepositoryWhole(repo: TempRepo, paths: string[]) {
  expect(repo.git('log', '--all', '--format=%H').split('\n')).toContain(repo.git('rev-parse', 'HEAD'))
  const listed = repo
    .git('worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length))
  expect(listed).toEqual([repo.root, ...paths])
  // Nor is an admin folder left that git does not list (one killed before its `gitdir`).
  const admin = join(repo.root, '.git', 'worktrees')
  expect(existsSync(admin) ? readdirSync(admin).length : 0).toBe(paths.length)
}

describe.concurrent('a kill during `git worktree add`', () => {
  for (const c of CASES) {
    it(`${title(c)}: the restarted agent gets a whole worktree on its branch; the orphan cleanup removes the other`, async (t) => {
      const { r, start, kept, paths, common } = killedRepo(t, c, ['ak1', 'ak2'])

      const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'ak1' })
      expect(wt.path).toBe(paths[0])
      const tip = kept.get('ak1') ?? start
      expect(r.git('rev-parse', 'fanout/ak1')).toBe(tip)
      expect(r.git('-C', wt.path, 'rev-parse', 'HEAD')).toBe(tip)
      expect(r.git('-C', wt.path, 'status', '--porcelain')).toBe('')
      expect(readFileSync(join(wt.path, 'src/app.ts'), 'utf8')).toBe(r.read('src/app.ts'))
      if (c.reattach) expect(readFileSync(join(wt.path, 'work.txt'), 'utf8')).toBe('work of ak1\n')
      expect(wt.baseCommit).toBe(start)
      expect((await readMetadata(wt.path, wt.commonDir))?.agentId).toBe('ak1')
      expect(readPendingAdd(common, 'ak1')).toBeNull()
      expect(
        r
          .git('worktree', 'list', '--porcelain')
          .split('\n\n')
          .find((b) => b.startsWith(`worktree ${wt.path}\n`))
      ).not.toMatch(/locked/)

      // ak2 never runs again. Its maker is gone: an orphan (a kill before git registered anything leaves only a
      // branch at its start, which an older build's orphan listing cannot tell from a kept branch; so does one
      // whose empty `commondir` stopped git, removed when ak1 was given its worktree).
      const orphans = await findOrphanWorktrees({ repoCwd: r.root, isLive: (id) => id === 'ak1' })
      if ((c.step === 'branch' || (c.torn && c.step === 'commondir')) && !c.record) expect(orphans).toEqual([])
      else {
        expect(orphans.map((o) => o.agentId)).toEqual(['ak2'])
        const done = await cleanupOrphanWorktree(orphans[0])
        expect(done, done.reason).toMatchObject({ removed: true })
        if (c.record) expect(done.branchDeleted).toBe(!c.reattach)
      }
      // The folder goes, except an empty one an older build's kill left before git named it anywhere.
      if (existsSync(paths[1])) {
        expect({ record: c.record, step: c.step }).toEqual({ record: false, step: 'folder' })
        expect(readdirSync(paths[1])).toEqual([])
      }
      if (c.reattach) expect(r.git('rev-parse', 'fanout/ak2')).toBe(kept.get('ak2'))
      expect(readPendingAdd(common, 'ak2')).toBeNull()
      expectRepositoryWhole(r, [paths[0]])
    })
  }
})

describe.concurrent("another agent's killed add", () => {
  // Found in CI: agent A's add killed inside its write of `commondir` left the file empty, and every later
  // `git worktree list` and `git worktree add` in the repository then failed reading it ("failed to read
  // …/commondir"), so agent B could not be isolated after a resume until A ran again.
  for (const c of CASES.filter((k) => k.record && !k.reattach && k.step !== 'some-files'))
    it(`${title(c)}: a new agent still gets its worktree, and the killed one its own when it runs again`, async (t) => {
      const { r, start, paths } = killedRepo(t, c, ['ak5'])
      const other = await createAgentWorktree({ repoCwd: r.root, agentId: 'ak6' })
      expect(r.git('-C', other.path, 'rev-parse', 'HEAD')).toBe(start)
      expect(readFileSync(join(other.path, 'src/app.ts'), 'utf8')).toBe(r.read('src/app.ts'))
      expect(r.git('rev-parse', 'fanout/ak5')).toBe(start)
      const own = await createAgentWorktree({ repoCwd: r.root, agentId: 'ak5' })
      expect(own.path).toBe(paths[0])
      expect(r.git('-C', own.path, 'status', '--porcelain')).toBe('')
      expectRepositoryWhole(r, [paths[0], other.path].sort())
    })
})

describe.concurrent('a `commondir` left empty by a kill inside its write', () => {
  it('does not stop the orphan listing, and its cleanup leaves the repository whole', async (t) => {
    for (const record of [true, false]) {
      const { r, common } = killedRepo(t, { step: 'commondir', record, torn: true }, ['ak7'])
      const orphans = await findOrphanWorktrees({ repoCwd: r.root })
      expect(orphans).toMatchObject([{ agentId: 'ak7', halfMade: true }])
      expect(await cleanupOrphanWorktree(orphans[0])).toMatchObject({ removed: true })
      expect(readPendingAdd(common, 'ak7')).toBeNull()
      expectRepositoryWhole(r, [])
    }
  })

  it("another agent's, whose maker still runs: a new agent's worktree waits for it, then says which file and process", async (t) => {
    const live = { pid: process.ppid, hostname: hostname() }
    const { r, common } = killedRepo(t, { step: 'commondir', record: true, torn: true }, ['ak8'], live)
    const err = await createAgentWorktree({ repoCwd: r.root, agentId: 'ak9' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(WorktreeError)
    expect((err as Error).message).toContain(join(common, 'worktrees', 'ak8', 'commondir'))
    expect((err as Error).message).toContain(`pid ${live.pid}`)
    expect(readPendingAdd(common, 'ak8')).not.toBeNull()
  })
})

describe.concurrent('a half-made worktree that is kept', () => {
  it('holding a file git did not check out: neither the restarted agent nor the cleanup removes it', async (t) => {
    for (const step of ['some-files', 'dot-git'] as const) {
      const { r, paths } = killedRepo(t, { step, record: true }, ['ak3'])
      writeFileSync(join(paths[0], 'new-work.txt'), 'not from the checkout\n')
      const err = await createAgentWorktree({ repoCwd: r.root, agentId: 'ak3' }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(WorktreeError)
      expect((err as Error).message).toMatch(/new-work\.txt/)
      const [orphan] = await findOrphanWorktrees({ repoCwd: r.root })
      expect(orphan).toMatchObject({ agentId: 'ak3', halfMade: true })
      expect(await cleanupOrphanWorktree(orphan, { force: true })).toMatchObject({ removed: false, reason: expect.stringMatching(/new-work\.txt/) })
      expect(readFileSync(join(paths[0], 'new-work.txt'), 'utf8')).toBe('not from the checkout\n')
    }
  })

  it('whose maker still runs (another Fanout process): not made again, not listed, not touched', async (t) => {
    for (const step of ['branch', 'locked', 'commondir', 'some-files'] as const) {
      const { r, paths, common } = killedRepo(t, { step, record: true }, ['ak4'], { pid: process.ppid, hostname: hostname() })
      await expect(createAgentWorktree({ repoCwd: r.root, agentId: 'ak4' })).rejects.toThrow(/still being created by another Fanout process/)
      expect(await findOrphanWorktrees({ repoCwd: r.root })).toEqual([])
      expect(readPendingAdd(common, 'ak4')).not.toBeNull()
      if (step !== 'branch' && step !== 'locked') expect(r.git('worktree', 'list', '--porcelain')).toContain(paths[0])
    }
  })
})
