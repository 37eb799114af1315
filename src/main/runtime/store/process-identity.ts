// Which process is which, across processes and over time. A pid alone is not enough: once a process dies
// its pid is given to the next one, and "pid 4242 is alive" then says nothing about the process that wrote
// a file. So a process is its pid, its host, and when it started (on Linux the start time the kernel keeps
// in /proc/<pid>/stat, which no later process with the same pid can have).
import { readFileSync } from 'node:fs'
import { hostname } from 'node:os'

export interface ProcessIdentity {
  pid: number
  hostname: string
  /** The kernel's start time of the process (clock ticks since boot, as text); null where it cannot be read. */
  processStart: string | null
}

/** When the process with this pid started, as the kernel says; null when it is not running or this OS does not say. */
export function processStartOf(pid: number): string | null {
  if (process.platform !== 'linux') return null
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so fields are counted after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[19] ?? null // field 22 of the line, starttime
  } catch {
    return null
  }
}

let self: ProcessIdentity | null = null

export function currentProcess(): ProcessIdentity {
  self ??= { pid: process.pid, hostname: hostname(), processStart: processStartOf(process.pid) }
  return { ...self }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' // exists, owned by someone else
  }
}

/**
 * Whether the identified process still runs: `gone` when it ran on this host and its pid is free or now
 * belongs to a process that started at another time; `unknown` for another host (it cannot be checked from here).
 */
export function processState(p: Pick<ProcessIdentity, 'pid' | 'hostname'> & { processStart?: string | null }): 'alive' | 'gone' | 'unknown' {
  if (p.hostname !== hostname()) return 'unknown'
  if (!Number.isInteger(p.pid) || p.pid <= 0 || !pidAlive(p.pid)) return 'gone'
  if (p.processStart) {
    const now = processStartOf(p.pid)
    if (now !== null && now !== p.processStart) return 'gone' // the pid was reused
  }
  return 'alive'
}
