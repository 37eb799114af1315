// `fanout worktrees list|clean` end to end on a real repository where a crashed run left two worktrees.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureCliBundle, runCli } from '../../../test/support/cli'
import { createAgentWorktree, worktreePathFor } from '../runtime/worktrees'
import { killedAdd } from '../runtime/worktrees/testing/killed-add'
import { git, makeTempRepo, type TempRepo } from '../runtime/worktrees/testing/temp-repo'

let repo: TempRepo | null = null
beforeAll(() => ensureCliBundle(), 60_000)
afterEach(() => repo?.cleanup())

async function deadPid(): Promise<number> {
  const p = spawn('true')
  await new Promise((done) => p.on('exit', done))
  return p.pid!
}

async function crashed() {
  repo = makeTempRepo()
  const pid = await deadPid()
  const make = async (agentId: string) => {
    const wt = await createAgentWorktree({ repoCwd: repo!.root, agentId, agentType: 'coder', description: `task ${agentId}` })
    const file = join(git(wt.path, 'rev-parse', '--absolute-git-dir'), 'fanout.json')
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), owner: { pid, hostname: hostname() } }))
    return wt
  }
  const clean = await make('clean')
  const dirty = await make('dirty')
  writeFileSync(join(dirty.path, 'unsaved.txt'), 'work in progress\n')
  return { clean, dirty }
}

describe('fanout worktrees', () => {
  it('lists what a crash left, cleans the unchanged one, keeps uncommitted work until --force commits it', async () => {
    const { clean, dirty } = await crashed()
    const list = await runCli(['worktrees', 'list', '--cwd', repo!.root])
    expect(list.code).toBe(0)
    expect(list.stdout).toContain(`${clean.path}  (coder agent "task clean"; no changes)`)
    expect(list.stdout).toContain(`${dirty.path}  (coder agent "task dirty"; uncommitted changes)`)

    const tidy = await runCli(['worktrees', 'clean', '--cwd', repo!.root])
    expect(tidy.code).toBe(1)
    expect(tidy.stdout).toContain(`removed ${clean.path}; branch deleted`)
    expect(tidy.stdout).toMatch(new RegExp(`kept ${dirty.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*uncommitted`))
    expect(existsSync(join(dirty.path, 'unsaved.txt'))).toBe(true)

    const forced = await runCli(['worktrees', 'clean', '--force', '--cwd', repo!.root])
    expect(forced.code).toBe(0)
    expect(forced.stdout).toMatch(/branch fanout\/dirty kept \(uncommitted changes saved as [0-9a-f]{12}\)/)
    expect(git(repo!.root, 'show', 'fanout/dirty:unsaved.txt')).toBe('work in progress')
    expect((await runCli(['worktrees', 'list', '--cwd', repo!.root])).stdout).toBe('No agent worktrees are left behind.\n')
  })

  it('lists and cleans a worktree a killed `git worktree add` left, whose placeholder HEAD broke `git log --all`', async () => {
    repo = makeTempRepo()
    const path = worktreePathFor({ mainRoot: repo.root, repoName: 'project' }, 'half')
    killedAdd(repo, 'half', path, 'commondir')
    expect(() => git(repo!.root, 'log', '--all')).toThrow(/bad object/)
    expect((await runCli(['worktrees', 'list', '--cwd', repo.root])).stdout).toBe(`${path}  (agent half; left half made by a stopped git worktree add)\n`)
    const tidy = await runCli(['worktrees', 'clean', '--cwd', repo.root])
    expect(tidy.stdout).toBe(`removed ${path}; branch fanout/half kept\n`)
    expect(tidy.code).toBe(0)
    expect(existsSync(path)).toBe(false)
    expect(git(repo.root, 'log', '--all', '--format=%H')).toContain(git(repo.root, 'rev-parse', 'HEAD'))
  })
})
