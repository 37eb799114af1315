import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanupOrphanWorktree, createAgentWorktree, findOrphanWorktrees, type OrphanWorktree } from './index'
import { git, makeTempRepo, type TempRepo } from './testing/temp-repo'

const repos: TempRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

/** A repository where four agents were running when the app died: `live` is still running (e.g. in another window). */
async function crashedRun() {
  const r = makeTempRepo()
  repos.push(r)
  const make = (agentId: string) => createAgentWorktree({ repoCwd: r.root, agentId, agentType: 'coder', description: `task ${agentId}` })
  const [live, clean, dirty, committed] = await Promise.all(['live', 'clean', 'dirty', 'committed'].map(make))
  writeFileSync(join(dirty.path, 'unsaved.txt'), 'unsaved work\n')
  writeFileSync(join(dirty.path, 'src/app.ts'), 'export const answer = 0\n')
  writeFileSync(join(committed.path, 'saved.txt'), 'saved work\n')
  git(committed.path, 'add', '-A')
  git(committed.path, 'commit', '--quiet', '-m', 'agent commit')
  // A worktree the user made by hand is none of our business.
  git(r.root, 'worktree', 'add', '--quiet', '-b', 'feature', join(r.sandbox, 'by-hand'))
  return { r, live, clean, dirty, committed }
}

const byId = (orphans: OrphanWorktree[], id: string) => orphans.find((o) => o.agentId === id)!

/** Rewrites who owns a worktree, as if another process had made it. */
function setOwner(worktreePath: string, pid: number): void {
  const file = join(git(worktreePath, 'rev-parse', '--absolute-git-dir'), 'fanout.json')
  const meta = JSON.parse(readFileSync(file, 'utf8'))
  writeFileSync(file, JSON.stringify({ ...meta, owner: { pid, hostname: hostname() } }))
}

