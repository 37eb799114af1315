// Writes one `key: value` pair as YAML with the `yaml` Document API, in the style the file already uses for
// that key: a quoted value stays quoted the same way, a YAML list stays a list (block or flow), a
// comma-separated list keeps its separator. A description is always valid YAML: a block scalar when it
// spans lines or holds `: ` or `<example>` (what breaks unquoted descriptions in Claude Code files).
import { Document, isScalar, isSeq, Pair, parseDocument, Scalar, YAMLMap, YAMLSeq, type Node } from 'yaml'
import type { EditorFieldKey, FieldValue } from '../../../shared/agent-editor'
import { FIELD_EXPECTS, frontmatterField } from '../definitions/schema'
import { isListField, isYamlField } from './field-view'

export class FieldEditError extends Error {
  constructor(
    readonly key: EditorFieldKey,
    message: string
  ) {
    super(message)
    this.name = 'FieldEditError'
  }
}

/** How the existing value is written, so a new value can be written the same way. */
export interface ValueStyle {
  node: Node | null
  /** The source text of the existing value (for list separators and flow padding). */
  source: string
  /** Spaces per indentation level in this file. */
  indent: number
  /** Block sequences under a key are indented (`  - a`) rather than flush (`- a`). */
  indentSeq: boolean
}

const TEXT_FIELDS_AS_BLOCK = new Set<string>(['description', 'initialPrompt'])
const NEEDS_BLOCK = /: |<example>|\n/

type ScalarType = Scalar['type']

function scalarNode(value: string | number | boolean, type?: ScalarType): Scalar {
  const node = new Scalar(value)
  if (type) node.type = type
  return node
}

function pickStringType(key: string, value: string, old: Node | null): ScalarType | undefined {
  const oldType = old && isScalar(old) && typeof old.value === 'string' ? old.type : undefined
  const multiLine = value.includes('\n')
  if (multiLine) return oldType === 'BLOCK_FOLDED' ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL'
  if (oldType && oldType !== 'PLAIN') return oldType
  if (TEXT_FIELDS_AS_BLOCK.has(key) && NEEDS_BLOCK.test(value)) return 'BLOCK_LITERAL'
  return undefined // plain, or whatever quoting yaml needs to keep it a string
}

function listSeparator(source: string): string {
  if (/,\s/.test(source)) return ', '
  if (source.includes(',')) return ','
  return source.trim().includes(' ') ? ' ' : ', '
}

function listNode(key: string, items: string[], style: ValueStyle | undefined): Node {
  const old = style?.node ?? null
  if (old && isSeq(old)) {
    const seq = new YAMLSeq()
    seq.flow = Boolean(old.flow)
    for (const item of items) seq.items.push(scalarNode(item))
    return seq
  }
  const text = items.join(listSeparator(style?.source ?? ''))
  return scalarNode(text, pickStringType(key, text, old))
}

/** Parses the text of a mcpServers / hooks editor and checks it is the kind of value the field takes. */
export function parseYamlField(key: EditorFieldKey, source: string): Node {
  const doc = parseDocument(source, { prettyErrors: false })
  const error = doc.errors[0]
  if (error) throw new FieldEditError(key, `\`${key}\` is not valid YAML: ${error.message}`)
  const value: unknown = doc.toJS({ maxAliasCount: 100 })
  const check = frontmatterField(key as 'mcpServers' | 'hooks').safeParse(value)
  if (!check.success) throw new FieldEditError(key, `\`${key}\` should be ${FIELD_EXPECTS[key as 'mcpServers' | 'hooks']}`)
  return doc.contents as Node
}

/**
 * The pair's lines (without a final line break), indented by `indent` columns. `comment` (a `# ...` that sat
 * on the old pair's first line) is kept on the first line.
 */
export function serializePair(
  key: EditorFieldKey,
  keySource: string,
  value: FieldValue,
  style: ValueStyle | undefined,
  indent: number,
  comment: string
): string {
  let text: string
  if (isYamlField(key)) {
    const source = String(value).replace(/\r\n/g, '\n').replace(/\s+$/, '')
    const node = parseYamlField(key, source)
    const oneLine = !source.includes('\n') && (node as { flow?: boolean }).flow === true
    const unit = ' '.repeat(style?.indent ?? 2)
    text = oneLine
      ? `${keySource}: ${source}`
      : `${keySource}:\n${source
          .split('\n')
          .map((l) => (l.trim() ? unit + l : ''))
          .join('\n')}`
  } else {
    let node: Node
    if (isListField(key)) node = listNode(key, Array.isArray(value) ? value : [String(value)], style)
    else if (typeof value === 'string') node = scalarNode(value, pickStringType(key, value, style?.node ?? null))
    else if (Array.isArray(value)) node = scalarNode(value.join(', '))
    else node = scalarNode(value)
    const doc = new Document()
    const map = new YAMLMap()
    map.items.push(new Pair(new Scalar(key), node))
    doc.contents = map
    const padded = /^\[\s/.test(style?.source ?? '[ ')
    text = doc.toString({ lineWidth: 0, indent: style?.indent ?? 2, indentSeq: style?.indentSeq ?? true, flowCollectionPadding: padded }).replace(/\n$/, '')
    // Keep the key exactly as the file wrote it (quoted keys stay quoted).
    if (text.startsWith(`${key}:`)) text = keySource + text.slice(key.length)
  }
  if (comment) {
    const nl = text.indexOf('\n')
    text = nl === -1 ? text + comment : `${text.slice(0, nl)} ${comment.trim()}${text.slice(nl)}`
  }
  if (indent > 0)
    text = text
      .split('\n')
      .map((l) => (l ? ' '.repeat(indent) + l : l))
      .join('\n')
  return text
}
