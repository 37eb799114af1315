// The complete lines a transcript gained since a byte offset, with the offset where each one ends: an
// index remembers how far it has read each file, so it reads only what was appended since. A last line
// without its newline (a writer mid-line, or one a crash cut) is left for the next read. Read-only.
import { open } from 'node:fs/promises'

export interface TailLine {
  /** Byte offset of the line's first byte. */
  start: number
  /** Byte offset just after its newline. */
  end: number
  text: string
}

const CHUNK = 1 << 20

/** Batches of complete lines from `from` to the file's end (as large as it is when each chunk is read). */
export async function* tailLines(file: string, from: number): AsyncGenerator<TailLine[]> {
  const fh = await open(file, 'r')
  try {
    let pos = from
    let rest: Buffer = Buffer.alloc(0)
    let restStart = from
    const buf = Buffer.alloc(CHUNK)
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, pos)
      if (!bytesRead) return
      pos += bytesRead
      const bytes = rest.length ? Buffer.concat([rest, buf.subarray(0, bytesRead)]) : Buffer.from(buf.subarray(0, bytesRead))
      const lines: TailLine[] = []
      let at = 0
      for (let nl = bytes.indexOf(0x0a, at); nl !== -1; nl = bytes.indexOf(0x0a, at)) {
        if (nl > at) lines.push({ start: restStart + at, end: restStart + nl + 1, text: bytes.toString('utf8', at, nl) })
        at = nl + 1
      }
      rest = bytes.subarray(at)
      restStart += at
      if (lines.length) yield lines
    }
  } finally {
    await fh.close()
  }
}
