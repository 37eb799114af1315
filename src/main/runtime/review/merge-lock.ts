// What changes a repository's checkout or refs for review (merges, discards) runs one at a time per
// repository across processes: two `fanout worktrees merge` at once, the app and the CLI, RequestMerge in a
// session. Within a process repo-queue.ts already orders them; between processes a lock file does, in
// Fanout's data folder (out of every agent's sandbox, unlike the repository's .git), named by the real path
// of the repository's common git dir, so every checkout and worktree of one repository finds the same lock.
// The lock names its holder (pid, host, start time); one whose process is gone (kill -9) is taken over.
import { createHash } from 'node:crypto'
import { mkdir, realpath } from 'node:fs/promises'
import { join } from 'node:path'
import { describeOwner, tryLock, type LockOwner } from '../store/session-lock'
import { enqueueForRepo } from '../worktrees'

export interface MergeLockOptions {
  /** Fanout's data folder (the lock lives in its `repo-locks/`). */
  dataDir: string
  /** Who holds it, as a person would name it (said to whoever waits). */
  app: string
  /** Said once when another process (or another call in this one) holds the repository: the caller waits. */
  onWait?: (message: string) => void
}

/** The lock file of the repository whose common git dir is `commonDir`. */
export async function mergeLockPath(dataDir: string, commonDir: string): Promise<string> {
  const real = await realpath(commonDir).catch(() => commonDir)
  const key = createHash('sha256').update(real).digest('hex').slice(0, 32)
  return join(dataDir, 'repo-locks', `${key}.lock`)
}

export const waitingMessage = (owner: LockOwner) => `waiting for another merge in this repository… (${describeOwner(owner)} holds it)`

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Runs `op` holding the repository's lock: after every process (and every call of this one) that holds it
 * has let go, and queued with this process's other operations on the repository. `op` reads the
 * repository afresh: whoever held the lock may have changed it.
 */
export async function withMergeLock<T>(commonDir: string, o: MergeLockOptions, op: () => Promise<T>): Promise<T> {
  const file = await mergeLockPath(o.dataDir, commonDir)
  await mkdir(join(o.dataDir, 'repo-locks'), { recursive: true, mode: 0o700 })
  let told = false
  let pause = 50
  for (;;) {
    const taken = await tryLock(file, o.app)
    if ('lock' in taken) {
      try {
        return await enqueueForRepo(commonDir, op)
      } finally {
        await taken.lock.release()
      }
    }
    if (!told) {
      told = true
      o.onWait?.(waitingMessage(taken.owner))
    }
    // A merge takes seconds: look again soon, then less often.
    await sleep(pause + Math.random() * pause)
    pause = Math.min(500, pause * 2)
  }
}
