// Killing a command means killing everything it started: commands run as leaders of their own process
// group (spawn `detached`), and we signal the group, so `npm test` or `sleep 100 &` children go too.

/** Signals the whole group led by `pid`; a group that is already gone is not an error. */
export function killProcessGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw err
  }
}

/** True while any process of the group is alive. */
export function processGroupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

const background = new Set<number>()
let exitHookInstalled = false

/** Background commands die with the app (or CLI run) that started them rather than outliving it unseen. */
export function trackBackgroundGroup(pid: number): () => void {
  background.add(pid)
  if (!exitHookInstalled) {
    exitHookInstalled = true
    process.once('exit', () => {
      for (const p of background) killProcessGroup(p, 'SIGKILL')
    })
  }
  return () => background.delete(pid)
}
