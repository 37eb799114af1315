// Claude Code's recovery for frontmatter that is not valid YAML, reproduced rule for rule so the same
// files load with the same values. When the first YAML parse fails, Claude Code rewrites every line of the
// form `key: value` (key at column 0, letters, `_` and `-` only) whose value is not already quoted and
// contains a YAML indicator (`{ } [ ] * & # ! | > % @ \``) or `: `, wrapping the value in double quotes with
// `\` and `"` escaped, and parses again. This repairs one-line values such as
// `description: Use when X. Examples: <example>Context: ...\n...` (the `\n` escapes are turned into line
// breaks later, for every description). Values spread over several lines (an `<example>` block at column 0)
// are not repaired: the retry fails too and Claude Code skips the file — so do we, saying why.
//
// The line match is written by hand rather than as Claude Code's /^([a-zA-Z_-]+):\s+(.+)$/ because that
// regex backtracks quadratically on long runs of spaces followed by a carriage return.

/** Characters that make an unquoted value problematic in YAML (Claude Code's list). */
export const YAML_SPECIAL = /[{}[\]*&#!|>%@`]|: /

export interface QuotedLine {
  /** 0-based index of the line in the YAML text. */
  index: number
  key: string
  /** 0-based column where the value starts in the original line. */
  valueColumn: number
  /** What made the value need quotes, for the diagnostic. */
  trigger: string
}

const KEY_CHAR = /[a-zA-Z_-]/
const LINE_TERMINATOR = /[\r\u2028\u2029]/

/** `key: value` as Claude Code's regex reads it, or undefined when the line does not match. */
export function matchKeyValueLine(line: string): { key: string; value: string; valueColumn: number } | undefined {
  let i = 0
  while (i < line.length && KEY_CHAR.test(line[i])) i++
  if (i === 0 || line[i] !== ':') return undefined
  const key = line.slice(0, i)
  let j = i + 1
  while (j < line.length && /\s/.test(line[j])) j++
  if (j === i + 1) return undefined // `\s+` needs at least one whitespace character
  const value = line.slice(j)
  // `.+$` must reach the end of the line without crossing a line terminator; an empty rest only matches
  // whitespace, which never needs quoting, so it is reported as no match.
  if (value === '' || LINE_TERMINATOR.test(value)) return undefined
  return { key, value, valueColumn: j }
}

function isQuoted(value: string): boolean {
  return (value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))
}

/** Claude Code's `quoteProblematicValues`: returns the rewritten YAML and the lines it changed. */
export function quoteProblematicValues(yaml: string): { text: string; quoted: QuotedLine[] } {
  const quoted: QuotedLine[] = []
  const lines = yaml.split('\n').map((line, index) => {
    const m = matchKeyValueLine(line)
    if (!m || isQuoted(m.value)) return line
    const special = YAML_SPECIAL.exec(m.value)
    if (!special) return line
    quoted.push({ index, key: m.key, valueColumn: m.valueColumn, trigger: special[0] })
    const escaped = m.value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')
    return `${m.key}: "${escaped}"`
  })
  return { text: lines.join('\n'), quoted }
}
