// Fanout runs git on an agent's worktree with the git folders of its own record: a `.git` file or a
// `commondir` rewritten (by anything outside the sandbox that could) is never followed.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAgentWorktree, finishAgentWorktree, worktreeGitDirs } from './index'
import { git, makeTempRepo, type TempRepo } from './testing/temp-repo'

const repos: TempRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

/** A repository elsewhere whose config would leave a marker if git ever read it for the agent's worktree. */
function trap(r: TempRepo): { gitDir: string; markers: string } {
  const markers = join(r.sandbox, 'markers')
  mkdirSync(markers)
  const gitDir = join(r.sandbox, 'trap.git')
  git(r.sandbox, 'init', '-q', '--bare', gitDir)
  writeFileSync(
    join(gitDir, 'config'),
    `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch ${markers}/fsmonitor; false"\n[filter "evil"]\n\tclean = "touch ${markers}/clean; cat"\n`
  )
  writeFileSync(join(gitDir, 'objects', 'info', 'alternates'), `${join(r.root, '.git', 'objects')}\n`)
  return { gitDir, markers }
}

describe("an agent worktree's git folders come from Fanout's record", () => {
  it("a rewritten .git file is not followed: the work is committed to the agent's branch, nothing of the other repository runs", async () => {
    const r = makeTempRepo()
    repos.push(r)
    const { gitDir, markers } = trap(r)
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'a1' })
    writeFileSync(join(wt.path, '.git'), `gitdir: ${gitDir}\n`)
    writeFileSync(join(wt.path, '.gitattributes'), '* filter=evil\n')
    writeFileSync(join(wt.path, 'work.txt'), 'work\n')
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'work' })
    expect(done).toMatchObject({ changed: true, kept: true })
    expect(r.git('show', 'fanout/a1:work.txt')).toBe('work')
    expect(readdirSync(markers)).toEqual([])
  })

  it('a rewritten commondir is refused with a sentence, and nothing runs or moves', async () => {
    const r = makeTempRepo()
    repos.push(r)
    const { gitDir, markers } = trap(r)
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'a2' })
    const dirs = await worktreeGitDirs(wt.path, wt.commonDir)
    writeFileSync(join(dirs.gitDir, 'commondir'), `${gitDir}\n`)
    writeFileSync(join(wt.path, '.gitattributes'), '* filter=evil\n')
    writeFileSync(join(wt.path, 'work.txt'), 'work\n')
    await expect(worktreeGitDirs(wt.path, wt.commonDir)).rejects.toThrow(/commondir was changed/)
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'work' })
    expect(done).toMatchObject({ changed: false, kept: true, error: expect.stringMatching(/no longer leads to the repository.*left untouched/) })
    expect(r.git('rev-parse', 'fanout/a2')).toBe(wt.baseCommit)
    expect(readdirSync(markers)).toEqual([])
  })

  it("the agent's commits reach its branch, also when it pointed its HEAD at the user's branch; that branch does not move", async () => {
    const r = makeTempRepo()
    repos.push(r)
    const main = r.git('symbolic-ref', '--short', 'HEAD')
    const before = r.git('rev-parse', main)
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'a3' })
    expect(git(wt.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('HEAD')
    writeFileSync(join(wt.path, 'one.txt'), '1\n')
    git(wt.path, 'add', 'one.txt')
    git(wt.path, '-c', 'user.name=a', '-c', 'user.email=a@a', 'commit', '-qm', 'one')
    const agentCommit = git(wt.path, 'rev-parse', 'HEAD')
    const dirs = await worktreeGitDirs(wt.path, wt.commonDir)
    writeFileSync(join(dirs.gitDir, 'HEAD'), `ref: refs/heads/${main}\n`)
    writeFileSync(join(wt.path, 'two.txt'), '2\n')
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'two' })
    expect(done).toMatchObject({ changed: true, kept: true, error: expect.stringContaining(`refs/heads/${main}`) })
    expect(r.git('rev-parse', main)).toBe(before)
    expect(r.git('show', 'fanout/a3:two.txt')).toBe('2')
    // The agent's own commit was only ever its HEAD, which it gave up: its files are all on the branch.
    expect(r.git('show', 'fanout/a3:one.txt')).toBe('1')
    expect(agentCommit).not.toBe(before)
    expect(git(wt.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('HEAD')
  })
})
