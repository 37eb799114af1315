// Read(...) / Edit(...) rule patterns, gitignore-style like Claude Code's:
//   //abs/path   from the filesystem root      ~/path   from the home directory
//   /path        from the settings file's project root (the rule's root)
//   ./path, path from the working directory (a pattern without "/" matches a name at any depth)
// A pattern that matches a directory covers everything inside it.
import { homedir } from 'node:os'
import { relative, resolve } from 'node:path'
import { realTarget } from '../security/real-target'
import { compileGlob, matchGlob } from '../tools/glob-pattern'
import { isInside, resolveToolPath, toPosix } from '../tools/paths'

export interface PathContext {
  cwd: string
  home?: string
}

export function resolvePattern(content: string, root: string | undefined, ctx: PathContext): { base: string; pattern: string } {
  const home = ctx.home ?? homedir()
  if (content.startsWith('//')) return { base: '/', pattern: content.slice(1) }
  if (content.startsWith('~/')) return { base: home, pattern: content.slice(1) }
  if (content.startsWith('/')) return { base: root ?? ctx.cwd, pattern: content }
  if (content.startsWith('./')) return { base: ctx.cwd, pattern: content.slice(1) }
  return { base: ctx.cwd, pattern: content }
}

/**
 * The path as written and, when it differs, where it really leads (every symlink resolved, a dangling one
 * included). An unknowable target (a symlink loop) yields a candidate no rule or boundary accepts.
 */
export function pathCandidates(p: string): string[] {
  const real = realTarget(p)
  if (real === null) return [p, UNKNOWABLE]
  return real === p ? [p] : [p, real]
}

/** Stands for a path whose target cannot be known: outside every directory, matched by every deny check. */
export const UNKNOWABLE = '\u0000unknowable'

export function matchesOne(content: string, root: string | undefined, ctx: PathContext, path: string): boolean {
  if (path === UNKNOWABLE) return false
  const { base: written, pattern } = resolvePattern(content, root, ctx)
  // The rule's own folder may be spelt through a symlink too: a real path is compared with its real folder.
  const base = isInside(written, path) ? written : (realTarget(written) ?? written)
  if (!isInside(base, path)) return false
  const rel = toPosix(relative(base, path))
  let glob
  try {
    glob = compileGlob(pattern)
  } catch {
    return false
  }
  if (rel === '') return matchGlob(glob, '', true)
  // The path itself, or any directory above it (a rule on a folder covers its contents).
  const parts = rel.split('/')
  for (let i = parts.length; i >= 1; i--) if (matchGlob(glob, parts.slice(0, i).join('/'), i < parts.length)) return true
  return false
}

/**
 * Does a path rule cover this file? `mode: 'deny'` matches if the written path or its real path matches
 * (no symlink detour around a deny); `mode: 'allow'` needs both to match (no symlink detour out of an allow).
 */
export function pathRuleMatches(content: string, root: string | undefined, ctx: PathContext, filePath: string, mode: 'allow' | 'deny'): boolean {
  const candidates = pathCandidates(resolve(filePath))
  if (candidates.includes(UNKNOWABLE)) return mode === 'deny'
  return mode === 'deny' ? candidates.some((p) => matchesOne(content, root, ctx, p)) : candidates.every((p) => matchesOne(content, root, ctx, p))
}

/** True when the path (and its real path) lies inside one of the working directories. */
export function insideWorkingDirs(filePath: string, dirs: string[]): boolean {
  const realDirs = dirs.flatMap((d) => pathCandidates(resolve(d))).filter((d) => d !== UNKNOWABLE)
  return pathCandidates(resolve(filePath)).every((p) => realDirs.some((d) => isInside(d, p)))
}

export { resolveToolPath }
