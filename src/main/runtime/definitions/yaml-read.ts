// Reads frontmatter YAML the way Claude Code 2.1.328 does (same errors, same values), but safely:
// bounded nesting, bounded alias expansion, linear duplicate-key detection, and positions for diagnostics.
// A key written twice is not an error there: the last value wins. So it is here, and the reader says where
// (`duplicates`), so the loader can warn that the file is not valid YAML as written.
//
// Why not `yaml.parse`: its pretty error messages and deep recursion exhaust the stack on deeply nested
// input (we have seen Node abort outright afterwards), and its duplicate-key check is quadratic (50,000 keys
// take 30 s). So we pre-check nesting, turn off pretty errors and the built-in check, and test unique keys
// ourselves with the same rule yaml uses (equal scalar values), keeping the result identical.
import { yamlLib } from '../yaml-lib'
import type { Position } from './diagnostics'
import { readFlatYaml } from './flat-yaml'
import { locateYamlError } from './yaml-error-at'
import type { KeyPosition, YamlRead } from './yaml-result'
import { errorMessage } from '../../../shared/error-message'

/** Deeper frontmatter is refused before parsing; real agent files nest a handful of levels (hooks). */
export const MAX_YAML_NESTING = 64
/** yaml's own default, stated: alias expansion beyond this is an "alias bomb". */
export const MAX_ALIAS_COUNT = 100

export type { KeyPosition, YamlRead } from './yaml-result'

/**
 * An upper bound on how deeply `src` nests: open indentation levels + compact `- ` / `? ` entries on a
 * line + open flow brackets. Flow brackets are counted even inside quotes (an over-estimate is safe) but
 * reset at every column-0 line, where no flow collection can continue.
 */
export function nestingDepth(src: string): { depth: number; line: number } {
  let max = 0
  let maxLine = 1
  let flow = 0
  const indents: number[] = []
  const lines = src.split('\n')
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]
    let i = 0
    while (line[i] === ' ' || line[i] === '\t') i++
    if (i === line.length || line[i] === '#') continue
    if (i === 0) flow = 0
    while (indents.length && indents[indents.length - 1] >= i) indents.pop()
    indents.push(i)
    let compact = 0
    let j = i
    while ((line[j] === '-' || line[j] === '?') && (j + 1 === line.length || line[j + 1] === ' ')) {
      compact++
      j++
      while (line[j] === ' ') j++
    }
    let peak = flow
    for (; j < line.length; j++) {
      const ch = line[j]
      if (ch === '[' || ch === '{') peak = Math.max(peak, ++flow)
      else if ((ch === ']' || ch === '}') && flow > 0) flow--
    }
    const depth = indents.length + compact + peak
    if (depth > max) {
      max = depth
      maxLine = n + 1
    }
  }
  return { depth: max, line: maxLine }
}

function shift(origin: Position, p: { line: number; col: number }): Position {
  return { line: origin.line + p.line - 1, column: p.line === 1 ? origin.column + p.col - 1 : p.col }
}

/** Parses `src` (which starts at `origin` in the file) as one YAML document. */
export function readYaml(src: string, origin: Position): YamlRead {
  return readFlatYaml(src, origin) ?? parseYaml(src, origin)
}

/** readYaml through the yaml library, whatever the text (exported to check the fast path against it). */
export function parseYaml(src: string, origin: Position): YamlRead {
  const nesting = nestingDepth(src)
  if (nesting.depth > MAX_YAML_NESTING) {
    return {
      ok: false,
      message: `the YAML nests more than ${MAX_YAML_NESTING} levels deep (about ${nesting.depth}); Fanout refuses it rather than risk running out of stack`,
      at: { line: origin.line + nesting.line - 1, column: 1 }
    }
  }
  const { LineCounter, isMap, isScalar, parseDocument, visit } = yamlLib()
  const lineCounter = new LineCounter()
  const at = (offset: number): Position => shift(origin, lineCounter.linePos(offset))
  try {
    const doc = parseDocument(src, { lineCounter, prettyErrors: false, uniqueKeys: false })
    const first = doc.errors[0]
    if (first) {
      // Reported at the line to change (the library's own position is often a line or more away).
      const located = locateYamlError(src, doc.errors, origin.line - 1)
      return { ok: false, message: first.message, at: at(located.offset), ...(located.hint ? { hint: located.hint } : {}) }
    }
    const duplicates: Array<{ key: string; at: Position }> = []
    visit(doc, {
      Map(_, map) {
        const seen = new Set<unknown>()
        for (const pair of map.items) {
          if (!isScalar(pair.key)) continue
          if (seen.has(pair.key.value)) duplicates.push({ key: String(pair.key.value), at: at(pair.key.range?.[0] ?? 0) })
          seen.add(pair.key.value)
        }
      }
    })
    // toJS sets each pair in order, so a later value of a key replaces the earlier one (Claude Code's reading).
    const data: unknown = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
    const keys = new Map<string, KeyPosition>()
    if (isMap(doc.contents)) {
      for (const pair of doc.contents.items) {
        if (!isScalar(pair.key)) continue
        const keyOffset = pair.key.range?.[0] ?? 0
        const value = pair.value as { range?: [number, number, number] } | null
        keys.set(String(pair.key.value), { key: at(keyOffset), value: at(value?.range?.[0] ?? keyOffset) })
      }
    }
    return { ok: true, data, keys, ...(duplicates.length ? { duplicates } : {}) }
  } catch (err) {
    // toJS throws on alias bombs and unresolvable aliases; anything else is still a diagnostic, never a crash.
    const message = errorMessage(err)
    return { ok: false, message: /alias count/i.test(message) ? `aliases expand too much (${message})` : message, at: origin }
  }
}
