// What of the repository's git folder a workspace-level sandboxed command may write, by where it runs.
import { execFileSync } from 'node:child_process'
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAgentWorktree } from '../../worktrees'
import { makeTempRepo, type TempRepo } from '../../worktrees/testing/temp-repo'
import { gitDirWrites } from './git-dir-policy'

const repos: TempRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})
const repo = () => {
  const r = makeTempRepo()
  repos.push(r)
  return r
}

describe('gitDirWrites', () => {
  it("an agent's worktree: its admin folder and new objects, never refs, config, redirects or Fanout's record", async () => {
    const r = repo()
    const C = realpathSync(join(r.root, '.git'))
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'a1' })
    const A = join(C, 'worktrees', 'a1')
    const w = gitDirWrites(wt.path)
    expect(w.allowWrite).toEqual([A, join(C, 'objects')])
    for (const p of ['commondir', 'gitdir', 'config.worktree', 'modules', 'fanout.json']) expect(w.denyWrite).toContain(join(A, p))
    expect(w.denyWrite).toEqual(expect.arrayContaining([join(wt.path, '.git'), join(C, 'objects', 'info'), join(C, 'objects', 'pack')]))
    // Below the worktree's top too.
    mkdirSync(join(wt.path, 'deep'))
    expect(gitDirWrites(join(wt.path, 'deep')).allowWrite).toEqual(w.allowWrite)
  })

  it("a .git file that does not check out (pointing at another worktree's folder) gets no git folder at all", async () => {
    const r = repo()
    const C = realpathSync(join(r.root, '.git'))
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'a1' })
    await createAgentWorktree({ repoCwd: r.root, agentId: 'a2' })
    writeFileSync(join(wt.path, '.git'), `gitdir: ${join(C, 'worktrees', 'a2')}\n`)
    expect(gitDirWrites(wt.path)).toEqual({ allowWrite: [], denyWrite: [join(wt.path, '.git')] })
    writeFileSync(join(wt.path, '.git'), `gitdir: ${C}\n`)
    expect(gitDirWrites(wt.path).allowWrite).toEqual([])
  })

  it("a person's own linked worktree commits on their branch; other worktrees' folders and what runs git stay read-only", async () => {
    const r = repo()
    const C = realpathSync(join(r.root, '.git'))
    const agent = await createAgentWorktree({ repoCwd: r.root, agentId: 'a1' })
    const own = join(r.sandbox, 'own')
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'mine', own], { cwd: r.root })
    const w = gitDirWrites(own)
    expect(w.allowWrite).toEqual([C])
    expect(w.denyWrite).toEqual(
      expect.arrayContaining([join(own, '.git'), join(C, 'config'), join(C, 'hooks'), join(C, 'worktrees', 'a1'), join(C, 'worktrees', 'own', 'commondir')])
    )
    expect(w.denyWrite).not.toContain(join(C, 'worktrees', 'own'))
    expect(agent.path).toBeTruthy()
  })

  it('a main checkout: commits stay; config, hooks, alternates, config.worktree, modules, info and the worktrees folder do not; an absent commondir gets no placeholder', async () => {
    const r = repo()
    const C = join(r.root, '.git')
    await createAgentWorktree({ repoCwd: r.root, agentId: 'a1' })
    const top = gitDirWrites(r.root)
    expect(top.allowWrite).toEqual([])
    expect(top.denyWrite).toEqual(
      expect.arrayContaining(['config', 'hooks', 'objects/info', 'config.worktree', 'modules', 'info', 'worktrees'].map((p) => join(C, p)))
    )
    expect(top.denyWrite).not.toContain(join(C, 'commondir'))
    mkdirSync(join(r.root, 'sub'))
    expect(gitDirWrites(join(r.root, 'sub')).allowWrite).toEqual([C])
  })
})
