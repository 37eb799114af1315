// sandbox-runtime removes every empty file and folder it once found absent when its count of running
// sandboxes drops to zero, and unconditionally at exit and on SIGINT/SIGTERM (its reset()). It cannot know
// which of them Fanout decided to keep: one a person or the Write tool wrote to (empty is still theirs), or
// one another process's sandbox still has a mount on. For the moment of the library's cleanup those are made
// non-empty in place — never moved or removed, which would detach the mount another sandbox has on the
// path — and then put back as they were (size, permission bits, times).
import { appendFileSync, chmodSync, mkdirSync, rmdirSync, truncateSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { isEmptyPlaceholderShape, lstatOrNull } from './placeholder-identity'

interface Padded {
  path: string
  dir: boolean
  mode: number
  atime: number
  mtime: number
}

const KEEP_ENTRY = `.fanout-keep-${process.pid}`

const seconds = (ns: bigint): number => Number(ns) / 1e9

/** Makes the empty ones of `paths` non-empty; returns what `restore` needs to put them back. */
export function pad(paths: Iterable<string>): Padded[] {
  const out: Padded[] = []
  for (const path of paths) {
    const st = lstatOrNull(path)
    if (!st || !isEmptyPlaceholderShape(path, st)) continue
    const entry: Padded = { path, dir: st.isDirectory(), mode: Number(st.mode & 0o7777n), atime: seconds(st.atimeNs), mtime: seconds(st.mtimeNs) }
    try {
      if (entry.dir) mkdirSync(join(path, KEEP_ENTRY))
      else {
        if (!(entry.mode & 0o200)) chmodSync(path, entry.mode | 0o200)
        appendFileSync(path, '\0')
      }
      out.push(entry)
    } catch {
      // Not ours to change: the library will not be able to remove it either.
    }
  }
  return out
}

export function restore(padded: readonly Padded[]): void {
  for (const p of padded) {
    try {
      if (p.dir) rmdirSync(join(p.path, KEEP_ENTRY))
      else {
        truncateSync(p.path, 0)
        chmodSync(p.path, p.mode)
      }
      utimesSync(p.path, p.atime, p.mtime)
    } catch {}
  }
}

/** Runs `fn` (a library cleanup, synchronous) with `paths` protected from it. */
export function keepThrough<T>(paths: Iterable<string>, fn: () => T): T {
  const padded = pad(paths)
  try {
    return fn()
  } finally {
    restore(padded)
  }
}

/**
 * Has `before` run ahead of every other listener of `event` and `after` behind them, the library's included
 * (it adds its own lazily, so this is called again after each wrap). `once` for signals: the library's
 * listeners are once-only, and ours must not outlive them (a SIGINT listener stops Node from exiting on it).
 */
export function surround(event: 'exit' | 'SIGINT' | 'SIGTERM', before: () => void, after: () => void): void {
  const listeners = (): unknown[] => (event === 'exit' ? process.listeners('exit') : process.listeners(event))
  if (listeners()[0] !== before) {
    process.removeListener(event, before)
    if (event === 'exit') process.prependListener('exit', before)
    else process.prependOnceListener(event, before)
  }
  if (listeners().at(-1) !== after) {
    process.removeListener(event, after)
    if (event === 'exit') process.on('exit', after)
    else process.once(event, after)
  }
}
