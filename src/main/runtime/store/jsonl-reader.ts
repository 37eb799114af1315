// Streams a JSONL file line by line without loading it whole, and tells a complete line from a torn
// last line (a writer that stopped mid-line, e.g. a crash). Parsing errors are reported, never thrown.
import { createReadStream } from 'node:fs'
import { errorMessage } from '../../../shared/error-message'

export type JsonlLine =
  | { line: number; ok: true; value: unknown /** false for a last line with no newline after it */; terminated: boolean }
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
 * a long transcript has ~100,000 lines, and awaiting each one cost more than parsing it. Bytes are cut
 * at the last newline of each chunk and decoded in one go (a newline byte is never inside a UTF-8
 * character), which is several times faster than a streaming decoder.
 * Throws only if the file cannot be opened.
 */
export async function* readRawLines(file: string): AsyncGenerator<RawLine[]> {
  const stream = createReadStream(file, { highWaterMark: CHUNK })
  let rest: Buffer = Buffer.alloc(0)
  let lineNo = 0
  const linesOf = (text: string, terminated: boolean): RawLine[] => {
    const lines: RawLine[] = []
    let start = 0
    for (let nl = text.indexOf('\n'); nl !== -1 || start < text.length; nl = text.indexOf('\n', start)) {
      const end = nl === -1 ? text.length : nl
      lineNo++
      const line = text.slice(start, end)
      start = end + 1
      if (line.trim()) lines.push({ line: lineNo, text: line, terminated: nl !== -1 || terminated })
      if (nl === -1) break
    }
    return lines
  }
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const bytes = rest.length ? Buffer.concat([rest, chunk]) : chunk
    const cut = bytes.lastIndexOf(0x0a)
    if (cut === -1) {
      rest = bytes
      continue
    }
    rest = bytes.subarray(cut + 1)
    const lines = linesOf(bytes.toString('utf8', 0, cut + 1), true)
    if (lines.length) yield lines
  }
  if (rest.length) {
    const lines = linesOf(rest.toString('utf8'), false)
    if (lines.length) yield lines
  }
}

export function parseLine({ line, text, terminated }: RawLine): JsonlLine {
  try {
    return { line, ok: true, value: JSON.parse(text), terminated }
  } catch (err) {
    return { line, ok: false, text, error: errorMessage(err), terminated }
  }
}

/** Yields every non-empty line of `file`, parsed. Throws only if the file cannot be opened. */
export async function* readJsonlLines(file: string): AsyncGenerator<JsonlLine> {
  for await (const lines of readRawLines(file)) for (const raw of lines) yield parseLine(raw)
}
