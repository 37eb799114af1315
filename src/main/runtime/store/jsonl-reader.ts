// Streams a JSONL file line by line without loading it whole, and tells a complete line from a torn
// last line (a writer that stopped mid-line, e.g. a crash). Parsing errors are reported, never thrown.
import { createReadStream } from 'node:fs'

export type JsonlLine =
  | { line: number; ok: true; value: unknown; /** false for a last line with no newline after it */ terminated: boolean }
  | { line: number; ok: false; text: string; error: string; terminated: boolean }

/** A line as read, not parsed yet. */
export interface RawLine {
  line: number
  text: string
  terminated: boolean
}

const CHUNK = 1 << 20

/**
 * Every non-empty line of `file` with its 1-based line number, unparsed, a chunk (~1 MB) at a time:
 * a long transcript has ~100,000 lines, and awaiting each one cost more than parsing it.
 * Throws only if the file cannot be opened.
 */
export async function* readRawLines(file: string): AsyncGenerator<RawLine[]> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: CHUNK })
  let rest = ''
  let lineNo = 0
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = rest ? rest + chunk : chunk
    const lines: RawLine[] = []
    let start = 0
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      lineNo++
      const line = text.slice(start, nl)
      start = nl + 1
      if (line.trim()) lines.push({ line: lineNo, text: line, terminated: true })
    }
    rest = text.slice(start)
    if (lines.length) yield lines
  }
  if (rest.trim()) yield [{ line: lineNo + 1, text: rest, terminated: false }]
}

export function parseLine({ line, text, terminated }: RawLine): JsonlLine {
  try {
    return { line, ok: true, value: JSON.parse(text), terminated }
  } catch (err) {
    return { line, ok: false, text, error: (err as Error).message, terminated }
  }
}

/** Yields every non-empty line of `file`, parsed. Throws only if the file cannot be opened. */
export async function* readJsonlLines(file: string): AsyncGenerator<JsonlLine> {
  for await (const lines of readRawLines(file)) for (const raw of lines) yield parseLine(raw)
}
