// One-click repair of the common ways agent files break, keeping every word of their text:
// - `key: value` lines whose value YAML misreads (`: `, `<example>`, `>`, `*`, ...) are put in double quotes,
//   exactly as Claude Code quotes them when it loads the file, so the values read the same after the fix;
// - a description that runs on over following lines (an `<example>` block at column 0, which Claude Code
//   cannot read) becomes a block scalar holding all those lines;
// - a frontmatter that is never closed gets its closing `---`;
// - a file with no frontmatter gets one, named after the file, described by its first line of prose.
// Returns null when there is nothing this can fix (the text is fine, or broken in another way).
import { FRONTMATTER_KEYS } from '../definitions/schema'
import { matchKeyValueLine, quoteProblematicValues } from '../definitions/recover'
import { readYaml } from '../definitions/yaml-read'
import { detectEol, readFrontmatterDoc } from './frontmatter-doc'

export interface Repair {
  text: string
  /** What was changed, one sentence each, with line numbers of the original text. */
  changes: string[]
}

const KEYS = new Set<string>(FRONTMATTER_KEYS)
/** Fields whose value may be long prose spread over lines. */
const PROSE_KEYS = new Set(['description', 'initialPrompt'])

function baseName(file: string): string {
  return (file.split(/[\\/]/).pop() ?? file).replace(/\.md$/i, '')
}

function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'agent'
  )
}

