// Fanout runs some git commands from the repository's git folder itself (worktree removal after a merge or a
// discard, ref updates): started there, git names the config files it read relative to that folder
// (`file:config`), not to the top of the checkout. An include the repository's config names beside it — here a
// worktree-only one, `includeIf "gitdir:**/worktrees/**"` → `.git/wt.cfg` with a clean filter — must still be
// found and its programs neutralised: `git worktree remove` checks the worktree is clean with a `git status` of
// its own inside the worktree, where that include applies, and a racily clean file makes it run the filter.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { forgetGitSettings, runGit } from '../../src/main/runtime/worktrees/git'

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-git-dir-cwd-')))
const markers = join(tmp, 'markers')
const home = join(tmp, 'home')
const saved = process.env.HOME
afterAll(() => {
  process.env.HOME = saved
  rmSync(tmp, { recursive: true, force: true })
})

function plainGit(cwd: string, ...args: string[]): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')))
  return execFileSync('git', args, { cwd, env: { ...env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' }, encoding: 'utf8' }).trim()
}

it("a worktree removed from the repository's git folder runs none of a worktree-only include's programs", async () => {
  mkdirSync(markers)
  mkdirSync(home)
  process.env.HOME = home
  forgetGitSettings()
  const root = join(tmp, 'repo')
  mkdirSync(root)
  plainGit(root, 'init', '-q', '-b', 'main')
  plainGit(root, 'config', 'user.email', 'a@b.invalid')
  plainGit(root, 'config', 'user.name', 'a')
  writeFileSync(join(root, 'a.txt'), 'one\n')
  writeFileSync(join(root, '.gitattributes'), 'a.txt filter=wtonly\n')
  plainGit(root, 'add', '-A')
  plainGit(root, 'commit', '-qm', 'one')
  plainGit(root, 'config', 'includeIf.gitdir:**/worktrees/**.path', 'wt.cfg')
  plainGit(root, 'config', '--file', join(root, '.git', 'wt.cfg'), 'filter.wtonly.clean', `sh -c 'touch ${markers}/wtonly-clean; cat' #`)
  const wt = join(tmp, 'wt')
  plainGit(root, 'worktree', 'add', '-q', '-b', 'agent', wt)
  // Racily clean: the file and the worktree's index carry the same time, so git hashes the file again (the filter).
  const then = new Date('2026-01-01T00:00:00Z')
  utimesSync(join(wt, 'a.txt'), then, then)
  utimesSync(join(root, '.git', 'worktrees', 'wt', 'index'), then, then)
  expect(readdirSync(markers)).toEqual([])

  await runGit(join(root, '.git'), ['worktree', 'remove', wt])

  expect(readdirSync(markers)).toEqual([])
  expect(plainGit(root, 'worktree', 'list')).not.toContain(wt)
})
