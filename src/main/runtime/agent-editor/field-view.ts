// The form's view of frontmatter values: what each field shows, read with the loader's rules (tool lists
// split like Claude Code splits them, a description's `\n` escapes shown as the line breaks they become).
// Comparing a form value with this view is how an edit that changes nothing leaves the file untouched.
import { EDITOR_FIELD_KEYS, LIST_FIELDS, YAML_FIELDS, type EditorFieldKey, type EditorFields, type FieldValue } from '../../../shared/agent-editor'
import { readToolList } from '../definitions/tool-list'
import { lineStartAt, type FrontmatterDoc, type PairSpan } from './frontmatter-doc'

const LISTS = new Set<string>(LIST_FIELDS)
const YAMLS = new Set<string>(YAML_FIELDS)
const KNOWN = new Set<string>(EDITOR_FIELD_KEYS)

export const isListField = (key: string): boolean => LISTS.has(key)
export const isYamlField = (key: string): boolean => YAMLS.has(key)
export const isEditorField = (key: string): key is EditorFieldKey => KNOWN.has(key)

/** A YAML value's source text, de-indented: what the mcpServers / hooks editors show. */
export function valueSource(doc: Extract<FrontmatterDoc, { ok: true }>, span: PairSpan): string {
  const { text } = doc
  if (span.valueEnd <= span.valueStart) return ''
  const from = lineStartAt(text, span.valueStart) > span.keyStart ? lineStartAt(text, span.valueStart) : span.valueStart
  const lines = text.slice(from, span.valueEnd).replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n')
  const indents = lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length)
  const cut = indents.length ? Math.min(...indents) : 0
  return lines.map((l) => l.slice(Math.min(cut, /^ */.exec(l)![0].length))).join('\n')
}

/** What the form shows for a raw frontmatter value. */
export function formValue(key: EditorFieldKey, raw: unknown, yamlText?: string): FieldValue {
  if (isYamlField(key)) return yamlText ?? (raw === null || raw === undefined ? '' : JSON.stringify(raw))
  if (isListField(key)) {
    const read = readToolList(raw)
    if (read.list) return read.list
    return []
  }
  if (raw === null || raw === undefined) return ''
  if (typeof raw === 'string') return key === 'description' ? raw.replace(/\\n/g, '\n') : raw
  if (typeof raw === 'number' || typeof raw === 'boolean') return raw
  return JSON.stringify(raw)
}

/** Form values of every known field present in the frontmatter. */
export function fieldsOf(doc: Extract<FrontmatterDoc, { ok: true }>): EditorFields {
  const fields: EditorFields = {}
  for (const span of doc.pairs) {
    if (!isEditorField(span.key) || Object.hasOwn(fields, span.key)) continue
    fields[span.key] = formValue(span.key, doc.data[span.key], isYamlField(span.key) ? valueSource(doc, span) : undefined)
  }
  return fields
}

/** Form values from already-parsed frontmatter (a file that only loads after Claude Code's repair). */
export function fieldsOfData(data: Record<string, unknown>): EditorFields {
  const fields: EditorFields = {}
  for (const key of EDITOR_FIELD_KEYS) {
    if (!Object.hasOwn(data, key)) continue
    fields[key] = formValue(key, data[key])
  }
  return fields
}

export function sameValue(key: EditorFieldKey, a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i])
  // A YAML editor's trailing blank lines are not part of the value.
  if (isYamlField(key) && typeof a === 'string' && typeof b === 'string') return a.replace(/\s+$/, '') === b.replace(/\s+$/, '')
  return a === b
}
