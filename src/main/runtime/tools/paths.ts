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
  return pathUnder(parent, child) !== null
}

/**
 * `child`'s path below `parent` ('' when they are the same), or null when it is not `parent` or below it; purely
 * lexical, as isInside (and, as it, a name that begins with `..` counts as outside). Two plain absolute POSIX paths
 * (what callers nearly always pass) are compared as strings: path.relative normalizes both first (resolving each),
 * and a search asks this once or more per file and folder it meets. The same answers as path.relative.
 */
export function pathUnder(parent: string, child: string): string | null {
  if (sep === '/' && plain(parent) && plain(child)) {
    if (child === parent) return ''
    const under = parent === '/' ? child.slice(1) : child.startsWith(parent) && child.charCodeAt(parent.length) === 47 ? child.slice(parent.length + 1) : null
    return under === null || under.startsWith('..') ? null : under
  }
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)) ? rel : null
}

/** Absolute, with no empty, `.` or `..` segment and no trailing slash: path.resolve would return it unchanged. */
const plain = (p: string): boolean => p.charCodeAt(0) === 47 && (p.length === 1 || (!p.endsWith('/') && !p.includes('//') && !DOT_SEGMENT.test(p)))
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/

/** A path as shown to the model: relative to cwd when inside it (fewer tokens), absolute otherwise. */
export function displayPath(cwd: string, abs: string): string {
  const rel = pathUnder(cwd, abs)
  return rel === null ? abs : rel === '' ? '.' : rel
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
