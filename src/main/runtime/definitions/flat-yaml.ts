// A fast path for the frontmatter most agent files have: flat `key: value` lines (448 of the corpus's 587).
// The yaml library is slow in a fresh process — its code runs cold: ~5 ms for the built-in agents, read
// before every `fanout run`'s first model request, and ~3 ms more per few user agents — while such lines
// need no parser. Anything this reader is not certain to read exactly as yaml does (numbers other than
// plain integers, escapes, `#`, `: `, empty values, block scalars, lists, tabs, CRLF...) returns null, and
// readYaml parses it fully; a test compares both on the corpus and on mutations of it.
import type { Position } from './diagnostics'
import type { KeyPosition, YamlRead } from './yaml-result'

// yaml refuses an implicit key longer than 1024 characters: such a line is left to it.
const LINE = /^([A-Za-z_][A-Za-z0-9_-]{0,1023}):( +)(\S.*)$/
// Plain text: no comment (`#`), no `: ` (a nested key); a colon inside a word, as in `Bash(git diff:*)`, is text.
const PLAIN = /^[A-Za-z_/(](?:[^#:]|:(?=\S))*$/
// Tabs, CR and characters yaml may refuse or treat as line breaks.
const UNUSUAL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\ufeff\u2028\u2029]/
const BOOLEANS: Record<string, boolean> = { true: true, True: true, TRUE: true, false: false, False: false, FALSE: false }
const NULLS = new Set(['null', 'Null', 'NULL'])

/** The value of one scalar, or undefined when only the full parser can say. */
function scalar(text: string): { value: unknown } | undefined {
  const v = text.replace(/ +$/, '')
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) {
    const inner = v.slice(1, -1)
    return inner.replaceAll("''", '').includes("'") ? undefined : { value: inner.replaceAll("''", "'") }
  }
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    const inner = v.slice(1, -1)
    return /["\\]/.test(inner) ? undefined : { value: inner }
  }
  if (/^[0-9]{1,15}$/.test(v)) return { value: Number(v) }
  if (!PLAIN.test(v)) return undefined
  if (v in BOOLEANS) return { value: BOOLEANS[v] }
  return NULLS.has(v) ? { value: null } : { value: v }
}

/** `src` read as yaml would, when it is only flat `key: value` lines (and comments); otherwise null. */
export function readFlatYaml(src: string, origin: Position): YamlRead | null {
  if (UNUSUAL.test(src)) return null
  const data: Record<string, unknown> = {}
  const keys = new Map<string, KeyPosition>()
  const lines = src.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line === '' || line.startsWith('#')) continue
    const m = LINE.exec(line)
    if (!m) return null
    const [, key, gap, text] = m as unknown as [string, string, string, string]
    const read = scalar(text)
    // Keys compare by their value in yaml (`true:` and `True:` are the same key): only plain names here.
    if (!read || keys.has(key) || key in BOOLEANS || NULLS.has(key) || key === '__proto__') return null
    data[key] = read.value
    const at = (column: number): Position => ({ line: origin.line + i, column: i === 0 ? origin.column + column - 1 : column })
    keys.set(key, { key: at(1), value: at(key.length + 1 + gap.length + 1) })
  }
  return keys.size ? { ok: true, data, keys } : null
}
