// A repository someone else made controls its .git/config: every setting that makes a read-only git command
// run a program or read a file elsewhere makes git not read-only there, in the main checkout and in a
// worktree (whose config lives in the common git folder).
import { execFileSync } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PathPolicy } from '../../security/path-policy'
import { useTempDirs } from '../../tools/test-kit'
import { bashReadOnlyVerdict } from '../bash-read-only'
import { configKeys } from './git-repo-config'

let dir: string
useTempDirs('each', ['fanout-git-config-'], (d) => {
  dir = d
  writeFileSync(join(d, 'a.txt'), 'a\n')
  execFileSync('git', ['init', '-q'], { cwd: d })
  execFileSync('git', ['config', 'user.email', 't@t'], { cwd: d })
  execFileSync('git', ['config', 'user.name', 't'], { cwd: d })
})

const verdict = (c: string, cwd = dir) => bashReadOnlyVerdict(c, new PathPolicy({ cwd, home: '/nonexistent-home' }))
const COMMANDS = ['git status', 'git diff', 'git log -p -- a.txt', 'git blame a.txt', 'git show HEAD:a.txt', 'git stash list', 'git -C . log']

describe("the repository's own git config", () => {
  it('an ordinary one (init, user, a remote, a branch) leaves git read-only', () => {
    appendFileSync(
      join(dir, '.git/config'),
      '[remote "origin"]\n\turl = https://example.com/x.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n'
    )
    for (const c of COMMANDS) expect(verdict(c), c).toEqual({ readOnly: true })
  })

  it.each([
    ['[diff "x"]\n\ttextconv = cat /etc/passwd', 'diff.<x>.textconv'],
    ['[diff "x"]\n\tcommand = touch /tmp/pwned', 'diff.<x>.command'],
    ['[diff]\n\texternal = touch /tmp/pwned', 'diff.external'],
    ['[filter "lfs"]\n\tsmudge = touch /tmp/pwned', 'filter.<lfs>.smudge'],
    ['[filter.x]\n\tclean = touch /tmp/pwned', 'filter.<x>.clean'],
    ['[core]\n\tfsmonitor = touch /tmp/pwned', 'core.fsmonitor'],
    ['[core]\n\tFSMonitor=touch /tmp/pwned', 'core.fsmonitor'],
    ['[core]\n\tpager = touch /tmp/pwned', 'core.pager'],
    ['[core]\n\tworktree = /etc', 'core.worktree'],
    ['[core]\n\texcludesFile = /home/x/.ssh/id_rsa', 'core.excludesfile'],
    ['[core]\n\tattributesFile = /etc/shadow', 'core.attributesfile'],
    ['[core]\n\thooksPath = /tmp/hooks', 'core.hookspath'],
    ['[log]\n\tshowSignature = true', 'log.showsignature'],
    ['[gpg]\n\tprogram = touch /tmp/pwned', 'gpg.program'],
    ['[blame]\n\tignoreRevsFile = /home/x/.claude.json', 'blame.ignorerevsfile'],
    ['[mailmap]\n\tfile = /home/x/.claude.json', 'mailmap.file'],
    ['[include]\n\tpath = /tmp/evil.config', 'include.path'],
    ['[includeIf "gitdir:/"]\n\tpath = /tmp/evil.config', 'includeif.<gitdir:/>.path'],
    ['[pager]\n\tlog = touch /tmp/pwned', 'pager.log'],
    ['[alias]\n\tstatus = !touch /tmp/pwned', 'alias.status'],
    ['[remote "origin"]\n\tuploadpack = touch /tmp/pwned', 'remote.uploadpack']
  ])('%s makes git ask', (config, key) => {
    appendFileSync(join(dir, '.git/config'), `${config}\n`)
    for (const c of COMMANDS) {
      const v = verdict(c)
      expect(v.readOnly, c).toBe(false)
      expect(v.readOnly ? '' : v.reason, c).toContain(key)
    }
  })

  it('a worktree reads the common folder config, and its own config.worktree', () => {
    execFileSync('git', ['commit', '-qm', 'x', '--allow-empty'], { cwd: dir })
    const wt = join(dir, 'wt')
    execFileSync('git', ['worktree', 'add', '-q', wt], { cwd: dir })
    expect(verdict('git status', wt)).toEqual({ readOnly: true })
    appendFileSync(join(dir, '.git/config'), '[core]\n\tfsmonitor = touch /tmp/pwned\n')
    expect(verdict('git status', wt).readOnly).toBe(false)
  })

  it('a .git file that sends git to another repository on the machine makes git ask; a real worktree does not', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'fanout-git-elsewhere-'))
    try {
      execFileSync('git', ['init', '-q'], { cwd: elsewhere })
      const planted = join(dir, 'planted')
      mkdirSync(planted)
      writeFileSync(join(planted, '.git'), `gitdir: ${join(elsewhere, '.git')}\n`)
      const v = verdict('git log -p', planted)
      expect(v.readOnly ? '' : v.reason).toContain('outside the working directories and not this worktree')
      // Pointing at someone else's linked worktree: its git folder names another .git file back.
      execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'x'], { cwd: elsewhere })
      execFileSync('git', ['worktree', 'add', '-q', join(elsewhere, 'wt')], { cwd: elsewhere })
      writeFileSync(join(planted, '.git'), `gitdir: ${join(elsewhere, '.git', 'worktrees', 'wt')}\n`)
      expect(verdict('git status', planted).readOnly).toBe(false)
    } finally {
      rmSync(elsewhere, { recursive: true, force: true })
    }
  })

  it("a submodule's git folder is the repository's too: its config is held to the same list, its core.worktree inside is fine", () => {
    const mod = join(dir, '.git', 'modules', 'lib')
    mkdirSync(mod, { recursive: true })
    writeFileSync(join(mod, 'HEAD'), 'ref: refs/heads/main\n')
    writeFileSync(join(mod, 'config'), '[core]\n\trepositoryformatversion = 0\n\tworktree = ../../../lib\n')
    mkdirSync(join(dir, 'lib'))
    writeFileSync(join(dir, 'lib', '.git'), 'gitdir: ../.git/modules/lib\n')
    expect(verdict('git status')).toEqual({ readOnly: true })
    expect(verdict('cd lib && git status')).toEqual({ readOnly: true })
    writeFileSync(join(mod, 'config'), '[core]\n\tworktree = ../../../../../../..\n')
    expect(verdict('git status').readOnly).toBe(false)
    writeFileSync(join(mod, 'config'), '[core]\n\tworktree = ../../../lib\n\tfsmonitor = touch /tmp/pwned\n')
    const v = verdict('git status')
    expect(v.readOnly ? '' : v.reason).toContain('core.fsmonitor')
    // Nested: a submodule of the submodule.
    writeFileSync(join(mod, 'config'), '[core]\n\tworktree = ../../../lib\n')
    const nested = join(mod, 'modules', 'deep', 'er')
    mkdirSync(nested, { recursive: true })
    writeFileSync(join(nested, 'HEAD'), 'x\n')
    writeFileSync(join(nested, 'config'), '[diff "x"]\n\ttextconv = cat /etc/shadow\n')
    expect(verdict('git diff').readOnly).toBe(false)
  })

  it('a config that cannot be read as git config, or is not a file, makes git ask', () => {
    writeFileSync(join(dir, '.git/config'), '[core]\n\t= broken\n')
    expect(verdict('git status').readOnly).toBe(false)
    const other = join(dir, 'sub')
    mkdirSync(other)
    writeFileSync(join(other, '.git'), 'not a gitdir line\n')
    expect(verdict('git status', other).readOnly).toBe(false)
  })

  it('reads keys as git does: sections, subsections, legacy dotted names, comments, bare booleans', () => {
    expect(configKeys('# c\n[core]\n\tbare = false ; x\n\tfilemode\n[remote "o"]\nurl=x\n[branch.main]\nremote = o\n[diff "a b"] textconv = x\n')).toEqual([
      'core.bare',
      'core.filemode',
      'remote.url',
      'branch.remote',
      'diff.<a b>.textconv'
    ])
    expect(configKeys('key = before any section')).toBeNull()
  })
})
