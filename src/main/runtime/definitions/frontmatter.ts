// Splits an agent file into frontmatter and body exactly as Claude Code does, in linear time.
//
// Claude Code matches /^---\s*\n([\s\S]*?)---\s*\n?/: the frontmatter ends at the FIRST `---` after the
// opening line, even one in the middle of a line. We reproduce that (so the same files load), but by hand:
// the regex backtracks quadratically on a file of blank lines with no closing `---`, and we warn when the
// closing `---` is not on a line of its own, because that is almost always a mistake.
import type { Position } from './diagnostics'
import { positionAt } from './diagnostics'

export type FrontmatterSplit =
  | {
      ok: true
      /** The YAML between the delimiters. */
      yaml: string
      /** Where `yaml` starts in the file (its line 1 is this line). */
      yamlStart: Position
      body: string
      /** Where the closing `---` is. */
      close: Position
      /** The closing `---` shares its line with other text. */
      closeMidLine: boolean
      /** Character offsets in `text` of the YAML, the closing `---` and the body: editors splice by them. */
      yamlOffset: number
      closeOffset: number
      bodyOffset: number
    }
  | { ok: false; reason: 'no-frontmatter' | 'unterminated'; at: Position }

const isSpace = (ch: string | undefined): boolean => ch !== undefined && /\s/.test(ch)

export function splitFrontmatter(text: string): FrontmatterSplit {
  if (!text.startsWith('---')) return { ok: false, reason: 'no-frontmatter', at: { line: 1, column: 1 } }
  // `\s*\n` is greedy: the YAML starts after the last newline of the whitespace run that follows `---`.
  let end = 3
  while (isSpace(text[end])) end++
  const lastNewline = text.lastIndexOf('\n', end - 1)
  if (lastNewline < 3) return { ok: false, reason: 'no-frontmatter', at: { line: 1, column: 1 } }
  const start = lastNewline + 1
  const close = text.indexOf('---', start)
  if (close === -1) return { ok: false, reason: 'unterminated', at: { line: 1, column: 1 } }
  let bodyStart = close + 3
  while (isSpace(text[bodyStart])) bodyStart++
  const lineStart = text.lastIndexOf('\n', close - 1) + 1
  const lineEnd = text.indexOf('\n', close)
  const restOfLine = text.slice(close + 3, lineEnd === -1 ? text.length : lineEnd)
  return {
    ok: true,
    yaml: text.slice(start, close),
    yamlStart: positionAt(text, start),
    body: text.slice(bodyStart),
    close: positionAt(text, close),
    closeMidLine: lineStart !== close || restOfLine.trim() !== '',
    yamlOffset: start,
    closeOffset: close,
    bodyOffset: bodyStart
  }
}
