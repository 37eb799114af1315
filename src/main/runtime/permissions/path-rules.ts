// Read(...) / Edit(...) rule patterns, gitignore-style like Claude Code's:
//   //abs/path   from the filesystem root      ~/path   from the home directory
//   /path        from the settings file's project root (the rule's root)
//   ./path, path from the working directory (a pattern without "/" matches a name at any depth)
// A pattern that matches a directory covers everything inside it.
import { existsSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { compileGlob, matchGlob } from '../tools/glob-pattern'
import { isInside, resolveToolPath, toPosix } from '../tools/paths'

export interface PathContext {
  cwd: string
  home?: string
}

function resolvePattern(content: string, root: string | undefined, ctx: PathContext): { base: string; pattern: string } {
  const home = ctx.home ?? homedir()
  if (content.startsWith('//')) return { base: '/', pattern: content.slice(1) }
  if (content.startsWith('~/')) return { base: home, pattern: content.slice(1) }
  if (content.startsWith('/')) return { base: root ?? ctx.cwd, pattern: content }
  if (content.startsWith('./')) return { base: ctx.cwd, pattern: content.slice(1) }
  return { base: ctx.cwd, pattern: content }
}

/** The path as written and, when it differs, with symlinks resolved (for its deepest existing ancestor). */
export function pathCandidates(p: string): string[] {
  let existing = p
  const tail: string[] = []
  while (!existsSync(existing)) {
    const up = dirname(existing)
    if (up === existing) return [p]
    tail.unshift(basename(existing))
    existing = up
  }
  try {
    const real = join(realpathSync(existing), ...tail)
    return real === p ? [p] : [p, real]
  } catch {
    return [p]
  }
}

function matchesOne(content: string, root: string | undefined, ctx: PathContext, path: string): boolean {
  const { base, pattern } = resolvePattern(content, root, ctx)
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
  return mode === 'deny' ? candidates.some((p) => matchesOne(content, root, ctx, p)) : candidates.every((p) => matchesOne(content, root, ctx, p))
}

/** True when the path (and its real path) lies inside one of the working directories. */
export function insideWorkingDirs(filePath: string, dirs: string[]): boolean {
  const realDirs = dirs.flatMap((d) => pathCandidates(resolve(d)))
  return pathCandidates(resolve(filePath)).every((p) => realDirs.some((d) => isInside(d, p)))
}

export { resolveToolPath }
