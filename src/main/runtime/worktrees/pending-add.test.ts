// Fanout's record of a `git worktree add` is on disk for as long as git runs, naming the agent, the folder, the
// commit being checked out and this process, and gone once the worktree's metadata is written (or git failed):
// a kill at any point of the add leaves something that says whose the worktree is and whether its maker lives.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAgentWorktree, readMetadata, WorktreeError, worktreePathFor } from './index'
import { makeTempRepo, type TempRepo } from './testing/temp-repo'

/** The records found in the repository each time `git worktree add` started. */
const duringAdd: unknown[][] = []

vi.mock('./git', async (importOriginal) => {
  const git = await importOriginal<typeof import('./git')>()
  const runGit: typeof git.runGit = (dir, args, options) => {
    if (args[0] === 'worktree' && args[1] === 'add') {
      const folder = join(dir, '.git', 'fanout', 'worktree-adds')
      duringAdd.push(readdirSync(folder).map((f) => JSON.parse(readFileSync(join(folder, f), 'utf8'))))
    }
    return git.runGit(dir, args, options)
  }
  return { ...git, runGit }
})

let r: TempRepo | null = null
afterEach(() => {
  r?.cleanup()
  r = null
  duringAdd.length = 0
})

const recordsLeft = (repo: TempRepo) => readdirSync(join(repo.root, '.git', 'fanout', 'worktree-adds'))

describe("Fanout's record of a worktree add", () => {
  it('is written before git runs and dropped once the metadata is written', async () => {
    r = makeTempRepo()
    const start = r.git('rev-parse', 'HEAD')
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'p1', agentType: 'coder', description: 'task' })
    expect(duringAdd).toEqual([
      [
        expect.objectContaining({
          agentId: 'p1',
          path: wt.path,
          checkout: start,
          baseCommit: start,
          agentType: 'coder',
          owner: expect.objectContaining({ pid: process.pid })
        })
      ]
    ])
    expect(recordsLeft(r)).toEqual([])
    expect(await readMetadata(wt.path, wt.commonDir)).toMatchObject({ agentId: 'p1', baseCommit: start })
  })

  it("names the kept branch's tip as what is checked out when the agent continues on it", async () => {
    r = makeTempRepo()
    const start = r.git('rev-parse', 'HEAD')
    r.write('work.txt', 'kept work\n')
    const tip = r.commitAll('agent work')
    r.git('branch', 'fanout/p2', tip)
    r.git('reset', '--hard', '--quiet', start)
    await createAgentWorktree({ repoCwd: r.root, agentId: 'p2' })
    expect(duringAdd).toEqual([[expect.objectContaining({ agentId: 'p2', checkout: tip, baseCommit: start })]])
    expect(recordsLeft(r)).toEqual([])
  })

  it('is dropped when git refuses the add', async () => {
    r = makeTempRepo()
    const path = worktreePathFor({ mainRoot: r.root, repoName: 'project' }, 'p3')
    mkdirSync(path, { recursive: true })
    writeFileSync(join(path, 'in-the-way.txt'), 'x\n')
    await expect(createAgentWorktree({ repoCwd: r.root, agentId: 'p3' })).rejects.toBeInstanceOf(WorktreeError)
    expect(duringAdd).toHaveLength(1)
    expect(recordsLeft(r)).toEqual([])
  })
})
