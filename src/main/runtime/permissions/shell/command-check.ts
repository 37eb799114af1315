// The shape every read-only command check shares: the command's words (already known literally), what a
// check may ask of the file system, and a helper that turns an option allowlist plus "which operands are
// files" into a check.
import { has, parseOptions, values, type OptionSpec, type ParsedOptions } from './options'

export interface Arg {
  value: string
  /** The pattern when the word holds unquoted glob characters. */
  glob?: string
}

export interface CommandEnv {
  /** The directory the command runs in (after any `cd` earlier in the same command). */
  cwd: string
  /** A file the command reads (glob expanded, symlinks resolved): null when it may, else why not. */
  readPath(arg: Arg, how?: { recursive?: boolean; cwd?: string }): string | null
  /** The top of the git repository around `cwd` (default: the command's), or that directory outside one. */
  repoRoot(cwd?: string): string
  /** Why a search from this directory could reach a protected file (a Read deny rule), or null. */
  protectedUnder(absDir: string): string | null
}

/** Null when the command only reads what it may; otherwise why it is not read-only. */
export type CommandCheck = (args: Arg[], env: CommandEnv) => string | null

export interface SpecOptions extends OptionSpec {
  /**
   * What the operands are: `paths` (files read), `none` (no operands allowed), `text` (not files),
   * `pattern` (the first is a pattern unless one came as an option, the rest are files).
   */
  operands: 'paths' | 'none' | 'text' | 'pattern'
  /** Options whose value names the pattern (so every operand is a file). */
  patternOptions?: string[]
  /** Options whose value is a file the command reads. */
  pathOptions?: string[]
  /** The command walks directories given to it (grep -r, du, find). */
  recursive?: boolean | ((p: ParsedOptions) => boolean)
  /** With no file operand, a recursive command searches the current directory. */
  defaultPath?: boolean | ((p: ParsedOptions) => boolean)
  /** Further rules on the parsed words. */
  extra?: (p: ParsedOptions, args: Arg[], env: CommandEnv) => string | null
  /** At most this many operands. */
  maxOperands?: number
}

export function checkPaths(args: Arg[], env: CommandEnv, recursive: boolean): string | null {
  for (const a of args) {
    const why = env.readPath(a, { recursive })
    if (why) return why
  }
  return null
}

export function spec(s: SpecOptions): CommandCheck {
  return (args, env) => {
    if (args.some((a) => a.glob && a.value.startsWith('-'))) return 'a glob where an option could be'
    const r = parseOptions(
      args.map((a) => a.value),
      s
    )
    if (!r.ok) return r.why
    const p = r.parsed
    if (s.maxOperands !== undefined && p.operands.length > s.maxOperands) return `more than ${s.maxOperands} operand${s.maxOperands === 1 ? '' : 's'}`
    const extra = s.extra?.(p, args, env)
    if (extra) return extra
    const recursive = typeof s.recursive === 'function' ? s.recursive(p) : (s.recursive ?? false)
    for (const v of values(p, ...(s.pathOptions ?? []))) {
      const why = env.readPath({ value: v })
      if (why) return why
    }
    let files = p.operands.map((i) => args[i])
    if (s.operands === 'none' && files.length) return 'it takes no operands here'
    if (s.operands === 'none' || s.operands === 'text') return null
    if (s.operands === 'pattern' && !has(p, ...(s.patternOptions ?? []))) files = files.slice(1)
    const fallback = typeof s.defaultPath === 'function' ? s.defaultPath(p) : (s.defaultPath ?? false)
    if (!files.length && fallback) files = [{ value: '.' }]
    return checkPaths(files, env, recursive)
  }
}
