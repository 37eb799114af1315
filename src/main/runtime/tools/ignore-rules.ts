// .gitignore-style ignore files and ripgrep-style override globs for the JS fallback walker, written to give
// the same answers ripgrep gives (`rg --hidden --no-require-git -g ...`), so results do not depend on whether
// `rg` happens to be installed.
import { existsSync } from 'node:fs'
import { readConfigFile } from '../store/read-config'
import { dirname, join } from 'node:path'
import { compileGlob, matchGlob, type CompiledGlob } from './glob-pattern'
import { pathUnder, toPosix } from './paths'

interface Frame {
  dir: string
  /** The directory is a repository's root: .gitignore rules from above it do not apply inside. */
  hasGit: boolean
  rgignore: CompiledGlob[]
  ignore: CompiledGlob[]
  gitignore: CompiledGlob[]
  /** The repository's .git/info/exclude (at its root only). */
  exclude: CompiledGlob[]
}

function parseIgnoreFile(text: string): CompiledGlob[] {
  const rules: CompiledGlob[] = []
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(?<!\\)\s+$/, '')
    if (!line || line.startsWith('#')) continue
    try {
      // `\#` and `\!` stay escaped: the glob reads them as a literal # or !, not a comment or a negation.
      rules.push(compileGlob(line))
    } catch {
      // git ignores a pattern it cannot parse; so do we.
    }
  }
  return rules
}

/** `read`, when given, collects the files that were there to read (and each `.git` found): what a walk's answer rests on. */
function readRules(file: string, read?: Set<string>): CompiledGlob[] {
  // The repository's own files: a .gitignore linked to /dev/zero or a pipe must not hang or fill the process.
  const got = readConfigFile(file)
  if (!('text' in got)) return []
  read?.add(file)
  return parseIgnoreFile(got.text)
}

function loadDir(dir: string, read?: Set<string>): Frame | null {
  const hasGit = existsSync(join(dir, '.git'))
  if (hasGit) read?.add(join(dir, '.git'))
  const frame: Frame = {
    dir,
    hasGit,
    rgignore: readRules(join(dir, '.rgignore'), read),
    ignore: readRules(join(dir, '.ignore'), read),
    gitignore: readRules(join(dir, '.gitignore'), read),
    exclude: hasGit ? readRules(join(dir, '.git', 'info', 'exclude'), read) : []
  }
  return hasGit || frame.rgignore.length || frame.ignore.length || frame.gitignore.length ? frame : null
}

/** The last rule of a file matching the path decides: true ignored, false whitelisted; undefined no match. */
function decide(rules: CompiledGlob[], rel: string, isDir: boolean): boolean | undefined {
  for (let i = rules.length - 1; i >= 0; i--) if (matchGlob(rules[i], rel, isDir)) return !rules[i].negated
  return undefined
}

/**
 * The ignore files that apply to a directory, with ripgrep's precedence (its `ignore` crate): a match in a
 * .rgignore beats one in a .ignore, which beats a .gitignore, which beats .git/info/exclude; within a kind
 * the deepest file that matches decides, and within a file the last matching rule. .gitignore rules stop at
 * the nearest repository root (a nested repository is governed by its own), .ignore and .rgignore do not.
 */
export class IgnoreStack {
  /** Deepest first. */
  private constructor(
    private readonly frames: Frame[],
    private readonly read?: Set<string>
  ) {}

  /**
   * Starts at `root`, with the ignore files of every directory above it (as rg reads its parents'). `read`
   * collects every ignore file found, here and in the subdirectories it descends to, and every `.git`.
   */
  static forRoot(root: string, read?: Set<string>): IgnoreStack {
    const frames: Frame[] = []
    for (let dir = root; ; ) {
      const f = loadDir(dir, read)
      if (f) frames.push(f)
      const up = dirname(dir)
      if (up === dir) break
      dir = up
    }
    return new IgnoreStack(frames, read)
  }

  /** The stack for a subdirectory: this one plus the subdirectory's own ignore files. */
  descend(dir: string): IgnoreStack {
    const own = loadDir(dir, this.read)
    return own ? new IgnoreStack([own, ...this.frames], this.read) : this
  }

  ignores(absPath: string, isDir: boolean): boolean {
    let rg: boolean | undefined
    let ig: boolean | undefined
    let gi: boolean | undefined
    let ex: boolean | undefined
    let sawGit = false
    for (const f of this.frames) {
      const under = pathUnder(f.dir, absPath)
      if (!under) continue
      const rel = toPosix(under)
      rg ??= decide(f.rgignore, rel, isDir)
      ig ??= decide(f.ignore, rel, isDir)
      if (!sawGit) {
        gi ??= decide(f.gitignore, rel, isDir)
        ex ??= decide(f.exclude, rel, isDir)
      }
      sawGit ||= f.hasGit
    }
    return rg ?? ig ?? gi ?? ex ?? false
  }
}

export type OverrideMatch = 'whitelist' | 'ignore' | 'none'

/**
 * ripgrep's `-g` globs: the last matching glob decides; a match on a positive glob includes the entry even when
 * an ignore file excludes it; when positive globs exist, a file matching none of them is left out, while a
 * directory matching none is still walked (subject to ignore files).
 */
export class OverrideGlobs {
  private readonly globs: CompiledGlob[]
  private readonly hasWhitelist: boolean

  constructor(patterns: string[]) {
    this.globs = patterns.map((p) => compileGlob(p))
    this.hasWhitelist = this.globs.some((g) => !g.negated)
  }

  get empty(): boolean {
    return this.globs.length === 0
  }

  match(relPath: string, isDir: boolean): OverrideMatch {
    for (let i = this.globs.length - 1; i >= 0; i--) {
      const g = this.globs[i]
      if (matchGlob(g, relPath, isDir)) return g.negated ? 'ignore' : 'whitelist'
    }
    return this.hasWhitelist && !isDir ? 'ignore' : 'none'
  }
}
