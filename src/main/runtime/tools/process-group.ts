// Killing a command means killing everything it started: commands run as leaders of their own process
// group (spawn `detached`), and we signal the group, so `npm test` or `sleep 100 &` children go too.
import { readdirSync } from 'node:fs'
import { procStat } from '../security/proc-stat'

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

/** True while a process of the group runs (Linux: from /proc, zombies not counted; elsewhere: signal 0). */
export function groupRunning(pgid: number): boolean {
  // No member at all, zombies included: nothing to look for (the usual answer once a command has closed).
  if (!processGroupAlive(pgid)) return false
  if (process.platform !== 'linux') return true
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return true
  }
  for (const name of names) {
    const c = name.charCodeAt(0)
    if (c < 48 || c > 57) continue
    const stat = procStat(Number(name))
    if (stat && stat.state !== 'Z' && stat.group === pgid) return true
  }
  return false
}

/**
 * Resolves once nothing of the group runs any more, or after `limitMs`. The leader's exit is not the end of a
 * sandboxed command: bubblewrap's child may still be setting up its mounts, and would make a placeholder
 * again in the project after the sandbox's release had removed it.
 */
export async function groupEnded(pgid: number, limitMs = 5000): Promise<void> {
  const deadline = Date.now() + limitMs
  while (groupRunning(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
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
