// The one path check every tool goes through. A path is judged by where it really leads (symlinks resolved,
// a dangling link's target included: see real-target.ts) as well as by how it is written, before the deny
// rules and the boundary of the working directories apply:
// - Read(...) deny rules bind every tool that reads (Read, Grep, Glob, NotebookEdit's read, Bash's read-only
//   arguments): a protected file is refused, and searches skip it;
// - Edit(...) deny rules bind every tool that writes;
// - the working directories (cwd, additionalDirectories, and extra roots a caller adds, such as an agent's
//   own memory folder) are where reading needs no approval and where acceptEdits may write.
// The same object answers the permission layer (decide.ts), the tools at run time, and the read-only Bash
// classifier, so no tool can have its own idea of where a path leads. It knows nothing about how a search
// walks a tree: Glob and Grep hand it each file they found.
import { readdirSync, statSync, type Dirent } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { insideWorkingDirs, matchesOne, pathCandidates, pathRuleMatches, resolvePattern, UNKNOWABLE } from '../permissions/path-rules'
import type { PermissionRule, PermissionRules } from '../permissions/rules'
import { compileGlob } from '../tools/glob-pattern'
import { hasOtherLinks, knownHookScripts, knownHooksPaths, protectedReason } from './protected-paths'
import { isInside, pathUnder, resolveToolPath } from '../tools/paths'
import { FILE_EDIT_TOOL_NAMES } from '../tools/tool-names'

export type Access = 'read' | 'write'

/** Entries of a folder tree acceptEdits' Bash checks before it lets rm -r, mv or cp -r change it unasked. */
const TREE_CHECK_LIMIT = 5000

export interface PathPolicyOptions {
  cwd: string
  /** More working directories besides cwd (additionalDirectories, an agent's memory folder…). */
  roots?: readonly string[] | (() => readonly string[])
  /** The rules in force, read at each check (settings reloads and session rules change them). */
  rules?: () => PermissionRules
  home?: string
}

export class PathPolicy {
  readonly ctx: { cwd: string; home: string }
  readonly cwd: string
  readonly home: string

  constructor(private readonly opts: PathPolicyOptions) {
    this.cwd = resolve(opts.cwd)
    this.home = opts.home ?? homedir()
    this.ctx = { cwd: this.cwd, home: this.home }
  }

  /** A model-supplied path, absolute (`~` expanded, relative to cwd). */
  absolute(p: string): string {
    return p.startsWith('~/') || p === '~' ? join(this.home, p.slice(2)) : resolveToolPath(this.cwd, p)
  }

  /** The working directories: cwd first. */
  roots(): string[] {
    const extra = typeof this.opts.roots === 'function' ? this.opts.roots() : (this.opts.roots ?? [])
    return [this.cwd, ...extra.map((r) => resolve(r))]
  }

  /** The path as written and where it really leads. */
  candidates(abs: string): string[] {
    return pathCandidates(resolve(abs))
  }

  /** Inside the working directories, both as written and where it really leads. */
  inBounds(abs: string): boolean {
    return insideWorkingDirs(abs, this.roots())
  }

  /** The path deny rules binding this access (and this tool). */
  rulesFor(access: Access, toolName?: string): PermissionRule[] {
    const deny = this.opts.rules?.().deny ?? []
    return deny.filter((r) => {
      if (r.content === undefined) return false
      if (access === 'read') return r.toolName === 'Read' || (toolName !== undefined && toolName !== 'Bash' && r.toolName === toolName)
      return r.toolName === 'Edit' || (toolName !== undefined && r.toolName === toolName && FILE_EDIT_TOOL_NAMES.includes(toolName))
    })
  }

  /** The deny rule protecting this path from this access, if any (written or real path matching). */
  deniedBy(abs: string, access: Access, toolName?: string): PermissionRule | undefined {
    const ctx = { cwd: this.cwd, home: this.home }
    return this.rulesFor(access, toolName).find((r) => pathRuleMatches(r.content as string, r.root, ctx, abs, 'deny'))
  }

  /** The first of these deny rules matching one of a path's candidates (as written, where it leads): deniedBy's answer. */
  private denyRuleAmong(rules: PermissionRule[], candidates: string[]): PermissionRule | undefined {
    if (candidates.includes(UNKNOWABLE)) return rules[0]
    const ctx = { cwd: this.cwd, home: this.home }
    return rules.find((r) => candidates.some((c) => matchesOne(r.content as string, r.root, ctx, c)))
  }

