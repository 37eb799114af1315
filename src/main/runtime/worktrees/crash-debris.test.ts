// A temp file of an atomic write whose process was killed before its rename is not the agent's work: finishing
// the agent (or cleaning up its orphaned worktree) removes it before committing. A write in flight (its process
// alive) and a file that only looks like one stay. A stale index lock a killed git command left does not keep
// the agent's work from being committed.
import { spawnSync } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { atomicTempWriter } from '../store/atomic-file'
import { cleanupOrphanWorktree, createAgentWorktree, finishAgentWorktree, findOrphanWorktrees, removeCrashDebris, worktreeGitDirs } from './index'
import { makeTempRepo, type TempRepo } from './testing/temp-repo'

const repos: TempRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

/** A pid no process has now: one that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!

async function setup() {
  const r = makeTempRepo()
  repos.push(r)
  return { r, wt: await createAgentWorktree({ repoCwd: r.root, agentId: 'agent1' }) }
}

const committed = (r: TempRepo) => r.git('log', '--all', '--format=', '--name-only').split('\n').filter(Boolean).sort()

describe('what a killed write leaves in a worktree', () => {
  it('names the writer of an atomic temp file, and nothing else', () => {
    expect(atomicTempWriter('.wt-2.txt.28973.1723c834.tmp')).toBe(28973)
    expect(atomicTempWriter('.a.b.c.1.deadbeef.tmp')).toBe(1)
    for (const name of [
      'wt-2.txt',
      '.wt-2.txt.tmp',
      '.x.12.1723c83.tmp',
      '.x.12.1723C834.tmp',
      'x.12.1723c834.tmp',
      '.x.012.1723c834.tmp',
      '.x.12.1723c834.tmp.bak'
    ])
      expect(atomicTempWriter(name), name).toBeNull()
  })

  it("is removed before the agent's work is committed; a live writer's and a look-alike stay", async () => {
    const { r, wt } = await setup()
    const dead = `.notes.md.${deadPid()}.0badc0de.tmp`
    const live = `.notes.md.${process.pid}.feedface.tmp`
    mkdirSync(join(wt.path, 'docs'))
    writeFileSync(join(wt.path, 'docs', 'notes.md'), 'the agent wrote this\n')
    writeFileSync(join(wt.path, 'docs', dead), 'the agent wrote th')
    writeFileSync(join(wt.path, 'docs', live), 'in flight\n')
    writeFileSync(join(wt.path, '.cache.tmp'), 'the agent made this too\n')
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'notes' })
    expect(done).toMatchObject({ changed: true, kept: true })
    expect(committed(r)).toEqual(['.cache.tmp', 'README.md', 'docs/notes.md', `docs/${live}`, 'src/app.ts'].sort())
    expect(existsSync(join(wt.path, 'docs', dead))).toBe(false)
  })

  it('alone is no change: the worktree and its branch are removed, with no empty commit', async () => {
    const { r, wt } = await setup()
    writeFileSync(join(wt.path, `.README.md.${deadPid()}.0badc0de.tmp`), '# half')
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'nothing' })
    expect(done).toEqual({ changed: false, kept: false, branch: 'fanout/agent1', path: wt.path })
    expect(r.git('branch', '--list', 'fanout/*')).toBe('')
  })

  it('is removed before an orphan is cleaned up, so it does not count as uncommitted work', async () => {
    const { r, wt } = await setup()
    writeFileSync(join(wt.path, `.README.md.${deadPid()}.0badc0de.tmp`), '# half')
    const [orphan] = await findOrphanWorktrees({ repoCwd: r.root })
    expect(orphan?.agentId).toBe('agent1')
    const result = await cleanupOrphanWorktree(orphan)
    expect(result).toMatchObject({ removed: true, branchDeleted: true })
    expect(committed(r)).toEqual(['README.md', 'src/app.ts'])
  })

  it("a stale index lock (made before this process started) goes, so the agent's work is committed; a fresh one stays", async () => {
    const { r, wt } = await setup()
    const dirs = await worktreeGitDirs(wt.path, wt.commonDir)
    const lock = join(dirs.gitDir, 'index.lock')
    writeFileSync(join(wt.path, 'work.txt'), 'the agent wrote this\n')
    // A git command started before this process (a kill stopped it mid-add) left its lock.
    writeFileSync(lock, '')
    const before = new Date(Date.now() - process.uptime() * 1000 - 60_000)
    utimesSync(lock, before, before)
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'work' })
    expect(done).toMatchObject({ changed: true, kept: true })
    expect(done.error).toBeUndefined()
    expect(committed(r)).toContain('work.txt')
    expect(existsSync(lock)).toBe(false)

    // One made while this process runs may be a live git command's: left, and the commit waits for it.
    writeFileSync(join(wt.path, 'more.txt'), 'more\n')
    writeFileSync(lock, '')
    expect(await removeCrashDebris(dirs)).toEqual([])
    expect(existsSync(lock)).toBe(true)
  })

  it('is never followed through a link: only a regular file, where git listed it, is removed', async () => {
    const { r, wt } = await setup()
    const dirs = await worktreeGitDirs(wt.path, wt.commonDir)
    expect(await removeCrashDebris(dirs)).toEqual([])
    const name = `.x.${deadPid()}.0badc0de.tmp`
    mkdirSync(join(wt.path, name))
    writeFileSync(join(wt.path, name, 'inside.txt'), 'a folder named like one is not one\n')
    expect(await removeCrashDebris(dirs)).toEqual([])
    expect(existsSync(join(wt.path, name, 'inside.txt'))).toBe(true)
    // A link named like one (to a file outside the worktree): neither the link nor its target goes.
    const outside = join(r.sandbox, 'keep.txt')
    writeFileSync(outside, "not the worktree's\n")
    const link = `.y.${deadPid()}.0badc0de.tmp`
    symlinkSync(outside, join(wt.path, link))
    expect(await removeCrashDebris(dirs)).toEqual([])
    expect(existsSync(outside) && lstatSync(join(wt.path, link)).isSymbolicLink()).toBe(true)
  })
})
