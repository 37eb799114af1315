// Scratch files of this process (background command output, each agent's sandboxed $TMPDIR, git's
// excludes for a sandboxed command) live under one folder made for this process alone: mkdtemp gives it an
// unguessable name and mode 0700. A fixed name such as /tmp/fanout-bash would be shared by every run and
// every user of the machine: another user could make it first and plant links in it (our output appended
// to their choice of file, or read by them), and two runs would append to the same files.
//
// The folder's name carries the process id, so a process that was killed (kill -9, a crash: no exit hook)
// is cleaned up after by the next one: its folder is removed, and what still runs with its folder in the
// command line is stopped — a sandbox whose owner died keeps its bubblewrap and network relays alive.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { procStat } from './proc-stat'

const ROOT_NAME = /^fanout-(\d+)-[A-Za-z0-9]{6}$/

let root: string | null = null

function processRoot(): string {
  if (root) return root
  sweepDeadTempRoots()
  const made = mkdtempSync(join(tmpdir(), `fanout-${process.pid}-`))
  root = made
  // Background commands die with the process (process-group.ts), so what they wrote goes with it.
  process.once('exit', () => rmSync(made, { recursive: true, force: true }))
  return made
}

/** `name` under this process's private scratch folder, made (0700) if missing. */
export function privateTempDir(...name: string[]): string {
  const dir = join(processRoot(), ...name)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return dir
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Stops every process (with its group) whose command line names a path under `dir`. Linux only. */
function stopProcessesUsing(dir: string): void {
  if (process.platform !== 'linux') return
  const ownGroup = procStat('self')?.group
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${dir}/`)) continue
      const group = procStat(pid)?.group ?? 0
      process.kill(group > 1 && group !== ownGroup ? -group : pid, 'SIGKILL')
    } catch {}
  }
}

/**
 * The scratch folders of this user's Fanout processes that are gone: what still runs under them is stopped
 * and they are removed. Returns how many folders were swept.
 */
export function sweepDeadTempRoots(base = tmpdir()): number {
  let names: string[]
  try {
    names = readdirSync(base)
  } catch {
    return 0
  }
  const uid = process.getuid?.()
  let swept = 0
  for (const name of names) {
    const m = ROOT_NAME.exec(name)
    if (!m || Number(m[1]) === process.pid || pidAlive(Number(m[1]))) continue
    const dir = join(base, name)
    try {
      const st = lstatSync(dir)
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue
      stopProcessesUsing(dir)
      rmSync(dir, { recursive: true, force: true })
      swept++
    } catch {
      // Another process sweeping the same folder, or a file in use: the next sweep tries again.
    }
  }
  return swept
}
