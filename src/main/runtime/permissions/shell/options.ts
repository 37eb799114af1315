// Reading a command's arguments the way getopt_long does, against an allowlist: every option must be one
// the command's spec names, so an option nobody thought of (`sort -uo`, `git grep -O…`) makes the command
// not read-only instead of slipping through. Long options must be spelt out: getopt_long accepts any unique
// prefix (`--out` for `--output`), and resolving prefixes would need the command's whole option list.

export interface OptionSpec {
  /** Short flags without an argument, e.g. 'alhR1'. */
  short?: string
  /** Short options that take an argument (attached `-n5` or the next word `-n 5`). */
  shortArg?: string
  /** Short options whose argument is optional and can only be attached (`-u`, `-unormal`). */
  shortOptArg?: string
  /** Long options without an argument. */
  long?: readonly string[]
  /** Long options that require an argument (`--x=v` or `--x v`). */
  longArg?: readonly string[]
  /** Long options with an optional argument (`--x` or `--x=v` only). */
  longOptArg?: readonly string[]
  /** `-20` style numbers (head, tail). */
  numeric?: boolean
  /** Options may follow operands (GNU argument permutation). Default true. */
  permute?: boolean
}

export interface ParsedOptions {
  /** Each option seen, by its name (`-n`, `--lines`), with its argument if any. */
  options: Array<{ name: string; value?: string }>
  operands: number[]
}

export type OptionParse = { ok: true; parsed: ParsedOptions } | { ok: false; why: string }

/** `args` are the words after the command name; operands are returned as indexes into it. */
export function parseOptions(args: readonly string[], spec: OptionSpec): OptionParse {
  const options: ParsedOptions['options'] = []
  const operands: number[] = []
  const permute = spec.permute ?? true
  let endOfOptions = false
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (endOfOptions || a === '-' || !a.startsWith('-') || (!permute && operands.length)) {
      operands.push(i)
      if (!permute) endOfOptions = true
      continue
    }
    if (a === '--') {
      endOfOptions = true
      continue
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=')
      const name = eq === -1 ? a : a.slice(0, eq)
      if (spec.long?.includes(name)) {
        if (eq !== -1) return { ok: false, why: `${name} takes no value` }
        options.push({ name })
      } else if (spec.longOptArg?.includes(name)) options.push({ name, ...(eq !== -1 ? { value: a.slice(eq + 1) } : {}) })
      else if (spec.longArg?.includes(name)) {
        if (eq !== -1) options.push({ name, value: a.slice(eq + 1) })
        else if (i + 1 < args.length) options.push({ name, value: args[++i] })
        else return { ok: false, why: `${name} needs a value` }
      } else return { ok: false, why: `the option ${name} is not on the read-only list` }
      continue
    }
    if (spec.numeric && /^-\d+$/.test(a)) {
      options.push({ name: '-n', value: a.slice(1) })
      continue
    }
    for (let k = 1; k < a.length; k++) {
      const c = a[k]
      if (spec.short?.includes(c)) options.push({ name: `-${c}` })
      else if (spec.shortOptArg?.includes(c)) {
        options.push({ name: `-${c}`, ...(k + 1 < a.length ? { value: a.slice(k + 1) } : {}) })
        break
      } else if (spec.shortArg?.includes(c)) {
        if (k + 1 < a.length) options.push({ name: `-${c}`, value: a.slice(k + 1) })
        else if (i + 1 < args.length) options.push({ name: `-${c}`, value: args[++i] })
        else return { ok: false, why: `-${c} needs a value` }
        break
      } else return { ok: false, why: `the option -${c} is not on the read-only list` }
    }
  }
  return { ok: true, parsed: { options, operands } }
}

export const has = (p: ParsedOptions, ...names: string[]): boolean => p.options.some((o) => names.includes(o.name))
export const values = (p: ParsedOptions, ...names: string[]): string[] =>
  p.options.filter((o) => names.includes(o.name) && o.value !== undefined).map((o) => o.value as string)
