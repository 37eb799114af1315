import { existsSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAgentWorktree } from './create-worktree'
import { busyRepoCount, enqueueForRepo } from './repo-queue'
import { makeTempRepo, type TempRepo } from './testing/temp-repo'

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

describe('enqueueForRepo', () => {
  it('runs operations on one repository one at a time, in order', async () => {
    let running = 0
    let maxRunning = 0
    const order: number[] = []
    const op = (i: number) => async () => {
      running++
      maxRunning = Math.max(maxRunning, running)
      await new Promise((r) => setImmediate(r))
      order.push(i)
      running--
      return i
    }
    const results = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((i) => enqueueForRepo('/repo/a', op(i))))
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(maxRunning).toBe(1)
  })

  it('lets different repositories proceed in parallel', async () => {
    const gate = deferred()
    const blocked = enqueueForRepo('/repo/slow', () => gate.promise.then(() => 'slow'))
    const other = await enqueueForRepo('/repo/fast', async () => 'fast')
    expect(other).toBe('fast')
    gate.resolve()
    expect(await blocked).toBe('slow')
  })

  it('keeps going after a failed operation, which rejects only its own caller', async () => {
    const failed = enqueueForRepo('/repo/b', async () => {
      throw new Error('boom')
    })
    const next = enqueueForRepo('/repo/b', async () => 'after')
    await expect(failed).rejects.toThrow('boom')
    expect(await next).toBe('after')
  })

  it('forgets a repository once its queue is empty', async () => {
    await enqueueForRepo('/repo/c', async () => 1)
    await new Promise((r) => setImmediate(r))
    expect(busyRepoCount()).toBe(0)
  })
})

describe('worktree creation goes through the repository queue', () => {
  let repo: TempRepo | undefined
  afterEach(() => repo?.cleanup())

  it('does not create a worktree while another operation holds the same repository', async () => {
    repo = makeTempRepo()
    const commonDir = realpathSync(join(repo.root, '.git'))
    const path = join(repo.sandbox, '.fanout-worktrees', 'project', 'q1')
    const gate = deferred()
    let existedWhileHeld: boolean | undefined
    const holder = enqueueForRepo(commonDir, async () => {
      await gate.promise
      existedWhileHeld = existsSync(path)
    })
    const creating = createAgentWorktree({ repoCwd: repo.root, agentId: 'q1' })
    // Give the create every chance to run if it (wrongly) bypassed the queue.
    await new Promise((r) => setTimeout(r, 400))
    gate.resolve()
    await holder
    const wt = await creating
    expect(existedWhileHeld).toBe(false)
    expect(wt.path).toBe(path)
    expect(existsSync(path)).toBe(true)
  })
})
