// The frontmatter of a SKILL.md: YAML between `---` lines, then the instructions. Its own file so that
// skill discovery (skill-index.ts) and loading (skills.ts) both read it without importing each other.
import { yamlLib } from '../yaml-lib'

export interface Frontmatter {
  data: Record<string, unknown>
  body: string
  /** 1-based line of the first frontmatter line, for locating YAML errors. */
  error?: { message: string; line: number; column: number }
}

/** Splits `---\n<yaml>\n---\n<body>`; a file without frontmatter is all body. */
export function parseFrontmatter(text: string): Frontmatter {
  const source = text.replace(/^\uFEFF/, '')
  const match = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(source)
  if (!match) return { data: {}, body: source }
  const body = source.slice(match[0].length)
  const { isMap, parseDocument } = yamlLib()
  const doc = parseDocument(match[1] ?? '')
  if (doc.errors.length) {
    const first = doc.errors[0]
    const pos = first.linePos?.[0]
    // +1: the YAML starts on the line after the opening `---`.
    return { data: {}, body, error: { message: first.message.split('\n')[0], line: (pos?.line ?? 1) + 1, column: pos?.col ?? 1 } }
  }
  const value = doc.toJS() as unknown
  return { data: isMap(doc.contents) && value && typeof value === 'object' ? (value as Record<string, unknown>) : {}, body }
}
