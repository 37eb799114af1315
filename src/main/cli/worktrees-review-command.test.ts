// `fanout worktrees diff|merge|discard|preview` end to end through ./bin/fanout, on real repositories where
// agents worked in real worktrees: what a person at a terminal sees, and the exit status a script checks.
import { existsSync } from 'node:fs'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureCliBundle, runCli } from '../../../test/support/cli'
import { agentWorked } from '../runtime/review/testing/agent-work'
import { makeTempRepo, type TempRepo } from '../runtime/worktrees/testing/temp-repo'

let repo: TempRepo | null = null
beforeAll(() => ensureCliBundle(), 60_000)
afterEach(() => repo?.cleanup())

const branches = () => repo!.git('branch', '--list', 'fanout/*', '--format=%(refname:short)').split('\n').filter(Boolean)
const cli = (...args: string[]) => runCli(['worktrees', ...args, '--cwd', repo!.root])

async function twoAgents(sameFile: boolean) {
  repo = makeTempRepo()
  await agentWorked(repo, 'a1', { files: { 'src/app.ts': 'export const answer = 1\n' }, agentType: 'fixer', description: 'answer one' })
  await agentWorked(repo, 'a2', {
    files: sameFile ? { 'src/app.ts': 'export const answer = 2\n' } : { 'notes.md': '# notes\n' },
    agentType: 'writer',
    description: 'second'
  })
}

describe('fanout worktrees (review)', () => {
  it('each subcommand has --help', async () => {
    repo = makeTempRepo()
    for (const sub of ['diff', 'merge', 'discard', 'preview']) {
      const r = await cli(sub, '--help')
      expect(r.code, sub).toBe(0)
      expect(r.stdout, sub).toMatch(new RegExp(`^Usage: fanout worktrees ${sub}`))
    }
    const top = await runCli(['worktrees', '--help'])
    expect(top.code).toBe(0)
    expect(top.stdout).toContain('fanout worktrees merge [AGENT|BRANCH...] [--all] [--squash]')
    const wrong = await cli('merge', '--yes')
    expect(wrong).toMatchObject({ code: 2, stderr: expect.stringContaining('--yes does not apply here') })
  })

  it('diff shows commits, files with counts and the patch; --stat leaves the patch out', async () => {
    await twoAgents(false)
    const r = await cli('diff', 'a1')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('fanout/a1  fixer agent a1 "answer one"  (1 commit, 1 file, +1 −1)')
    expect(r.stdout).toContain('    M  src/app.ts  +1 −1')
    expect(r.stdout).toContain('-export const answer = 42\n+export const answer = 1')
    expect(r.stdout).not.toContain('fanout/a2')
    const stat = await cli('diff', '--stat')
    expect(stat.stdout).toContain('fanout/a2  writer agent a2 "second"')
    expect(stat.stdout).not.toContain('+export')
    expect(await cli('diff', 'nobody')).toMatchObject({ code: 2, stderr: expect.stringContaining('No agent branch matches "nobody"') })
  })

  it('merge --all puts two agents writing different files on the current branch, checkout clean', async () => {
    await twoAgents(false)
    const r = await cli('merge', '--all')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^fanout\/a1 merged into main as [0-9a-f]{10} \(1 file\); worktree and branch removed$/m)
    expect(r.stdout).toMatch(/^fanout\/a2 merged into main as [0-9a-f]{10} \(1 file\); worktree and branch removed$/m)
    expect(repo!.read('src/app.ts')).toBe('export const answer = 1\n')
    expect(repo!.read('notes.md')).toBe('# notes\n')
    expect(repo!.git('status', '--porcelain')).toBe('')
    expect(branches()).toEqual([])
  })

  it('two agents writing the same file: preview reports it, merge exits 1 naming the file, checkout clean, branch kept', async () => {
    await twoAgents(true)
    const p = await cli('preview')
    expect(p.code).toBe(1)
    expect(p.stdout).toContain('  1  fixer   fanout/a1  1 file    merges cleanly into main\n  2  writer  fanout/a2  1 file    merges cleanly into main\n')
    expect(p.stdout).toContain('      1         2\n  1   —         CONFLICT\n  2   CONFLICT  —\n')
    expect(p.stdout).toContain('  1 × 2: conflict in src/app.ts')
    expect(p.stdout).toContain(
      'merge --all would merge 1 (fixer), then stop at 2 (writer): The writer agent a2 (fanout/a2) conflicts with agent a1 in src/app.ts.\n  src/app.ts\n'
    )
    const json = JSON.parse((await cli('preview', '--json')).stdout)
    expect(json.pairs[0]).toEqual({ a: 'a1', b: 'a2', overlap: ['src/app.ts'], result: { clean: false, conflicts: ['src/app.ts'] } })

    const head = repo!.git('rev-parse', 'HEAD')
    const m = await cli('merge', 'a2', 'a1', '--squash')
    expect(m.code).toBe(1)
    expect(m.stdout).toMatch(/^fanout\/a2 squashed onto main/m)
    expect(m.stderr).toContain(
      'fanout worktrees merge: stopped at fanout/a1: The fixer agent a1 (fanout/a1) conflicts with what was just merged from agent a2 in src/app.ts'
    )
    expect(m.stderr).toContain('\n  src/app.ts\n')
    expect(m.stderr).toContain('not merged (branches kept): a1')
    expect(repo!.git('rev-list', '--count', `${head}..HEAD`)).toBe('1')
    expect(repo!.git('status', '--porcelain')).toBe('')
    expect(existsSync(`${repo!.root}/.git/MERGE_HEAD`)).toBe(false)
    expect(branches()).toEqual(['fanout/a1'])
  })

  it('a dirty checkout refuses the merge and names the files', async () => {
    await twoAgents(false)
    repo!.write('README.md', 'my own edit\n')
    const r = await cli('merge', '--all')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('has uncommitted changes (README.md); commit or stash them first')
    expect(r.stderr).toContain('  README.md\n')
    expect(branches()).toEqual(['fanout/a1', 'fanout/a2'])
    expect(repo!.read('README.md')).toBe('my own edit\n')
  })

  it('discard says what is lost and asks; no answer keeps everything, "y" removes worktree and branch', async () => {
    await twoAgents(false)
    const wt = repo!.git('worktree', 'list', '--porcelain').match(/worktree (.*a1)$/m)![1]
    const no = await cli('discard', 'a1')
    expect(no.code).toBe(1)
    expect(no.stdout).toContain('Discarding deletes 1 commit on fanout/a1 (1 file, +1 −1). This cannot be undone')
    expect(no.stdout).toContain('Discard fanout/a1? [y/N] ')
    expect(no.stdout).toContain('Not discarded: fanout/a1 is kept.')
    expect(existsSync(wt)).toBe(true)
    const yes = await runCli(['worktrees', 'discard', 'fanout/a1', '--cwd', repo!.root], { input: 'y\n' })
    expect(yes.code).toBe(0)
    expect(yes.stdout).toMatch(/discarded fanout\/a1: worktree removed, branch deleted \(its last commit was [0-9a-f]{10}\)/)
    expect(existsSync(wt)).toBe(false)
    expect(branches()).toEqual(['fanout/a2'])
    expect((await cli('discard', 'a2', '--yes')).code).toBe(0)
    expect(branches()).toEqual([])
  })
})
