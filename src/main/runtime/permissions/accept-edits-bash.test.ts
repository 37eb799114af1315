// acceptEdits covers Bash that only makes, copies, moves or removes files inside the project, as Claude Code
// 2.1.328 lets it (test/differential/accept-edits.test.ts compares the two): those run in the workspace
// sandbox without asking; a write outside the project, into a protected path (.git, .claude, hooks…), under
// an Edit deny rule, through a link that leads out, or any command not on the list still asks.
import { linkSync, mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PermissionMode } from '../../../shared/agent-definition'
import { useTempDirs, writeTree } from '../tools/test-kit'
import { decidePermission } from './decide'
import { emptyRules, rulesFrom } from './rules'

let cwd: string
let outside: string
useTempDirs('all', ['fanout-ae-cwd-', 'fanout-ae-out-'], (a, b) => {
  cwd = a
  outside = b
  writeTree(cwd, { 'README.md': 'hi\n', 'src/a.ts': '', 'src/deep/b.ts': '', '.git/HEAD': 'ref: refs/heads/main\n', 'pkg/.git/config': '', 'secret/k': '' })
  writeTree(outside, { 'x.txt': '' })
  mkdirSync(join(cwd, '.claude'), { recursive: true })
  symlinkSync(outside, join(cwd, 'out-link'))
  mkdirSync(join(cwd, 'dest'))
  symlinkSync(outside, join(cwd, 'dest', 'src'))
  symlinkSync(join(outside, 'x.txt'), join(cwd, 'file-link'))
  linkSync(join(cwd, '.git', 'HEAD'), join(cwd, 'head-hardlink'))
})

const decide = (command: string, mode: PermissionMode = 'acceptEdits', rules = emptyRules()) =>
  decidePermission({ mode, tool: { name: 'Bash', readOnly: false }, input: { command }, rules, cwd })

describe('acceptEdits: file-writing Bash inside the project', () => {
  it.each([
    'touch made.txt',
    'mkdir -p d/e',
    'cp README.md r2.md',
    'touch a.txt && mv a.txt b.txt',
    'rm -f src/a.ts',
    'rm -r src/deep',
    'mkdir q && rmdir q',
    'echo x > f.txt',
    'echo y >> f2.txt',
    'cat README.md > copy.md',
    'cd src && touch c.ts',
    'cp -r src src2'
  ])('runs without asking, in the workspace sandbox: %s', (command) => {
    expect(decide(command)).toEqual({ behavior: 'allow', sandbox: 'workspace' })
  })

  it.each([
    ['touch ../outside.txt', 'outside'],
    ['touch .git/hooks/pre-commit', '.git'],
    ['touch .claude/settings.json', '.claude'],
    ['echo x > .git/config', 'redirect into .git'],
    ['rm -rf .', 'the project itself'],
    ['rm -rf pkg', 'a tree holding a nested .git'],
    ['mv src/deep .git/x', 'moving into .git'],
    ['cp README.md out-link/y.txt', 'through a link that leads out'],
    ['echo x > file-link', 'a link to a file outside'],
    ['cp -r src dest', 'into a folder holding a link that leads out (cp writes through it)'],
    ['rm -r dest', 'a folder holding a link that leads out'],
    ['echo x > head-hardlink', 'a hard link to a protected file'],
    ['touch ~/.bashrc', 'the home folder'],
    ['cp README.md /tmp/elsewhere.md', 'an absolute path outside'],
    ['chmod +x README.md', 'not on the list (Claude Code asks too)'],
    ['ln -s README.md l.md', 'not on the list'],
    ['echo z | tee t.txt', 'tee asks, as in Claude Code'],
    ['sed -i s/a/b/ README.md', 'sed -i asks, as in Claude Code'],
    ['touch $HOME/x', 'a variable'],
    ['echo x > *.md', 'a glob redirect'],
    ['rm -rf -- /', 'the root'],
    ['touch a && curl http://x', 'a part that is not a file edit']
  ])('asks: %s (%s)', (command) => {
    expect(decide(command).behavior).toBe('ask')
  })

  it('an Edit deny rule covers Bash writes too', () => {
    const rules = rulesFrom({ deny: ['Edit(./secret/**)'] }, 'project', cwd)
    expect(decide('touch secret/new', 'acceptEdits', rules).behavior).not.toBe('allow')
    expect(decide('rm -r secret', 'acceptEdits', rules).behavior).not.toBe('allow')
  })

  it('only in acceptEdits: default mode asks, plan denies', () => {
    expect(decide('touch made.txt', 'default').behavior).toBe('ask')
    expect(decide('mkdir d', 'plan').behavior).toBe('deny')
  })

  it('without the sandbox it asks', () => {
    const d = decidePermission({
      mode: 'acceptEdits',
      tool: { name: 'Bash', readOnly: false },
      input: { command: 'touch made.txt' },
      rules: emptyRules(),
      cwd,
      sandbox: { available: false, reason: 'no bubblewrap' }
    })
    expect(d.behavior).toBe('ask')
  })
})
