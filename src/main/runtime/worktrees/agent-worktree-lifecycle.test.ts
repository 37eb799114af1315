import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openRunWorktree, type RecordWorktree, type RunWorktree, type WorktreeHooks } from './agent-worktree-lifecycle'
import { makeTempRepo, type TempRepo } from './testing/temp-repo'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

function repo(): TempRepo {
  const r = makeTempRepo()
  cleanups.push(() => r.cleanup())
  return r
}

/** What the owner recorded, in order: the places it said the agent works, and `gone` when it said the worktree went. */
function recorder(): { log: string[]; record: RecordWorktree } {
  const log: string[] = []
  return { log, record: (at) => log.push(at ? `${at.hookBased ? 'hook' : 'git'} ${at.cwd}` : 'gone') }
}

const noHooks: WorktreeHooks = { create: async () => null, remove: async () => null }
const about = { agentId: 'a1', agentType: 'coder', description: 'add a file' }

describe("openRunWorktree: an agent run's folder, made, recorded and finished in one place", () => {
  it('makes a git worktree, records where the agent works, and commits its change to its branch when the run ends', async () => {
    const r = repo()
    const { log, record } = recorder()
    const opened = (await openRunWorktree({ ...about, repoCwd: r.root, fallbackCwd: r.root, hooks: noHooks, record })) as RunWorktree
    expect(opened.git?.branch).toBe('fanout/a1')
    expect(log).toEqual([`git ${opened.cwd}`])
    writeFileSync(join(opened.cwd, 'new.txt'), 'work\n')
    const done = await opened.finish()
    expect(done).toMatchObject({ path: opened.path, branch: 'fanout/a1', kept: true })
    expect(r.git('log', '-1', '--format=%s', 'fanout/a1')).toBe('Agent coder: add a file')
    // The record keeps the kept worktree: the agent's next run picks it up again.
    expect(log).toHaveLength(1)
  })

  it("is made from the session's folder when the parent's worktree it came from is gone", async () => {
    const r = repo()
    const opened = await openRunWorktree({
      ...about,
      repoCwd: join(r.root, '..', 'gone-parent-worktree'),
      fallbackCwd: r.root,
      hooks: noHooks,
      record: () => {}
    })
    expect('error' in opened).toBe(false)
    expect((opened as RunWorktree).git?.repoRoot).toBe(r.root)
  })

  it('says why, and records nothing, when it cannot be made', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'lifecycle-nogit-'))
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }))
    const { log, record } = recorder()
    const opened = await openRunWorktree({ ...about, repoCwd: outside, fallbackCwd: outside, hooks: noHooks, record })
    expect(opened).toEqual({ error: expect.stringMatching(/git/i) })
    expect(log).toEqual([])
  })

  it("takes a WorktreeCreate hook's folder instead of git, and clears the record only when WorktreeRemove removed it", async () => {
    const base = mkdtempSync(join(tmpdir(), 'lifecycle-hook-'))
    cleanups.push(() => rmSync(base, { recursive: true, force: true }))
    const folder = join(base, 'made')
    mkdirSync(folder)
    const { log, record } = recorder()
    const removed: string[] = []
    const hooks: WorktreeHooks = { create: async () => ({ path: folder }), remove: async (p) => (removed.push(p), { removed: true }) }
    const opened = (await openRunWorktree({ ...about, repoCwd: base, fallbackCwd: base, hooks, record })) as RunWorktree
    expect(opened).toMatchObject({ path: folder, branch: '', cwd: folder })
    expect(opened.git).toBeUndefined()
    expect(await opened.finish()).toEqual({ path: folder, branch: '', kept: false })
    expect(removed).toEqual([folder])
    expect(log).toEqual([`hook ${folder}`, 'gone'])

    // Without a WorktreeRemove hook Fanout cannot tell what the folder holds: it stays, and so does the record.
    const kept = recorder()
    const again = (await openRunWorktree({
      ...about,
      repoCwd: base,
      fallbackCwd: base,
      hookFolder: folder,
      hooks: noHooks,
      record: kept.record
    })) as RunWorktree
    expect(await again.finish()).toMatchObject({ kept: true, error: expect.stringContaining('no WorktreeRemove hook') })
    expect(kept.log).toEqual([`hook ${folder}`])
    expect(existsSync(folder)).toBe(true)
  })

  it("refuses a hook's answer that is not a folder", async () => {
    const base = mkdtempSync(join(tmpdir(), 'lifecycle-hook-'))
    cleanups.push(() => rmSync(base, { recursive: true, force: true }))
    writeFileSync(join(base, 'file'), '')
    const { log, record } = recorder()
    const hooks: WorktreeHooks = { create: async () => ({ path: join(base, 'file') }), remove: async () => null }
    expect(await openRunWorktree({ ...about, repoCwd: base, fallbackCwd: base, hooks, record })).toEqual({
      error: `the WorktreeCreate hook printed ${join(base, 'file')}, which is not a folder.`
    })
    expect(log).toEqual([])
  })
})
