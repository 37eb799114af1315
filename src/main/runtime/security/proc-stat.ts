// What Linux says of a running process in /proc/<pid>/stat: the one reader for the sandbox's journal (is the
// recorded process still the same one?), process groups (does anything of a command still run?) and the
// sweep of a dead process's scratch folder.
import { readFileSync } from 'node:fs'

export interface ProcStat {
  /** R, S, D, Z (zombie: gone for every purpose here)… */
  state: string
  group: number
  /** Start time in clock ticks since boot (field 22): tells a process from a later one given the same pid. */
  start: string
}

/** The process's stat, or null when it is gone, unreadable or not on Linux. */
export function procStat(pid: number | 'self'): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After the command name (which may hold spaces and parentheses): field 3, state; 5, group; 22, start.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { state: f[0], group: Number(f[2]), start: f[19] }
  } catch {
    return null
  }
}
