// An agent file opened for editing: where its frontmatter, YAML pairs and body are, as character offsets in
// the original text (BOM, CRLF and all), so an edit can splice exactly the lines of one field and leave
// every other byte alone. The YAML is checked by the loader's own reader (same errors, same limits) before
// the `yaml` Document API is used for positions.
import { isMap, isScalar, parseDocument, type Document, type Node, type Pair } from 'yaml'
import { splitFrontmatter } from '../definitions/frontmatter'
import { MAX_FRONTMATTER_CHARS } from '../definitions/parse'
import { readYaml } from '../definitions/yaml-read'

export interface PairSpan {
  key: string
  /** Offsets in the file text. */
  keyStart: number
  keyEnd: number
  /** The value's first and end offsets; both equal the end of `key:` when the value is empty. */
  valueStart: number
  valueEnd: number
  /** Start of the line the key is on. */
  lineStart: number
  /** End of the pair's last line, before its line break. */
  lineEnd: number
  /** Text after the value on its last line (spaces and a `# comment`), for one-line values. */
  trailing: string
  /** A `# comment` between `key:` and a value that starts on the next line. */
  headerComment: string
  /** Column of the key (top-level keys are at 0). */
  indent: number
  node: Node | null
}

export type FrontmatterDoc =
  | {
      ok: true
      text: string
      eol: '\n' | '\r\n'
      yamlStart: number
      yamlEnd: number
      bodyStart: number
      /** Pairs of the top-level mapping in file order; empty when the frontmatter is empty. */
      pairs: PairSpan[]
      /** The top-level mapping is written in block style (`key: value` lines). */
      block: boolean
      doc: Document
      data: Record<string, unknown>
    }
  | {
      ok: false
      text: string
      eol: '\n' | '\r\n'
      reason: 'no-frontmatter' | 'unterminated' | 'too-large' | 'invalid-yaml' | 'not-mapping'
      message: string
      bodyStart: number
    }

export function detectEol(text: string): '\n' | '\r\n' {
  const i = text.indexOf('\n')
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n'
}

/** Offset of the line break that ends the line containing `pos` (or `limit`). */
export function lineEndAt(text: string, pos: number, limit = text.length): number {
  const nl = text.indexOf('\n', pos)
  const end = nl === -1 || nl > limit ? limit : nl
  return end > pos && text[end - 1] === '\r' ? end - 1 : end
}

export function lineStartAt(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1
}

/** 1-based line of an offset. */
export function lineOf(text: string, pos: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) line++
  return line
}

function bomLength(text: string): number {
  return text.startsWith('\uFEFF') ? 1 : 0
}

function spanOf(text: string, base: number, yamlEnd: number, pair: Pair): PairSpan | null {
  const key = pair.key as Node | null
  if (!key || !isScalar(key) || !key.range) return null
  const keyStart = base + key.range[0]
  const keyEnd = base + key.range[1]
  const value = pair.value as Node | null
  const colon = text.indexOf(':', keyEnd)
  const emptyEnd = colon === -1 ? keyEnd : colon + 1
  const valueStart = value?.range && value.range[1] > value.range[0] ? base + value.range[0] : emptyEnd
  const valueEnd = value?.range && value.range[1] > value.range[0] ? base + value.range[1] : emptyEnd
  // Block values end after their last line break; one-line values end before it.
  const endsWithBreak = text[valueEnd - 1] === '\n'
  const lastLineEnd = endsWithBreak ? valueEnd - (text[valueEnd - 2] === '\r' ? 2 : 1) : lineEndAt(text, valueEnd, yamlEnd)
  const trailing = endsWithBreak ? '' : text.slice(valueEnd, lastLineEnd)
  const keyLineEnd = lineEndAt(text, emptyEnd, yamlEnd)
  const between = valueStart > keyLineEnd ? text.slice(emptyEnd, keyLineEnd) : ''
  const hash = between.indexOf('#')
  const lineStart = lineStartAt(text, keyStart)
  return {
    key: String(key.value),
    keyStart,
    keyEnd,
    valueStart,
    valueEnd,
    lineStart,
    lineEnd: Math.max(lastLineEnd, keyLineEnd),
    trailing: /^\s*(#.*)?$/.test(trailing) ? trailing : '',
    headerComment: hash === -1 ? '' : between.slice(hash).trimEnd(),
    indent: keyStart - lineStart,
    node: value
  }
}

export function readFrontmatterDoc(text: string): FrontmatterDoc {
  const eol = detectEol(text)
  const bom = bomLength(text)
  const split = splitFrontmatter(text.slice(bom))
  if (!split.ok) {
    const message =
      split.reason === 'unterminated'
        ? 'the frontmatter opened by `---` on line 1 is never closed by another `---` line'
        : 'the file has no frontmatter (a `---` line, `key: value` lines, then `---`)'
    return { ok: false, text, eol, reason: split.reason, message, bodyStart: bom }
  }
  const yamlStart = bom + split.yamlOffset
  const yamlEnd = bom + split.closeOffset
  const bodyStart = bom + split.bodyOffset
  const yaml = text.slice(yamlStart, yamlEnd)
  if (yaml.length > MAX_FRONTMATTER_CHARS)
    return { ok: false, text, eol, reason: 'too-large', message: `the frontmatter is longer than ${MAX_FRONTMATTER_CHARS} characters`, bodyStart }
  // The loader's reader first: nesting and alias limits, duplicate keys, the same error messages.
  const checked = readYaml(yaml.replace(/\r\n/g, '\n'), { line: 1, column: 1 })
  if (!checked.ok)
    return {
      ok: false,
      text,
      eol,
      reason: 'invalid-yaml',
      message: `the frontmatter is not valid YAML at line ${lineOf(text, yamlStart) + checked.at.line - 1}: ${checked.hint ?? checked.message}`,
      bodyStart
    }
  const data = checked.data ?? {}
  if (typeof data !== 'object' || Array.isArray(data))
    return { ok: false, text, eol, reason: 'not-mapping', message: 'the frontmatter is not a list of `key: value` lines', bodyStart }
  const doc = parseDocument(yaml, { uniqueKeys: false, prettyErrors: false })
  const pairs: PairSpan[] = []
  let block = true
  if (isMap(doc.contents)) {
    block = !doc.contents.flow
    for (const pair of doc.contents.items) {
      const span = spanOf(text, yamlStart, yamlEnd, pair)
      if (span) pairs.push(span)
    }
  } else if (doc.contents !== null) {
    block = false
  }
  return { ok: true, text, eol, yamlStart, yamlEnd, bodyStart, pairs, block, doc, data: data as Record<string, unknown> }
}
