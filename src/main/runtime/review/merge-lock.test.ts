// The per-repository merge lock within one process and against a lock file a dead process left: calls never
// overlap, the later one is told it waits, every checkout of one repository shares the lock, and a stale
// lock is taken over without waiting. (Two real processes: test/crash/merge-lock.test.ts.)
import { spawnSync } from 'node:child_process'
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { waitUntil } from '../tools/test-kit'
import { mergeLockPath, withMergeLock } from './merge-lock'
import { tempFolders } from '../../../../test/support/temp-folders'

const tempFolder = tempFolders('fanout-merge-lock-')

function folders() {
  const root = realpathSync(tempFolder())
  const commonDir = join(root, 'repo', '.git')
  mkdirSync(commonDir, { recursive: true })
  return { dataDir: join(root, 'data'), commonDir, root }
}

describe('withMergeLock', () => {
  it('runs one call at a time per repository; the later one is told it waits', async () => {
    const { dataDir, commonDir } = folders()
    const log: string[] = []
    const waits: string[] = []
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let entered!: () => void
    const inFirst = new Promise<void>((r) => (entered = r))
    const first = withMergeLock(commonDir, { dataDir, app: 'first' }, async () => {
      log.push('first in')
      entered()
      await held
      log.push('first out')
    })
    // The first holds the lock before the second asks (started together, either could win the race for it).
    await inFirst
    const second = withMergeLock(commonDir, { dataDir, app: 'second', onWait: (m) => waits.push(m) }, async () => {
      log.push('second in')
    })
    // The second asks while the first holds it (a poll later at most), then waits for it.
    await waitUntil(() => waits.length > 0, 'the second call to say it waits')
    expect(waits).toEqual([
      expect.stringMatching(/^waiting for another merge in this repository… \(first \(pid \d+ in this process\) since [\d:]+ holds it\)$/)
    ])
    release()
    await Promise.all([first, second])
    expect(log).toEqual(['first in', 'first out', 'second in'])
  })

  it('names the lock by the real path of the git dir, so a link to the repository finds the same lock', async () => {
    const { dataDir, commonDir, root } = folders()
    symlinkSync(join(root, 'repo'), join(root, 'link'))
    expect(await mergeLockPath(dataDir, join(root, 'link', '.git'))).toBe(await mergeLockPath(dataDir, commonDir))
  })

  it('takes over a lock whose process is gone, without waiting', async () => {
    const { dataDir, commonDir } = folders()
    // A process that has exited: its pid is free (or another process's, which its start time tells apart).
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
    const file = await mergeLockPath(dataDir, commonDir)
    mkdirSync(join(dataDir, 'repo-locks'), { recursive: true })
    writeFileSync(file, JSON.stringify({ pid: Number(gone.stdout), hostname: hostname(), processStart: '1', app: 'killed merge', acquiredAt: 1, token: 't' }))
    const waits: string[] = []
    expect(await withMergeLock(commonDir, { dataDir, app: 'next', onWait: (m) => waits.push(m) }, async () => 'ran')).toBe('ran')
    expect(waits).toEqual([])
  })
})
