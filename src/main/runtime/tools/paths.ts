// Path handling shared by the file tools. Every tool resolves against the cwd it was built with (the agent's
// worktree when isolated), never process.cwd().
import { readdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { isAbsolute, relative, resolve, sep } from 'node:path'

/** Expands `~` and resolves a model-supplied path against the agent's cwd. */
export function resolveToolPath(cwd: string, p: string): string {
  const trimmed = p.trim()
  if (trimmed === '~') return homedir()
  if (trimmed.startsWith('~/')) return resolve(homedir(), trimmed.slice(2))
  return isAbsolute(trimmed) ? resolve(trimmed) : resolve(cwd, trimmed)
}

/** True when `child` is `parent` or lies below it (purely lexical; callers resolve symlinks when it matters). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** A path as shown to the model: relative to cwd when inside it (fewer tokens), absolute otherwise. */
export function displayPath(cwd: string, abs: string): string {
  if (!isInside(cwd, abs)) return abs
  const rel = relative(cwd, abs)
  return rel === '' ? '.' : rel
}

/** The names in a directory, or null when it cannot be listed (gone, not a directory, not readable). */
export function namesIn(dir: string): string[] | null {
  try {
    return readdirSync(dir)
  } catch {
    return null
  }
}

/** Forward slashes, for glob matching on every platform. */
export function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/')
}
