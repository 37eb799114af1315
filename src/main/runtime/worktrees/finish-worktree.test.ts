import { existsSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAgentWorktree, finishAgentWorktree, type AgentWorktree } from './index'
import { git, makeTempRepo, type TempRepo } from './testing/temp-repo'

const repos: TempRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

async function setup(agentId = 'agent1'): Promise<{ r: TempRepo; wt: AgentWorktree }> {
  const r = makeTempRepo()
  repos.push(r)
  return { r, wt: await createAgentWorktree({ repoCwd: r.root, agentId }) }
}

const branches = (r: TempRepo) => r.git('branch', '--list', 'fanout/*', '--format=%(refname:short)')

describe('finishAgentWorktree', () => {
  it('removes an unchanged worktree and deletes its branch', async () => {
    const { r, wt } = await setup()
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'Explore', description: 'look around' })
    expect(done).toEqual({ changed: false, kept: false, branch: 'fanout/agent1', path: wt.path })
    expect(existsSync(wt.path)).toBe(false)
    expect(branches(r)).toBe('')
    expect(r.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1)
  })

  it.each([
    ['a tracked edit', (p: string) => writeFileSync(join(p, 'src/app.ts'), 'export const answer = 1\n'), 'M\tsrc/app.ts'],
    ['a new untracked file', (p: string) => writeFileSync(join(p, 'new.md'), 'new\n'), 'A\tnew.md'],
    ['a deletion', (p: string) => unlinkSync(join(p, 'README.md')), 'D\tREADME.md']
  ])('commits %s on the branch and keeps the worktree', async (_label, change, expectedDiff) => {
    const { r, wt } = await setup()
    change(wt.path)
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'fix the answer' })
    expect(done).toMatchObject({ changed: true, kept: true, branch: 'fanout/agent1', path: wt.path })
    expect(done.error).toBeUndefined()
    expect(done.commit).toBe(r.git('rev-parse', 'fanout/agent1'))
    expect(r.git('log', '-1', '--format=%s', 'fanout/agent1')).toBe('Agent coder: fix the answer')
    expect(r.git('rev-parse', 'fanout/agent1~1')).toBe(wt.baseCommit)
    expect(r.git('diff', '--name-status', wt.baseCommit, 'fanout/agent1')).toBe(expectedDiff)
    expect(git(wt.path, 'status', '--porcelain')).toBe('')
    expect(existsSync(wt.path)).toBe(true)
  })

  it("counts the agent's own commits as changes", async () => {
    const { r, wt } = await setup()
    writeFileSync(join(wt.path, 'done.txt'), 'x\n')
    git(wt.path, 'add', '-A')
    git(wt.path, 'commit', '--quiet', '-m', 'agent committed this itself')
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'self commit' })
    expect(done).toMatchObject({ changed: true, kept: true, commit: r.git('rev-parse', 'fanout/agent1') })
    expect(r.git('log', '-1', '--format=%s', 'fanout/agent1')).toBe('agent committed this itself')
  })

  it('keeps the worktree with its changes, and says why, when the commit fails', async () => {
    const { r, wt } = await setup()
    // An index lock another git process never lets go of makes `git commit` fail for a reason outside our
    // control (a failing signing program no longer can: Fanout's git never signs, nor runs the repository's programs).
    writeFileSync(join(git(wt.path, 'rev-parse', '--absolute-git-dir'), 'index.lock'), '')
    writeFileSync(join(wt.path, 'precious.txt'), 'do not lose me\n')
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'precious' })
    expect(done).toMatchObject({ changed: true, kept: true })
    expect(done.commit).toBeUndefined()
    expect(done.error).toMatch(/could not be committed/)
    expect(done.error).toContain(wt.path)
    expect(readFileSync(join(wt.path, 'precious.txt'), 'utf8')).toBe('do not lose me\n')
    expect(r.git('rev-parse', 'fanout/agent1')).toBe(wt.baseCommit)
  })

  it('does not run commit hooks that would reject work in progress', async () => {
    const { r, wt } = await setup()
    const hook = join(r.root, '.git', 'hooks', 'pre-commit')
    writeFileSync(hook, '#!/bin/sh\necho "lint failed" >&2\nexit 1\n', { mode: 0o755 })
    writeFileSync(join(wt.path, 'wip.txt'), 'wip\n')
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'wip' })
    expect(done).toMatchObject({ changed: true, kept: true })
    expect(r.git('show', 'fanout/agent1:wip.txt')).toBe('wip')
  })

  it('keeps commits when the worktree folder was deleted under the agent', async () => {
    const { r, wt } = await setup()
    writeFileSync(join(wt.path, 'a.txt'), 'a\n')
    git(wt.path, 'add', '-A')
    git(wt.path, 'commit', '--quiet', '-m', 'work')
    const tip = git(wt.path, 'rev-parse', 'HEAD')
    rmSync(wt.path, { recursive: true, force: true })
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'gone' })
    expect(done).toMatchObject({ changed: true, kept: false, commit: tip })
    expect(done.error).toMatch(/no longer exists/)
    expect(r.git('rev-parse', 'fanout/agent1')).toBe(tip)
    expect(r.git('worktree', 'list')).not.toContain(wt.path)
  })

  it('tidies away a deleted, unchanged worktree and its branch', async () => {
    const { r, wt } = await setup()
    rmSync(wt.path, { recursive: true, force: true })
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'gone' })
    expect(done).toMatchObject({ changed: false, kept: false })
    expect(branches(r)).toBe('')
  })

  it('never commits into an enclosing repository when the worktree lost its .git file: the work lands on its branch', async () => {
    const { r, wt } = await setup()
    // The folder holding the user's projects is itself a repository (dotfiles-style home, monorepo parent).
    git(r.sandbox, 'init', '--quiet')
    unlinkSync(join(wt.path, '.git'))
    writeFileSync(join(wt.path, 'stray.txt'), 'x\n')
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'orphaned' })
    // Fanout runs git with the worktree's git folders from its own record, never by looking for a .git.
    expect(done).toMatchObject({ kept: true, changed: true })
    expect(r.git('show', 'fanout/agent1:stray.txt')).toBe('x')
    expect(() => git(r.sandbox, 'rev-parse', '--verify', 'HEAD')).toThrow()
    expect(git(r.sandbox, 'diff', '--cached', '--name-only')).toBe('')
    expect(existsSync(join(wt.path, 'stray.txt'))).toBe(true)
  })

  it('puts a multi-line description on one subject line', async () => {
    const { r, wt } = await setup()
    writeFileSync(join(wt.path, 'x.txt'), 'x\n')
    await finishAgentWorktree({ worktree: wt, agentType: 'writer', description: 'first line\n  second line ' })
    expect(r.git('log', '-1', '--format=%s', 'fanout/agent1')).toBe('Agent writer: first line second line')
  })
})
