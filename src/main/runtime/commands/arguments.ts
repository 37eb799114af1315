// Arguments filled into a command's prompt, as Claude Code 2.1 fills them: `$ARGUMENTS` is everything typed
// after the name; `$0`, `$1`… and `$ARGUMENTS[0]`… are the words (0-based; quotes group words); `$name` is the
// word at the position `arguments:` names it; `\$ARGUMENTS` stays literal. A placeholder with no word stays as
// written. When nothing was filled in and arguments were typed, they follow as "ARGUMENTS: …". A filled-in value
// is never read again as a placeholder (an argument "$1" stays "$1").

/** Words as a shell would split them ('single', "double" and backslash quoting), else at whitespace. */
export function splitArguments(text: string): string[] {
  if (!text.trim()) return []
  const words: string[] = []
  let cur: string | null = null
  let quote: '"' | "'" | null = null
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (quote) {
      if (ch === quote) quote = null
      else if (ch === '\\' && quote === '"' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) cur += text[++i]
      else cur += ch
    } else if (ch === '"' || ch === "'") {
      quote = ch
      cur ??= ''
    } else if (ch === '\\' && i + 1 < text.length) cur = (cur ?? '') + text[++i]
    else if (/\s/.test(ch)) {
      if (cur !== null) words.push(cur)
      cur = null
    } else cur = (cur ?? '') + ch
  }
  // An unclosed quote: Claude Code then falls back to whitespace.
  if (quote) return text.split(/\s+/).filter(Boolean)
  if (cur !== null) words.push(cur)
  return words
}

/**
 * Typed arguments as Claude Code writes them into a prompt: a `!` that could open a shell block is escaped
 * (`!`` becomes `! ``, a `!` after a space or line start `\!`), so the prompt never reads as a command to run.
 */
export function escapeBang(args: string): string {
  return args
    .replace(/`!/g, '` !')
    .replace(/!`/g, '! `')
    .replace(/(^|\s)!/gm, '$1\\!')
}

/** Marks text that must not be read again as a placeholder; `unprotect` turns it back. */
const DOLLAR = '\uFFFF'
export const protect = (text: string): string => text.replaceAll(DOLLAR, '\uFFFD').replaceAll('$', DOLLAR)
export const unprotect = (text: string): string => text.replaceAll(DOLLAR, '$')

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

export interface SubstituteOptions {
  /** `arguments:` of the frontmatter. */
  names?: readonly string[]
  /** Append "ARGUMENTS: …" when no placeholder took them (Claude Code does for commands and skills). */
  appendIfUnused?: boolean
}

/** Fills `args` into `text`; text already protected (a shell block's output) is left alone. */
export function substituteArguments(text: string, args: string, opts: SubstituteOptions = {}): string {
  let words: string[] | undefined
  const word = (i: number): string | undefined => (words ??= splitArguments(args))[i]
  const names = (opts.names ?? [])
    .map((name, i) => ({ name, i }))
    .filter((n) => n.name && n.name.length <= 64 && /^[\p{L}\p{N}_]+$/u.test(n.name))
    .slice(0, 64)
    .sort((a, b) => b.name.length - a.name.length)
  let used = false
  const fill = (v: string | undefined): string => {
    used = true
    return protect(v ?? '')
  }
  const heads = ['\\d', 'ARGUMENTS', ...names.map((n) => `${escapeRe(n.name)}(?![\\[\\w])`)].join('|')
  let out = text.replace(new RegExp(`(?<!\\\\)\\\\\\$(?=${heads})`, 'g'), DOLLAR)
  for (const { name, i } of names) out = out.replace(new RegExp(`\\$${escapeRe(name)}(?![\\[\\w])`, 'g'), () => fill(word(i)))
  out = out.replace(/\$ARGUMENTS\[(\d+)\]/g, (all, n: string) => (word(Number(n)) === undefined ? protect(all) : fill(word(Number(n)))))
  out = out.replace(/\$(\d+)(?!\w)/g, (all, n: string) => (word(Number(n)) === undefined ? all : fill(word(Number(n)))))
  out = out.replace(/\$ARGUMENTS/g, () => fill(args))
  if (!used && opts.appendIfUnused && args) out += `\n\nARGUMENTS: ${protect(args)}`
  return unprotect(out)
}
