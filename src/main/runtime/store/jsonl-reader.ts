// Streams a JSONL file line by line without loading it whole, and tells a complete line from a torn
// last line (a writer that stopped mid-line, e.g. a crash). Parsing errors are reported, never thrown.
import { createReadStream } from 'node:fs'

export type JsonlLine =
  | { line: number; ok: true; value: unknown; /** false for a last line with no newline after it */ terminated: boolean }
  | { line: number; ok: false; text: string; error: string; terminated: boolean }

const CHUNK = 1 << 20

/** Yields every non-empty line of `file` with its 1-based line number. Throws only if the file cannot be opened. */
export async function* readJsonlLines(file: string): AsyncGenerator<JsonlLine> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: CHUNK })
  let rest = ''
  let lineNo = 0
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = rest ? rest + chunk : chunk
    let start = 0
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      lineNo++
      const line = text.slice(start, nl)
      start = nl + 1
      if (line.trim()) yield parse(line, lineNo, true)
    }
    rest = text.slice(start)
  }
  if (rest.trim()) yield parse(rest, lineNo + 1, false)
}

function parse(text: string, line: number, terminated: boolean): JsonlLine {
  try {
    return { line, ok: true, value: JSON.parse(text), terminated }
  } catch (err) {
    return { line, ok: false, text, error: (err as Error).message, terminated }
  }
}