  /**
   * A deny rule that could protect something below this directory: a search from here could reach it.
   * Errs on the side of "could": a name pattern (`.env`, `*.pem`) reaches every folder under its base.
   */
  protectedUnder(dir: string, toolName?: string): PermissionRule | undefined {
    const ctx = { cwd: this.cwd, home: this.home }
    const dirs = this.candidates(dir)
    if (dirs.includes(UNKNOWABLE)) return this.rulesFor('read', toolName)[0]
    return this.rulesFor('read', toolName).find((r) => {
      const { base, pattern } = resolvePattern(r.content as string, r.root, ctx)
      const bases = [...new Set([base, ...this.candidates(base).filter((b) => b !== UNKNOWABLE)])]
      const body = pattern.replace(/^\//, '').replace(/\/$/, '')
      const anchored = pattern.replace(/\/$/, '').slice(1).includes('/') || pattern.startsWith('/')
      let prefix = ''
      if (anchored) {
        try {
          compileGlob(pattern)
        } catch {
          return false
        }
        const literal: string[] = []
        for (const seg of body.split('/')) {
          if (/[*?[\]{}\\]/.test(seg)) break
          literal.push(seg)
        }
        prefix = literal.join('/')
      }
      return bases.some((b) => {
        const area = prefix ? join(b, prefix) : b
        return dirs.some((d) => isInside(d, area) || isInside(area, d) || matchesOne(r.content as string, r.root, ctx, d))
      })
    })
  }

  /**
   * Why writing this path needs a person (protected-paths.ts: files other programs run or obey later, and
   * credential stores), or null. Every spelling counts: as written and where it really leads; a path whose
   * target cannot be known, and a file with other hard links (one may be a protected file), are protected.
   */
  protectedWrite(abs: string): string | null {
    const where = { roots: this.roots(), home: this.home, extra: [...knownHooksPaths(this.cwd), ...knownHookScripts()] }
    for (const c of this.candidates(abs)) {
      if (c === UNKNOWABLE) return 'where it leads cannot be known (a symlink loop)'
      const why = protectedReason(c, where)
      if (why) return why
    }
    return hasOtherLinks(abs) ? 'it has other hard links, and one may be a protected file' : null
  }

  /** For a tool about to touch a file: null when it may, else the message the model sees. */
  check(toolName: string, abs: string, access: Access): string | null {
    const rule = this.deniedBy(abs, access, toolName)
    if (!rule) return null
    const verb = access === 'read' ? 'read' : 'change'
    return `${toolName} may not ${verb} ${abs}: it is protected by the permission rule "${rule.raw}" (${rule.source} settings). Do not try to reach it another way.`
  }

  /**
   * For searches (Glob, Grep): whether a file found under `root` may be shown. Protected files are skipped,
   * and so is a file whose real location is outside both the searched folder and the working directories
   * (an in-repo symlink pointing out).
   * `listedIn`: the files were listed by a walk that follows no links (readdir's entry types, `rg --files`
   * without -L) beneath this real folder, which `root` leads to: a file's real path is then that folder joined
   * with its path under `root`, with no realpath per file. Names a listing found are all it takes; a folder
   * swapped for a link after the listing can only make a name found inside stand for a file elsewhere, which
   * every tool that opens it (Read, Grep's reads) checks again.
   */
  searchFilter(root: string, toolName: string, opts: { listedIn?: string } = {}): (absFile: string) => boolean {
    const rootAbs = resolve(root)
    const listedIn = opts.listedIn
    // The listed folder is where the root leads (searchRoot judged it): not asked of the disk again.
    const rootReal = listedIn ? [...new Set([rootAbs, listedIn])] : this.candidates(rootAbs).filter((c) => c !== UNKNOWABLE)
    const rules = this.rulesFor('read', toolName)
    return (file) => {
      // A file a link-free listing found under `listedIn` is already known to lead there: its real path is
      // spelt, not asked of the disk (a realpath is a system call per folder on the way, per file found).
      const abs = resolve(file)
      const under = listedIn ? pathUnder(rootAbs, abs) : null
      // The listed folder is the root itself (no link on the way, the usual case): the file's path is its real one.
      if (under !== null && listedIn === rootAbs) return !(rules.length && this.denyRuleAmong(rules, [abs]))
      const real = under !== null ? [...new Set([abs, join(listedIn!, under)])] : this.candidates(abs)
      if (real.includes(UNKNOWABLE)) return false
      if (rules.length && this.denyRuleAmong(rules, real)) return false
      return real.every((c) => rootReal.some((r) => isInside(r, c))) || this.inBounds(file)
    }
  }

  /** Why Bash may not read this path without asking (the classifier's check), or null. */
  bashReadRefusal(abs: string): string | null {
    const rule = this.deniedBy(abs, 'read', 'Bash')
    if (rule) return `it reads ${abs}, protected by the rule "${rule.raw}"`
    if (!this.inBounds(abs)) return `it reads ${abs}, outside the working directories`
    return null
  }

  /**
   * Why Bash in acceptEdits may not change this path without asking (shell/file-edit-commands.ts), or null:
   * an Edit deny rule, outside the working directories, a working directory itself, a protected path, and
   * with `tree` (rm -r, mv, cp -r) anything of those below it.
   */
  bashWriteRefusal(abs: string, how: { tree: boolean }): string | null {
    const one = (p: string): string | null => {
      // A link in the tree that leads out (cp -r would write through it) counts as outside.
      if (!this.inBounds(p)) return `it changes ${p}, which leads outside the working directories`
      const rule = this.deniedBy(p, 'write', 'Bash')
      if (rule) return `it changes ${p}, protected by the rule "${rule.raw}"`
      const why = this.protectedWrite(p)
      return why ? `it changes ${p} (${why})` : null
    }
    if (this.roots().some((r) => this.candidates(abs).includes(resolve(r)))) return `it changes the working directory ${abs} itself`
    const why = one(abs)
    if (why || !how.tree || !statSync(abs, { throwIfNoEntry: false })?.isDirectory()) return why
    // Walked without following links (rm -r and mv take a link, not what it leads to); a tree too big to check is asked for.
    let left = TREE_CHECK_LIMIT
    const walk = (dir: string): string | null => {
      let entries: Dirent[]
      try {
        entries = readdirSync(dir, { withFileTypes: true })
      } catch {
        return `it changes ${dir}, which could not be listed`
      }
      for (const e of entries) {
        if (--left < 0) return `it changes ${abs}, a tree too big to check`
        const p = join(dir, e.name)
        const found = one(p) ?? (e.isDirectory() ? walk(p) : null)
        if (found) return found
      }
      return null
    }
    return walk(abs)
  }

  /** Why a recursive Bash read from this directory is not read-only, or null. */
  bashRecursiveRefusal(dir: string): string | null {
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return null
    const rule = this.protectedUnder(dir, 'Bash')
    return rule ? `it searches ${dir}, which can hold files protected by the rule "${rule.raw}"` : null
  }
}
