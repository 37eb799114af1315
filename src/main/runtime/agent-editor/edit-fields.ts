// Form edits applied to an agent file's text: each change replaces, adds or removes exactly one key's
// lines; every other byte (unknown keys, comments, key order, quoting, blank lines, line endings, the
// body) stays as it was. A change to the value the field already has is no change at all.
import { EDITOR_FIELD_KEYS, type EditorFieldKey, type FieldChange } from '../../../shared/agent-editor'
import { isMap, isSeq, type Node } from 'yaml'
import { fieldsOf, sameValue } from './field-view'
import { readFrontmatterDoc, type FrontmatterDoc, type PairSpan } from './frontmatter-doc'
import { repairAgentText } from './repair'
import { FieldEditError, serializePair, type ValueStyle } from './serialize-field'

type ReadDoc = Extract<FrontmatterDoc, { ok: true }>

const ORDER = new Map<string, number>(EDITOR_FIELD_KEYS.map((k, i) => [k, i]))

/** Spaces per level and whether block lists under a key are indented, as this file writes them. */
function fileIndentation(doc: ReadDoc): { indent: number; indentSeq: boolean } {
  for (const span of doc.pairs) {
    const node = span.node
    if (!node || !(isMap(node) || isSeq(node)) || node.flow || span.valueStart <= span.keyEnd) continue
    const col = span.valueStart - doc.text.lastIndexOf('\n', span.valueStart - 1) - 1
    if (isSeq(node)) return { indent: Math.max(2, col - span.indent || 2), indentSeq: col > span.indent }
    if (col > span.indent) return { indent: col - span.indent, indentSeq: true }
  }
  return { indent: 2, indentSeq: true }
}

function styleOf(doc: ReadDoc, span: PairSpan | undefined): ValueStyle | undefined {
  const { indent, indentSeq } = fileIndentation(doc)
  if (!span) return { node: null, source: '', indent, indentSeq }
  return { node: span.node as Node | null, source: doc.text.slice(span.valueStart, span.valueEnd), indent, indentSeq }
}

function breakAfter(text: string, pos: number): number {
  if (text.startsWith('\r\n', pos)) return pos + 2
  return text[pos] === '\n' ? pos + 1 : pos
}

function withEol(s: string, eol: string): string {
  return eol === '\n' ? s : s.replace(/\n/g, eol)
}

/** Where a new key goes: after the last known field that comes before it in the form's order. */
function insertionPoint(doc: ReadDoc, key: EditorFieldKey): { at: number; before: boolean } {
  const rank = ORDER.get(key)!
  let after: PairSpan | undefined
  let firstLater: PairSpan | undefined
  for (const span of doc.pairs) {
    const r = ORDER.get(span.key)
    if (r === undefined) continue
    if (r < rank) after = span
    else if (!firstLater) firstLater = span
  }
  if (after) return { at: breakAfter(doc.text, after.lineEnd), before: false }
  if (firstLater) return { at: firstLater.lineStart, before: true }
  const last = doc.pairs[doc.pairs.length - 1]
  if (last) return { at: breakAfter(doc.text, last.lineEnd), before: false }
  return { at: doc.yamlStart, before: true }
}

function applyOne(doc: ReadDoc, change: FieldChange): string {
  const { text, eol } = doc
  const span = doc.pairs.find((p) => p.key === change.key)
  const current = fieldsOf(doc)[change.key]
  if (change.value === null) {
    if (!span) return text
    // Remove the pair's lines, line break included.
    return text.slice(0, span.lineStart) + text.slice(breakAfter(text, span.lineEnd))
  }
  if (span && sameValue(change.key, current, change.value)) return text
  const style = styleOf(doc, span)
  if (span) {
    const keySource = text.slice(span.keyStart, span.keyEnd)
    const comment = span.trailing.trim() ? span.trailing : span.headerComment ? ` ${span.headerComment}` : ''
    const pair = serializePair(change.key, keySource, change.value, style, 0, comment)
    return text.slice(0, span.keyStart) + withEol(pair, eol) + text.slice(span.lineEnd)
  }
  const indent = doc.pairs[0]?.indent ?? 0
  const pair = withEol(serializePair(change.key, change.key, change.value, style, indent, ''), eol)
  const { at } = insertionPoint(doc, change.key)
  // The YAML may end without a line break right before the closing `---` (e.g. `key: v---`): add one.
  const needsBreakBefore = at > 0 && text[at - 1] !== '\n'
  return text.slice(0, at) + (needsBreakBefore ? eol : '') + pair + eol + text.slice(at)
}

export type EditOutcome =
  | { ok: true; text: string /** The repair made first (what it changed), when the YAML needed one. */; repaired?: string[] }
  | { ok: false; key?: EditorFieldKey; message: string }

/**
 * Applies form changes in order. A frontmatter that is not valid YAML as written but loads (Claude Code quotes
 * its values while reading) is repaired first, the same way (quotes added, every word kept), so editing one
 * field never waits on fixing another. Refuses (saying why) when the frontmatter cannot be edited safely:
 * missing, not valid YAML with no repair, or a one-line `{...}` mapping.
 */
export function applyFieldChanges(text: string, changes: readonly FieldChange[], file = 'agent.md'): EditOutcome {
  let current = text
  let repaired: string[] | undefined
  const first = changes.length ? readFrontmatterDoc(current) : null
  if (first && !first.ok && first.reason === 'invalid-yaml') {
    const fixed = repairAgentText(current, file)
    const fixedDoc = fixed ? readFrontmatterDoc(fixed.text) : null
    if (fixed && fixedDoc?.ok) {
      // Values as Claude Code reads them: a change to the value a field already has changes nothing, not even the quotes.
      const values = fieldsOf(fixedDoc)
      if (changes.every((c) => (c.value === null ? values[c.key] === undefined : values[c.key] !== undefined && sameValue(c.key, values[c.key], c.value))))
        return { ok: true, text }
      current = fixed.text
      repaired = fixed.changes
    }
  }
  for (const change of changes) {
    const doc = readFrontmatterDoc(current)
    if (!doc.ok) return { ok: false, key: change.key, message: `The form cannot change this file: ${doc.message}. Repair it first, or edit the raw file.` }
    if (!doc.block)
      return {
        ok: false,
        key: change.key,
        message: 'The form cannot change this file: its frontmatter is written as one `{ ... }` mapping. Edit the raw file.'
      }
    try {
      current = applyOne(doc, change)
    } catch (err) {
      if (err instanceof FieldEditError) return { ok: false, key: err.key, message: err.message }
      throw err
    }
  }
  return { ok: true, text: current, ...(repaired ? { repaired } : {}) }
}
