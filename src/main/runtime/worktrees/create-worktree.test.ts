import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAgentWorktree, finishAgentWorktree, WorktreeError } from './index'
import { git, makeTempRepo, type TempRepo } from './testing/temp-repo'

const repos: TempRepo[] = []
const temps: string[] = []
function repo(options?: Parameters<typeof makeTempRepo>[0]): TempRepo {
  const r = makeTempRepo(options)
  repos.push(r)
  return r
}
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true })
})

/** Everything about the parent checkout that an agent worktree must leave alone. */
function parentState(r: TempRepo) {
  return {
    head: r.git('rev-parse', 'HEAD'),
    branch: r.git('rev-parse', '--abbrev-ref', 'HEAD'),
    staged: r.git('diff', '--cached', '--name-status'),
    index: r.git('ls-files', '--stage'),
    unstaged: r.git('diff'),
    status: r.git('status', '--porcelain=v1', '--untracked-files=all'),
    stashes: r.git('stash', 'list'),
    files: ['README.md', 'src/app.ts', 'notes.txt'].map((f) => (existsSync(join(r.root, f)) ? r.read(f) : null))
  }
}

describe('createAgentWorktree', () => {
  it('checks out the parent HEAD on fanout/<agentId> in a folder outside the checkout', async () => {
    const r = repo()
    const head = r.git('rev-parse', 'HEAD')
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'a1' })

    expect(wt.branch).toBe('fanout/a1')
    expect(wt.baseCommit).toBe(head)
    expect(wt.repoRoot).toBe(r.root)
    expect(wt.reused).toBe(false)
    expect(wt.path).toBe(join(r.sandbox, '.fanout-worktrees', 'project', 'a1'))
    expect(wt.path.startsWith(r.root + '/')).toBe(false)
    expect(git(wt.path, 'rev-parse', 'HEAD')).toBe(head)
    // Detached: the agent's sandbox can write no ref, and Fanout moves fanout/a1 to its commits (agent-branch.ts).
    expect(git(wt.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('HEAD')
    expect(r.git('rev-parse', 'fanout/a1')).toBe(head)
    expect(readFileSync(join(wt.path, 'src/app.ts'), 'utf8')).toBe('export const answer = 42\n')
    expect(r.git('worktree', 'list')).toContain(wt.path)
  })

  it("starts from the parent's current HEAD, not the branch's first commit, and mirrors the parent's cwd", async () => {
    const r = repo()
    r.write('packages/web/index.ts', 'export {}\n')
    const second = r.commitAll('add web package')
    const wt = await createAgentWorktree({ repoCwd: join(r.root, 'packages/web'), agentId: 'sub' })
    expect(wt.baseCommit).toBe(second)
    expect(wt.relativeCwd).toBe('packages/web')
    expect(wt.cwd).toBe(join(wt.path, 'packages/web'))
    expect(existsSync(join(wt.cwd, 'index.ts'))).toBe(true)
  })

  it('works from a detached HEAD', async () => {
    const r = repo()
    const first = r.git('rev-parse', 'HEAD')
    r.write('later.txt', 'later\n')
    r.commitAll('later')
    r.git('checkout', '--quiet', '--detach', first)
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'det' })
    expect(wt.baseCommit).toBe(first)
    expect(existsSync(join(wt.path, 'later.txt'))).toBe(false)
    expect(r.git('rev-parse', 'HEAD')).toBe(first)
    expect(r.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('HEAD')
  })

  it('recreates an untracked parent cwd inside the worktree so the agent can start there', async () => {
    const r = repo()
    mkdirSync(join(r.root, 'scratch/deep'), { recursive: true })
    const wt = await createAgentWorktree({ repoCwd: join(r.root, 'scratch/deep'), agentId: 'scr' })
    expect(wt.relativeCwd).toBe('scratch/deep')
    expect(existsSync(wt.cwd)).toBe(true)
    // An empty folder is not a change: finishing removes the worktree.
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'x', description: 'nothing' })
    expect(done).toMatchObject({ changed: false, kept: false })
  })

  it('gives a clear error for a folder that is not in a git repository', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-nogit-')))
    temps.push(dir)
    const err = await createAgentWorktree({ repoCwd: dir, agentId: 'x' }).catch((e) => e)
    expect(err).toBeInstanceOf(WorktreeError)
    expect(err.message).toBe(`isolation: worktree needs a git repository; ${dir} is not inside one`)
  })

  it('gives a clear error for a repository without commits, and leaves no branch or folder behind', async () => {
    const r = repo({ initialCommit: false })
    const err = await createAgentWorktree({ repoCwd: r.root, agentId: 'x' }).catch((e) => e)
    expect(err).toBeInstanceOf(WorktreeError)
    expect(err.message).toContain('needs at least one commit')
    expect(err.message).toContain(r.root)
    expect(r.git('branch', '--list')).toBe('')
    expect(existsSync(join(r.sandbox, '.fanout-worktrees', 'project', 'x'))).toBe(false)
  })

  it('refuses agent ids that cannot name a branch, and a base folder inside the checkout', async () => {
    const r = repo()
    await expect(createAgentWorktree({ repoCwd: r.root, agentId: '../escape' })).rejects.toThrow(/cannot name a branch/)
    await expect(createAgentWorktree({ repoCwd: r.root, agentId: 'ok', baseDir: join(r.root, 'wts') })).rejects.toThrow(/would be inside the checkout/)
    expect(r.git('branch', '--list', 'fanout/*')).toBe('')
  })

  it('uses a configured base folder', async () => {
    const r = repo()
    const base = join(r.sandbox, 'data', 'worktrees')
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'b1', baseDir: base })
    expect(wt.path).toBe(join(base, 'project', 'b1'))
    expect(r.git('rev-parse', 'fanout/b1')).toBe(git(wt.path, 'rev-parse', 'HEAD'))
  })

  it("never touches the parent's checkout, index, branch or uncommitted work", async () => {
    const r = repo()
    r.write('src/app.ts', 'export const answer = 43 // edited, unstaged\n')
    r.write('README.md', '# staged edit\n')
    r.git('add', 'README.md')
    r.write('notes.txt', 'untracked note\n')
    const before = parentState(r)

    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'p1' })
    // The agent sees the committed state only, not the parent's uncommitted edits.
    expect(readFileSync(join(wt.path, 'src/app.ts'), 'utf8')).toBe('export const answer = 42\n')
    expect(existsSync(join(wt.path, 'notes.txt'))).toBe(false)
    writeFileSync(join(wt.path, 'src/app.ts'), 'export const answer = 7\n')
    writeFileSync(join(wt.path, 'agent.txt'), 'from the agent\n')
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'edit app' })
    expect(done.changed).toBe(true)

    expect(parentState(r)).toEqual(before)
  })

  it('creates 8 worktrees concurrently on one repository, each on its own branch', async () => {
    const r = repo()
    const head = r.git('rev-parse', 'HEAD')
    const before = parentState(r)
    const ids = Array.from({ length: 8 }, (_, i) => `c${i}`)
    const wts = await Promise.all(ids.map((agentId) => createAgentWorktree({ repoCwd: r.root, agentId })))

    expect(new Set(wts.map((w) => w.path)).size).toBe(8)
    for (const [i, wt] of wts.entries()) {
      expect(wt.branch).toBe(`fanout/c${i}`)
      expect(git(wt.path, 'rev-parse', 'HEAD')).toBe(head)
      expect(r.git('rev-parse', `fanout/c${i}`)).toBe(head)
    }
    expect(r.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(9)

    // Each agent edits its own copy; finishing them all at once keeps every change on its own branch.
    await Promise.all(wts.map((wt, i) => writeFileSync(join(wt.path, 'src/app.ts'), `export const answer = ${i}\n`)))
    const done = await Promise.all(wts.map((wt, i) => finishAgentWorktree({ worktree: wt, agentType: 'w', description: `task ${i}` })))
    for (const [i, d] of done.entries()) {
      expect(d).toMatchObject({ changed: true, kept: true })
      expect(r.git('show', `fanout/c${i}:src/app.ts`)).toBe(`export const answer = ${i}`)
      expect(r.git('log', '-1', '--format=%s', `fanout/c${i}`)).toBe(`Agent w: task ${i}`)
    }
    expect(parentState(r)).toEqual(before)
  })

  it('picks up the same worktree again when an agent is resumed', async () => {
    const r = repo()
    const first = await createAgentWorktree({ repoCwd: r.root, agentId: 'res' })
    writeFileSync(join(first.path, 'progress.txt'), 'half done\n')
    const again = await createAgentWorktree({ repoCwd: r.root, agentId: 'res' })
    expect(again).toMatchObject({ path: first.path, branch: first.branch, baseCommit: first.baseCommit, reused: true })
    expect(readFileSync(join(again.path, 'progress.txt'), 'utf8')).toBe('half done\n')
  })

  it('works when the parent is itself an agent worktree (nested isolation)', async () => {
    const r = repo()
    const outer = await createAgentWorktree({ repoCwd: r.root, agentId: 'outer' })
    writeFileSync(join(outer.path, 'outer.txt'), 'outer work\n')
    git(outer.path, 'add', '-A')
    git(outer.path, 'commit', '--quiet', '-m', 'outer work')
    const inner = await createAgentWorktree({ repoCwd: outer.path, agentId: 'inner' })
    expect(inner.baseCommit).toBe(git(outer.path, 'rev-parse', 'HEAD'))
    expect(inner.repoRoot).toBe(outer.path)
    // Both live next to the main checkout, not nested inside each other.
    expect(inner.path).toBe(join(r.sandbox, '.fanout-worktrees', 'project', 'inner'))
    expect(existsSync(join(inner.path, 'outer.txt'))).toBe(true)
  })
})
