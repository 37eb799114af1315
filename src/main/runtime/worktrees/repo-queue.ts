// Git operations that change one repository's shared state (worktree add/remove, commits, branch
// deletion) run one at a time per repository: concurrent `git worktree add` calls race on the lock files
// under .git/worktrees and on the ref store. Different repositories still proceed in parallel.

const tails = new Map<string, Promise<unknown>>()

/**
 * Runs `op` after every operation queued earlier for the same `key` has settled (fulfilled or rejected).
 * A failing operation rejects only its own caller; the queue keeps going.
 */
export function enqueueForRepo<T>(key: string, op: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve()
  const run = previous.then(op, op)
  // The tail never rejects, so one failure cannot poison the operations queued behind it.
  const tail = run.then(
    () => undefined,
    () => undefined
  )
  tails.set(key, tail)
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key)
  })
  return run
}

/** Number of repositories with queued or running operations (for tests and diagnostics). */
export function busyRepoCount(): number {
  return tails.size
}
