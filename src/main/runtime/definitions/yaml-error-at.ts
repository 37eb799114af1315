// Where a YAML error is, as a person fixing the file needs it. The yaml library reports where it noticed
// the problem, which is often not the line to change: a key indented by mistake is reported at the value
// on the line above it, an unclosed `[`, `{` or quote at the end of the frontmatter. This moves the
// position to the line that is wrong, when the library's errors say enough to know it, and adds a few words
// saying why. It only runs for text that already failed to parse, so it never changes what loads.
import type { CST, YAMLError } from 'yaml'
import { yamlLib } from '../yaml-lib'

export interface YamlErrorAt {
  /** Offset in the YAML text of the character to show. */
  offset: number
  /** A clause saying what is wrong there and what to do, in a person's terms (instead of the library's message). */
  hint?: string
}

const lineStart = (src: string, offset: number): number => src.lastIndexOf('\n', offset - 1) + 1
const lineEnd = (src: string, offset: number): number => {
  const nl = src.indexOf('\n', offset)
  return nl === -1 ? src.length : nl
}
/** The first character of the line holding `offset` that is not a space or tab. */
const firstCharOfLine = (src: string, offset: number): number => {
  let i = lineStart(src, offset)
  while (src[i] === ' ' || src[i] === '\t') i++
  return i
}
/** The first non-blank character after the line holding `offset`, if any. */
function nextContentLine(src: string, offset: number): number | undefined {
  for (let start = lineEnd(src, offset) + 1; start < src.length; start = lineEnd(src, start) + 1) {
    const first = firstCharOfLine(src, start)
    if (first < src.length && src[first] !== '\n' && src[first] !== '#') return first
  }
  return undefined
}

interface Opener {
  offset: number
  /** What opens there (`the \`[\``), and what should close it. */
  what: string
  closer?: string
}

/** Flow collections and quoted scalars that are never closed, in source order. */
function unclosed(src: string): Opener[] {
  const out: Opener[] = []
  const walk = (token: CST.Token | null | undefined): void => {
    if (!token) return
    switch (token.type) {
      case 'document':
        walk(token.value)
        return
      case 'block-map':
      case 'block-seq':
        for (const item of token.items) {
          walk(item.key)
          walk(item.value)
        }
        return
      case 'flow-collection': {
        const isSeq = token.start.source === '['
        if (!token.end.some((t) => t.type === (isSeq ? 'flow-seq-end' : 'flow-map-end')))
          out.push({ offset: token.offset, what: isSeq ? 'the `[`' : 'the `{`', closer: isSeq ? ']' : '}' })
        for (const item of token.items) {
          walk(item.key)
          walk(item.value)
        }
        return
      }
      case 'double-quoted-scalar':
      case 'single-quoted-scalar': {
        const q = token.source[0]
        const body = token.source.replace(/\s+$/, '')
        if (body.length < 2 || !body.endsWith(q)) out.push({ offset: token.offset, what: `the ${q === '"' ? 'double' : 'single'} quote opened` })
        return
      }
      default:
        return
    }
  }
  try {
    for (const token of new (yamlLib().Parser)().parse(src)) walk(token)
  } catch {
    // The parser does not throw on bad input; if it ever does, the library's own position stands.
  }
  return out
}

const lineNo = (src: string, offset: number): number => src.slice(0, offset).split('\n').length

/**
 * The position to report for `errors` (the library's errors for `src`, the first one being the one shown).
 * `lineOffset` turns a line of `src` into a line of the file, for the hint.
 */
export function locateYamlError(src: string, errors: readonly YAMLError[], lineOffset = 0): YamlErrorAt {
  const first = errors[0]
  const at = first.pos[0]
  const fileLine = (offset: number) => lineNo(src, offset) + lineOffset

  // A key indented under a one-line value: yaml reads the indented line as more of that value, which then
  // looks like a multi-line key. The line to fix is where that "key" ends (the indented one with the `:`).
  if (first.code === 'BLOCK_AS_IMPLICIT_KEY' && /nested mappings/i.test(first.message)) {
    const key = errors.find((e) => e.code === 'MULTILINE_IMPLICIT_KEY' && e.pos[0] === at)
    if (key && lineStart(src, key.pos[1]) > lineStart(src, at)) {
      const wrong = firstCharOfLine(src, key.pos[1])
      return {
        offset: wrong,
        hint: `line ${fileLine(wrong)} is indented, so YAML reads it as part of the value on line ${fileLine(at)}, where a \`key:\` cannot start; unindent it if it is a field of its own, or put that value in quotes`
      }
    }
  }

  // A `- item` indented less than the key it should belong to: reported at the end of the line above.
  if (first.code === 'BLOCK_AS_IMPLICIT_KEY' && /block sequence/i.test(first.message) && src.slice(at, lineEnd(src, at)).trim() === '') {
    const next = nextContentLine(src, at)
    if (next !== undefined)
      return {
        offset: next,
        hint: `line ${fileLine(next)} is indented less than the key on line ${fileLine(at)} above it; indent it under the key it belongs to`
      }
  }

  // An unclosed `[`, `{` or quote: reported where the text runs out, but the opening one is to fix.
  if (/^flow (sequence|map)|flow collection|missing closing .?quote/i.test(first.message) || (first.code === 'MISSING_CHAR' && /flow/i.test(first.message))) {
    const open = unclosed(src)
      .filter((o) => o.offset <= at)
      .pop()
    if (open)
      return { offset: open.offset, hint: `${open.what} on line ${fileLine(open.offset)} is never closed${open.closer ? ` by a \`${open.closer}\`` : ''}` }
  }

  // A line with no `:` at all, read as the start of a key that never gets its value.
  if (
    (first.code === 'MULTILINE_IMPLICIT_KEY' || (first.code === 'MISSING_CHAR' && /implicit map keys/i.test(first.message))) &&
    at === firstCharOfLine(src, at)
  ) {
    if (!src.slice(at, lineEnd(src, at)).includes(':')) return { offset: at, hint: `line ${fileLine(at)} has no \`:\`; a field is written \`key: value\`` }
  }

  return { offset: at }
}