function firstProse(body: string): string | undefined {
  let heading: string | undefined
  for (const line of body.split('\n')) {
    const t = line.trim()
    if (!t || t.startsWith('---') || t.startsWith('```')) continue
    if (t.startsWith('#')) {
      heading ??= t.replace(/^#+\s*/, '')
      continue
    }
    return t.replace(/[*_`]/g, '').slice(0, 300)
  }
  return heading
}

const yamlOk = (yaml: string): boolean => readYaml(yaml, { line: 1, column: 1 }).ok

/** A prose value that continues on lines at column 0 until the next known field: as a block scalar. */
function foldProseValues(lines: string[], changes: string[], lineOffset: number): { lines: string[]; folded: Set<number> } {
  const out: string[] = []
  const folded = new Set<number>()
  for (let i = 0; i < lines.length; i++) {
    const m = matchKeyValueLine(lines[i])
    let end = i + 1
    if (m && PROSE_KEYS.has(m.key)) {
      while (end < lines.length && !isFieldLine(lines[end])) end++
    }
    // Only values that really run on (a continuation line that YAML would misread) are folded.
    const continuation = lines.slice(i + 1, end)
    if (!m || end === i + 1 || !continuation.some((l) => l.trim() && !/^\s/.test(l))) {
      out.push(lines[i])
      continue
    }
    const value = [m.value, ...continuation]
    while (value.length && !value[value.length - 1].trim()) value.pop()
    folded.add(out.length)
    out.push(`${m.key}: |-`, ...value.map((l) => (l.trim() ? `  ${l}` : '')))
    changes.push(
      `Lines ${lineOffset + i}-${lineOffset + i + value.length - 1}: the \`${m.key}\` text runs over ${value.length} lines, which YAML cannot read unquoted; it is now a block of text (\`|-\`), every line kept.`
    )
    i = end - 1
  }
  return { lines: out, folded }
}

function isFieldLine(line: string): boolean {
  const m = /^([A-Za-z_-]+):(\s|$)/.exec(line)
  return m !== null && KEYS.has(m[1])
}

function repairYaml(yaml: string, firstLine: number): { yaml: string; changes: string[] } | null {
  const changes: string[] = []
  const quoted = quoteProblematicValues(yaml)
  if (quoted.quoted.length && yamlOk(quoted.text)) {
    changes.push(quoteNote(quoted.quoted.map((q) => ({ line: firstLine + q.index, key: q.key, trigger: q.trigger }))))
    return { yaml: quoted.text, changes }
  }
  const { lines, folded } = foldProseValues(yaml.split('\n'), changes, firstLine)
  if (!changes.length) return null
  // Then Claude Code's quoting for the other one-line values (never for the block headers just written).
  const alsoQuoted: QuotedValue[] = []
  const quotedLines = lines.map((line, i) => {
    if (folded.has(i)) return line
    const q = quoteProblematicValues(line)
    for (const one of q.quoted) alsoQuoted.push({ key: one.key, trigger: one.trigger })
    return q.text
  })
  if (alsoQuoted.length) changes.push(quoteNote(alsoQuoted))
  const result = quotedLines.join('\n')
  if (!yamlOk(result)) return null
  return { yaml: result, changes }
}

interface QuotedValue {
  /** Line in the original text, when it is known. */
  line?: number
  key: string
  trigger: string
}

const why = (trigger: string): string =>
  trigger === ': ' ? 'contains ": ", which YAML reads as a nested key' : `contains "${trigger}", which has a meaning of its own in YAML`
const andList = (items: string[]): string => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`)

/** One sentence for all the values quoted: the same words repeated per line read as noise. */
function quoteNote(values: QuotedValue[]): string {
  const lines = values.flatMap((v) => (v.line === undefined ? [] : [String(v.line)]))
  const where = lines.length ? `${lines.length === 1 ? 'Line' : 'Lines'} ${andList(lines)}: the` : 'The'
  if (values.length === 1) {
    const [v] = values
    return `${where} value of \`${v.key}\` ${why(v.trigger)}; it is now in double quotes, with the same text (Claude Code reads it this way too).`
  }
  const triggers = [...new Set(values.map((v) => `"${v.trigger}"`))]
  return `${where} values of ${andList(values.map((v) => `\`${v.key}\``))} contain ${andList(triggers)}, which ${triggers.length === 1 ? 'has a meaning' : 'have meanings'} of ${triggers.length === 1 ? 'its' : 'their'} own in YAML; each is now in double quotes, with the same text (Claude Code reads them this way too).`
}

/** Where the frontmatter that was never closed most likely ends: before the first line that is not a field. */
function closeFrontmatter(lines: string[]): number {
  let i = 1
  while (i < lines.length && lines[i].trim() !== '' && (/^[A-Za-z_-]+:/.test(lines[i]) || /^\s/.test(lines[i]))) i++
  return i
}

export function repairAgentText(text: string, file: string): Repair | null {
  const eol = detectEol(text)
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : ''
  const src = text.slice(bom.length).replace(/\r\n/g, '\n')
  const finish = (fixed: string, changes: string[]): Repair => ({ text: bom + (eol === '\n' ? fixed : fixed.replace(/\n/g, '\r\n')), changes })
  const doc = readFrontmatterDoc(text)
  if (doc.ok) return null

  if (doc.reason === 'no-frontmatter') {
    if (!src.trim()) return null
    const name = slug(baseName(file))
    const description = firstProse(src) ?? `The ${name} agent`
    const header = `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n`
    return finish(header + src, [
      `The file had no frontmatter: added one with name "${name}" (from the file name) and a description from its first line; all of the text is now the agent's prompt.`
    ])
  }

  if (doc.reason === 'unterminated') {
    const lines = src.split('\n')
    const at = closeFrontmatter(lines)
    const fixed = [...lines.slice(0, at), '---', ...lines.slice(at)].join('\n')
    const changes = [`The frontmatter was never closed: added the closing \`---\` after line ${at}.`]
    const inner = repairAgentText(finish(fixed, []).text, file)
    return inner ? { text: inner.text, changes: [...changes, ...inner.changes] } : finish(fixed, changes)
  }

  if (doc.reason !== 'invalid-yaml') return null
  // Work on the LF text: the YAML starts after the first line (and any blank lines, as the loader reads it).
  const open = /^---[^\S\n]*\n(?:[^\S\n]*\n)*/.exec(src)
  if (!open) return null
  const close = src.indexOf('---', open[0].length)
  if (close === -1) return null
  const yaml = src.slice(open[0].length, close)
  const firstLine = src.slice(0, open[0].length).split('\n').length
  const fixed = repairYaml(yaml, firstLine)
  if (!fixed) return null
  return finish(src.slice(0, open[0].length) + fixed.yaml + src.slice(close), fixed.changes)
}
