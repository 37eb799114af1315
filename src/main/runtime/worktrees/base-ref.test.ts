// Claude Code's `worktree.baseRef`: read from the same settings files, most specific winning, and applied
// when a new agent worktree is made — `fresh` from origin's default branch (fetched from a real local
// remote), `head` from the current commit.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAgentWorktree, readBaseRefSetting } from './index'
import { git, makeTempRepo, type TempRepo } from './testing/temp-repo'

const repos: TempRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

function repoWithRemote(): { r: TempRepo; remoteTip: string } {
  const r = makeTempRepo()
  repos.push(r)
  const remote = join(r.sandbox, 'remote.git')
  git(r.sandbox, 'init', '--quiet', '--bare', '--initial-branch=main', remote)
  r.git('remote', 'add', 'origin', remote)
  r.git('push', '--quiet', 'origin', 'main')
  // A newer commit on the remote that the local checkout has not fetched yet, and a local commit not pushed.
  const other = join(r.sandbox, 'other')
  git(r.sandbox, 'clone', '--quiet', remote, other)
  git(other, '-c', 'user.name=O', '-c', 'user.email=o@x', 'commit', '--quiet', '--allow-empty', '-m', 'pushed by someone else')
  git(other, 'push', '--quiet', 'origin', 'main')
  r.write('local.txt', 'not pushed\n')
  r.commitAll('local only')
  return { r, remoteTip: git(other, 'rev-parse', 'HEAD') }
}

const settings = (dir: string, file: string, value: unknown) => {
  mkdirSync(join(dir, '.claude'), { recursive: true })
  writeFileSync(join(dir, '.claude', file), JSON.stringify({ worktree: { baseRef: value } }))
}

describe('worktree.baseRef', () => {
  it('reads the most specific file: managed over local over project over user; a bad value is reported and ignored', () => {
    const r = makeTempRepo()
    repos.push(r)
    const home = join(r.sandbox, 'home')
    expect(readBaseRefSetting({ cwd: r.root, home, managedFile: null })).toEqual({ value: 'head', file: null, scope: null, problems: [] })
    settings(home, 'settings.json', 'fresh')
    expect(readBaseRefSetting({ cwd: r.root, home, managedFile: null })).toMatchObject({
      value: 'fresh',
      file: join(home, '.claude', 'settings.json'),
      scope: 'user'
    })
    settings(r.root, 'settings.json', 'head')
    expect(readBaseRefSetting({ cwd: r.root, home, managedFile: null, projectTrusted: true })).toMatchObject({
      value: 'head',
      file: join(r.root, '.claude', 'settings.json'),
      scope: 'project'
    })
    settings(r.root, 'settings.local.json', 'origin/main')
    const bad = readBaseRefSetting({ cwd: r.root, home, managedFile: null, projectTrusted: true })
    expect(bad.value).toBe('head')
    expect(bad.problems).toEqual([
      `${join(r.root, '.claude', 'settings.local.json')}: "worktree.baseRef" is "origin/main"; it must be "head" or "fresh", so it is ignored.`
    ])
    // An untrusted folder's settings cannot make Fanout fetch from its remote: the user's value holds.
    settings(r.root, 'settings.local.json', 'fresh')
    settings(home, 'settings.json', 'head')
    const untrusted = readBaseRefSetting({ cwd: r.root, home, managedFile: null })
    expect(untrusted).toMatchObject({ value: 'head', scope: 'project' })
    expect(untrusted.problems[0]).toContain('"worktree.baseRef" is ignored: this folder is not trusted')
    expect(readBaseRefSetting({ cwd: r.root, home, managedFile: null, projectTrusted: true })).toMatchObject({ value: 'fresh', scope: 'local' })
    // "head" asks Fanout to do less: any folder may say it.
    settings(r.root, 'settings.local.json', 'head')
    settings(home, 'settings.json', 'fresh')
    expect(readBaseRefSetting({ cwd: r.root, home, managedFile: null })).toMatchObject({ value: 'head', scope: 'local' })
    const managed = join(r.sandbox, 'managed.json')
    writeFileSync(managed, JSON.stringify({ worktree: { baseRef: 'fresh' } }))
    expect(readBaseRefSetting({ cwd: r.root, home, managedFile: managed })).toMatchObject({ value: 'fresh', file: managed, scope: 'managed' })
  })

  it("fresh starts from origin's default branch after fetching it; head from the local commit", async () => {
    const { r, remoteTip } = repoWithRemote()
    const fresh = await createAgentWorktree({ repoCwd: r.root, agentId: 'f1', baseRef: 'fresh' })
    expect(fresh.baseCommit).toBe(remoteTip)
    expect(fresh.startedFrom).toEqual({ ref: 'origin/main' })
    expect(git(fresh.path, 'log', '-1', '--format=%s')).toBe('pushed by someone else')
    const head = await createAgentWorktree({ repoCwd: r.root, agentId: 'h1', baseRef: 'head' })
    expect(head.baseCommit).toBe(r.git('rev-parse', 'HEAD'))
    expect(git(head.path, 'log', '-1', '--format=%s')).toBe('local only')
  })

  it('fresh without a remote falls back to the current commit and says why', async () => {
    const r = makeTempRepo()
    repos.push(r)
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'n1', baseRef: 'fresh' })
    expect(wt.baseCommit).toBe(r.git('rev-parse', 'HEAD'))
    expect(wt.startedFrom).toEqual({ ref: 'HEAD', note: 'worktree.baseRef is "fresh" but the repository has no remote named origin' })
  })
})