describe('findOrphanWorktrees', () => {
  it("skips worktrees whose owning process (another Fanout window or CLI) is still running, and lists a dead owner's", async () => {
    const r = makeTempRepo()
    repos.push(r)
    const other = spawn('sleep', ['30'])
    const gone = spawn('true')
    await new Promise((done) => gone.on('exit', done))
    try {
      const inUse = await createAgentWorktree({ repoCwd: r.root, agentId: 'in-use' })
      const crashed = await createAgentWorktree({ repoCwd: r.root, agentId: 'crashed' })
      setOwner(inUse.path, other.pid!)
      setOwner(crashed.path, gone.pid!)
      expect((await findOrphanWorktrees({ repoCwd: r.root })).map((o) => o.agentId)).toEqual(['crashed'])
    } finally {
      other.kill()
    }
  })

  it('lists fanout worktrees whose agent is not running, with what they hold', async () => {
    const { r, clean, dirty, committed } = await crashedRun()
    const orphans = await findOrphanWorktrees({ repoCwd: r.root, isLive: (id) => id === 'live' })

    expect(orphans.map((o) => o.agentId).sort()).toEqual(['clean', 'committed', 'dirty'])
    expect(byId(orphans, 'clean')).toMatchObject({
      path: clean.path,
      branch: 'fanout/clean',
      baseCommit: clean.baseCommit,
      exists: true,
      uncommittedChanges: false,
      commitsAhead: 0,
      agentType: 'coder',
      description: 'task clean'
    })
    expect(byId(orphans, 'dirty')).toMatchObject({ path: dirty.path, uncommittedChanges: true, commitsAhead: 0 })
    expect(byId(orphans, 'committed')).toMatchObject({ path: committed.path, uncommittedChanges: false, commitsAhead: 1 })
  })

  it('returns nothing outside a git repository', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-nogit-')))
    try {
      expect(await findOrphanWorktrees({ repoCwd: dir, isLive: () => false })).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('reports a worktree whose folder was deleted by hand', async () => {
    const { r, clean } = await crashedRun()
    rmSync(clean.path, { recursive: true, force: true })
    const orphan = byId(await findOrphanWorktrees({ repoCwd: r.root, isLive: () => false }), 'clean')
    expect(orphan).toMatchObject({ exists: false, uncommittedChanges: false, baseCommit: clean.baseCommit, agentType: 'coder' })
    const result = await cleanupOrphanWorktree(orphan)
    expect(result).toEqual({ removed: true, branchDeleted: true })
    expect(r.git('worktree', 'list')).not.toContain(clean.path)
    expect(r.git('branch', '--list', 'fanout/clean')).toBe('')
  })
})

describe('cleanupOrphanWorktree', () => {
  it('removes a clean, empty orphan together with its branch', async () => {
    const { r, clean } = await crashedRun()
    const orphan = byId(await findOrphanWorktrees({ repoCwd: r.root, isLive: () => false }), 'clean')
    expect(await cleanupOrphanWorktree(orphan)).toEqual({ removed: true, branchDeleted: true })
    expect(existsSync(clean.path)).toBe(false)
    expect(r.git('branch', '--list', 'fanout/clean')).toBe('')
  })

  it('removes the folder of an orphan with commits but keeps its branch', async () => {
    const { r, committed } = await crashedRun()
    const orphan = byId(await findOrphanWorktrees({ repoCwd: r.root, isLive: () => false }), 'committed')
    expect(await cleanupOrphanWorktree(orphan)).toEqual({ removed: true, branchDeleted: false })
    expect(existsSync(committed.path)).toBe(false)
    expect(r.git('show', 'fanout/committed:saved.txt')).toBe('saved work')
  })

  it('refuses to drop uncommitted work unless forced, and then commits it to the branch first', async () => {
    const { r, dirty } = await crashedRun()
    const orphan = byId(await findOrphanWorktrees({ repoCwd: r.root, isLive: () => false }), 'dirty')

    const refused = await cleanupOrphanWorktree(orphan)
    expect(refused).toMatchObject({ removed: false, branchDeleted: false })
    expect(refused.reason).toMatch(/uncommitted changes/)
    expect(readFileSync(join(dirty.path, 'unsaved.txt'), 'utf8')).toBe('unsaved work\n')

    const forced = await cleanupOrphanWorktree(orphan, { force: true })
    expect(forced).toMatchObject({ removed: true, branchDeleted: false })
    expect(forced.commit).toBe(r.git('rev-parse', 'fanout/dirty'))
    expect(existsSync(dirty.path)).toBe(false)
    expect(r.git('show', 'fanout/dirty:unsaved.txt')).toBe('unsaved work')
    expect(r.git('show', 'fanout/dirty:src/app.ts')).toBe('export const answer = 0')
    expect(r.git('log', '-1', '--format=%s', 'fanout/dirty')).toBe('Agent coder: task dirty (saved from an interrupted run)')
  })

  it('looks again before removing: work added after the scan still blocks an unforced cleanup', async () => {
    const { r, clean } = await crashedRun()
    const orphan = byId(await findOrphanWorktrees({ repoCwd: r.root, isLive: () => false }), 'clean')
    writeFileSync(join(clean.path, 'late.txt'), 'written after the scan\n')
    const result = await cleanupOrphanWorktree(orphan)
    expect(result.removed).toBe(false)
    expect(existsSync(join(clean.path, 'late.txt'))).toBe(true)
  })

  it("leaves the user's own worktrees and branches alone", async () => {
    const { r } = await crashedRun()
    for (const orphan of await findOrphanWorktrees({ repoCwd: r.root, isLive: () => false })) {
      await cleanupOrphanWorktree(orphan, { force: true })
    }
    expect(existsSync(join(r.sandbox, 'by-hand'))).toBe(true)
    expect(r.git('branch', '--list', 'feature')).toContain('feature')
    expect(r.git('branch', '--list', 'main')).toContain('main')
  })
})
