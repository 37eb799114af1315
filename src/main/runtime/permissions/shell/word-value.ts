// What a shell word becomes before the command sees it, for the words we can know without running anything:
// literal text, quotes and backslashes removed as bash removes them. Anything bash would expand at run time
// (variables, command or process substitution, arithmetic, ANSI-C `$'…'` quoting, brace expansion, `~user`)
// is refused with the reason, so a command built from such words is never taken for a known one.
import { nodeType, type ShNode } from './parse-shell'

export type WordValue =
  | {
      ok: true
      /** The text the command receives (before pathname expansion). */
      value: string
      /** Set when the word holds unquoted glob characters: the pattern, literal characters escaped with `\`. */
      glob?: string
      /** The word started with an unquoted `~` or `~/`: `value` has the home directory expanded. */
      tilde?: boolean
    }
  | { ok: false; why: string }

const GLOB_CHARS = new Set(['*', '?', '['])

/** Unquoted text: `\x` is x, backslash-newline vanishes; glob characters are noted. */
function unquoted(raw: string, out: { value: string; pattern: string; glob: boolean }): string | null {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]
    if (c === '\\') {
      const next = raw[++i]
      if (next === undefined || next === '\n') continue
      out.value += next
      out.pattern += GLOB_CHARS.has(next) || next === '\\' ? `\\${next}` : next
      continue
    }
    if (c === '{' && /^[^}]*(,|\.\.)[^}]*\}/.test(raw.slice(i + 1))) return 'brace expansion'
    if (GLOB_CHARS.has(c)) out.glob = true
    out.value += c
    out.pattern += c
  }
  return null
}

function literal(text: string, out: { value: string; pattern: string }): void {
  out.value += text
  out.pattern += text.replace(/[\\*?[]/g, '\\$&')
}

/** Inside double quotes only \$ \` \" \\ and backslash-newline are escapes. */
function doubleQuoted(raw: string): string {
  return raw.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c))
}

const EXPANSION_NAMES: Record<string, string> = {
  ParamExp: 'a variable expansion',
  CmdSubst: 'command substitution',
  ProcSubst: 'process substitution',
  ArithmExp: 'arithmetic expansion',
  ExtGlob: 'an extended glob'
}

export function wordValue(word: ShNode, home: string): WordValue {
  const out = { value: '', pattern: '', glob: false }
  const parts = word.Parts as ShNode[]
  let tilde = false
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]
    const type = nodeType(part)
    if (type === 'Lit') {
      let raw = part.Value as string
      if (i === 0 && raw.startsWith('~')) {
        const m = /^~(\/|$)/.exec(raw)
        if (!m) return { ok: false, why: 'a ~user path' }
        if (raw.length === 1 && parts.length > 1) return { ok: false, why: 'a ~ followed by quoted text' }
        literal(home, out)
        raw = raw.slice(1)
        tilde = true
      }
      // bash expands an unquoted `~` after the `=` of a word shaped like an assignment (`a=~/x`, `a=b:~/x`),
      // even as an argument: the command would see a home path the literal text does not show.
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(out.value + raw) && /[=:]~/.test(raw)) return { ok: false, why: 'a ~ after = (bash expands it)' }
      const why = unquoted(raw, out)
      if (why) return { ok: false, why }
    } else if (type === 'SglQuoted') {
      if (part.Dollar) return { ok: false, why: "ANSI-C quoting ($'…')" }
      literal(part.Value as string, out)
    } else if (type === 'DblQuoted') {
      if (part.Dollar) return { ok: false, why: 'locale quoting ($"…")' }
      for (const inner of part.Parts as ShNode[]) {
        const t = nodeType(inner)
        if (t !== 'Lit') return { ok: false, why: EXPANSION_NAMES[t] ?? `shell syntax ${t}` }
        literal(doubleQuoted(inner.Value as string), out)
      }
    } else return { ok: false, why: EXPANSION_NAMES[type] ?? `shell syntax ${type}` }
  }
  return { ok: true, value: out.value, ...(out.glob ? { glob: out.pattern } : {}), ...(tilde ? { tilde } : {}) }
}
