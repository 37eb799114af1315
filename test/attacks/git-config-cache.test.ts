// Fanout's git keeps what it worked out from a repository's config (which programs to override) while no config
// file git reads has changed, so a command spawns no `git config --list` of its own. A repository whose config
// turns hostile after that — a key added, an include written, a file an include names created, a nested `.git`
// that makes a new checkout, a submodule's config, a worktree's own config — must be read again: 0 programs run.
import { execFileSync } from 'node:child_process'
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { forgetGitSettings, runGit } from '../../src/main/runtime/worktrees/git'

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-git-cache-')))
const markers = join(tmp, 'markers')
const home = join(tmp, 'home')
const bin = join(tmp, 'bin')
const calls = join(tmp, 'git-calls.log')
const saved = { HOME: process.env.HOME, PATH: process.env.PATH }

function plainGit(cwd: string, ...args: string[]): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')))
  return execFileSync('/usr/bin/env', ['git', ...args], { cwd, env: { ...env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' }, encoding: 'utf8' }).trim()
}

/** A shell command that leaves a marker named `name` (and passes stdin on, as a filter would). */
const mark = (name: string) => `sh -c 'touch ${markers}/${name}; cat' #`
const fired = () => readdirSync(markers)
/** The `git config --list` runs Fanout's git made since the last call (a logging git is first on PATH). */
function listings(): number {
  const n = readFileSync(calls, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('config -z --list')).length
  writeFileSync(calls, '')
  return n
}

function repo(name: string): string {
  const r = join(tmp, name)
  mkdirSync(r)
  plainGit(r, 'init', '-q', '-b', 'main')
  writeFileSync(join(r, '.gitattributes'), '* filter=late diff=late\n')
  writeFileSync(join(r, 'a.txt'), 'one\n')
  return r
}

beforeAll(() => {
  mkdirSync(markers)
  mkdirSync(home)
  mkdirSync(bin)
  writeFileSync(calls, '')
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> ${calls}\nexec ${real} "$@"\n`)
  chmodSync(join(bin, 'git'), 0o755)
  process.env.HOME = home
  process.env.PATH = `${bin}:${process.env.PATH}`
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = P\n\temail = p@example.com\n')
})
afterEach(() => forgetGitSettings())
afterAll(() => {
  process.env.HOME = saved.HOME
  process.env.PATH = saved.PATH
  rmSync(tmp, { recursive: true, force: true })
})

describe("Fanout's git reads a repository's config once, and again whenever it changes", () => {
  it('spawns no config listing while nothing changed', async () => {
    const r = repo('steady')
    await runGit(r, ['status', '--porcelain'])
    listings()
    for (let i = 0; i < 5; i++) await runGit(r, ['status', '--porcelain'])
    expect(listings()).toBe(0)
    plainGit(r, 'config', 'core.fsmonitor', 'false')
    await runGit(r, ['status', '--porcelain'])
    expect(listings()).toBeGreaterThan(0)
  })

  it('a key added to .git/config after the first reading is overridden: 0 programs run', async () => {
    const r = repo('key-added')
    await runGit(r, ['add', '-A'])
    plainGit(r, 'config', 'filter.late.clean', mark('added-clean'))
    plainGit(r, 'config', 'diff.late.textconv', mark('added-textconv'))
    writeFileSync(join(r, 'a.txt'), 'two\n')
    await runGit(r, ['add', '-A'])
    await runGit(r, ['diff', '--cached'])
    expect(fired()).toEqual([])
  })

  it('an include whose file appears, or is rewritten, later: 0 programs run', async () => {
    const r = repo('include-later')
    plainGit(r, 'config', 'include.path', 'later-include')
    await runGit(r, ['add', '-A'])
    writeFileSync(join(r, '.git', 'later-include'), `[filter "late"]\n\tclean = ${mark('include-created')}\n`)
    writeFileSync(join(r, 'a.txt'), 'two\n')
    await runGit(r, ['add', '-A'])
    writeFileSync(join(r, '.git', 'later-include'), `[include]\n\tpath = deeper\n`)
    writeFileSync(join(r, '.git', 'deeper'), `[filter "late"]\n\tclean = ${mark('include-nested')}\n`)
    writeFileSync(join(r, 'a.txt'), 'three\n')
    await runGit(r, ['add', '-A'])
    expect(fired()).toEqual([])
  })

  it('a nested .git made after commands ran in its folder makes a new checkout, and its config is read: 0 programs run', async () => {
    const r = repo('nested')
    const inner = join(r, 'inner')
    mkdirSync(inner)
    writeFileSync(join(inner, 'b.txt'), 'bee\n')
    await runGit(inner, ['status', '--porcelain'])
    plainGit(inner, 'init', '-q')
    writeFileSync(join(inner, '.gitattributes'), '* filter=late\n')
    plainGit(inner, 'config', 'filter.late.clean', mark('nested-clean'))
    plainGit(inner, 'config', 'core.fsmonitor', mark('nested-fsmonitor'))
    await runGit(inner, ['add', '-A'])
    await runGit(inner, ['status', '--porcelain'])
    expect(fired()).toEqual([])
  })

  it("a submodule's config that appears after the first reading is overridden too: 0 programs run", async () => {
    const r = repo('late-submodule')
    writeFileSync(join(r, '.gitattributes'), '')
    plainGit(r, 'add', '-A')
    plainGit(r, 'commit', '-q', '-m', 'start')
    await runGit(r, ['status', '--porcelain'])
    const sub = join(tmp, 'late-submodule-origin')
    mkdirSync(sub)
    plainGit(sub, 'init', '-q')
    writeFileSync(join(sub, '.gitattributes'), '* filter=subf\n')
    writeFileSync(join(sub, 'f.txt'), 'x\n')
    plainGit(sub, 'add', '-A')
    plainGit(sub, 'commit', '-q', '-m', 's')
    plainGit(r, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'sub')
    writeFileSync(join(r, '.gitmodules'), `${readFileSync(join(r, '.gitmodules'), 'utf8')}\tignore = none\n`)
    plainGit(join(r, '.git', 'modules', 'sub'), 'config', '--file', 'config', 'filter.subf.clean', mark('late-submodule-clean'))
    writeFileSync(join(r, 'sub', 'f.txt'), 'changed\n')
    await runGit(r, ['status', '--porcelain'])
    await runGit(r, ['add', '-A'])
    expect(fired()).toEqual([])
  })

  it("a worktree's own config.worktree, turned on after the first reading: 0 programs run", async () => {
    const r = repo('worktree-config')
    await runGit(r, ['add', '-A'])
    plainGit(r, 'config', 'extensions.worktreeConfig', 'true')
    appendFileSync(join(r, '.git', 'config.worktree'), `[filter "late"]\n\tclean = ${mark('worktree-config-clean')}\n`)
    writeFileSync(join(r, 'a.txt'), 'two\n')
    await runGit(r, ['add', '-A'])
    expect(fired()).toEqual([])
  })
})
