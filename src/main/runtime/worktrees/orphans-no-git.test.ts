// The leftover-worktree check runs at every `fanout run`: in a repository with no linked worktree it starts no git.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findOrphanWorktrees } from './orphans'

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-orphans-no-git-')))
const savedPath = process.env.PATH
afterAll(() => {
  process.env.PATH = savedPath
  rmSync(tmp, { recursive: true, force: true })
})

describe('findOrphanWorktrees without linked worktrees', () => {
  it('answers from the files alone, and still asks git once a linked worktree exists', async () => {
    const repo = join(tmp, 'repo')
    mkdirSync(repo)
    execFileSync('git', ['init', '-q'], { cwd: repo })
    execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=b', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: repo })
    const bin = join(tmp, 'bin')
    const log = join(tmp, 'calls.log')
    mkdirSync(bin)
    writeFileSync(log, '')
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> ${log}\nexec ${real} "$@"\n`)
    chmodSync(join(bin, 'git'), 0o755)
    process.env.PATH = `${bin}:${savedPath}`
    expect(await findOrphanWorktrees({ repoCwd: join(repo) })).toEqual([])
    expect(readFileSync(log, 'utf8')).toBe('')
    execFileSync(real, ['worktree', 'add', '-q', '--detach', join(tmp, 'theirs')], { cwd: repo })
    expect(await findOrphanWorktrees({ repoCwd: repo })).toEqual([])
    expect(readFileSync(log, 'utf8')).toMatch(/worktree list/)
  })
})
