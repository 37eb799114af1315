// .gitignore-style ignore files and ripgrep-style override globs for the JS fallback walker, written to give
// the same answers ripgrep gives (`rg --hidden --no-require-git -g ...`), so results do not depend on whether
// `rg` happens to be installed.
import { existsSync } from 'node:fs'
import { readConfigFile } from '../store/read-config'
import { dirname, join, relative } from 'node:path'
import { compileGlob, matchGlob, type CompiledGlob } from './glob-pattern'
import { toPosix } from './paths'

/** Ignore files read in each directory, lowest precedence first (ripgrep's order). */
const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore']

interface IgnoreFile {
  dir: string
  rules: CompiledGlob[]
}

function parseIgnoreFile(text: string): CompiledGlob[] {
  const rules: CompiledGlob[] = []
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(?<!\\)\s+$/, '')
    if (!line || line.startsWith('#')) continue
    try {
      rules.push(compileGlob(line.startsWith('\\#') || line.startsWith('\\!') ? line.slice(1) : line))
    } catch {
      // git ignores a pattern it cannot parse; so do we.
    }
  }
  return rules
}

function loadDir(dir: string): IgnoreFile | null {
  const rules: CompiledGlob[] = []
  for (const name of IGNORE_FILES) {
    const file = join(dir, name)
    // The repository's own files: a .gitignore linked to /dev/zero or a pipe must not hang or fill the process.
    const read = readConfigFile(file)
    if ('text' in read) rules.push(...parseIgnoreFile(read.text))
  }
  const exclude = readConfigFile(join(dir, '.git', 'info', 'exclude'))
  if ('text' in exclude) rules.unshift(...parseIgnoreFile(exclude.text))
  return rules.length ? { dir, rules } : null
}

/** The ignore files that apply to a directory: its own plus every ancestor's up to the repository root. */
export class IgnoreStack {
  private constructor(private readonly files: IgnoreFile[]) {}

  /** Starts at `root`, also loading ancestors' ignore files when `root` is inside a git repository. */
  static forRoot(root: string): IgnoreStack {
    const chain: string[] = []
    let dir = root
    for (;;) {
      chain.unshift(dir)
      if (existsSync(join(dir, '.git'))) break
      const up = dirname(dir)
      if (up === dir) {
        chain.splice(0, chain.length - 1) // not in a repository: only the root's own files
        break
      }
      dir = up
    }
    return new IgnoreStack(chain.map(loadDir).filter((f): f is IgnoreFile => f !== null))
  }

  /** The stack for a subdirectory: this one plus the subdirectory's own ignore files. */
  descend(dir: string): IgnoreStack {
    const own = loadDir(dir)
    return own ? new IgnoreStack([...this.files, own]) : this
  }

  /** Last matching rule wins, deeper files after shallower ones, exactly as git orders them. */
  ignores(absPath: string, isDir: boolean): boolean {
    let ignored = false
    for (const file of this.files) {
      const rel = toPosix(relative(file.dir, absPath))
      if (rel === '' || rel.startsWith('..')) continue
      for (const rule of file.rules) if (matchGlob(rule, rel, isDir)) ignored = !rule.negated
    }
    return ignored
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
