// An append-only JSONL log that many writers share (agents of this process, or another process on the same
// session folder). Each record is one O_APPEND write of a whole line, which the OS never interleaves with
// another writer's, so the file's order is the one order every reader sees. A reader keeps its offset and
// reads only what is new, up to the last complete line: a line still being written is left for later, and
// a torn line a crashed writer left behind is skipped (the leading newline of the next record isolates it).
import { appendFile, mkdir, open } from 'node:fs/promises'
import { dirname } from 'node:path'
import { errorCode } from '../../store/atomic-file'

export class OpLog<T> {
  private offset = 0

  constructor(
    readonly file: string,
    private readonly onProblem: (message: string) => void = () => undefined
  ) {}

  /** Appends one record; durable once the promise resolves. */
  async append(record: T): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true })
    await appendFile(this.file, '\n' + JSON.stringify(record) + '\n', { encoding: 'utf8', flush: true })
  }

  /** Records appended (by anyone) since the last call, in file order. */
  async readNew(): Promise<T[]> {
    let handle
    try {
      handle = await open(this.file, 'r')
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return []
      throw err
    }
    let text: string
    try {
      const { size } = await handle.stat()
      if (size <= this.offset) return []
      const buf = Buffer.alloc(size - this.offset)
      let got = 0
      while (got < buf.length) {
        const { bytesRead } = await handle.read(buf, got, buf.length - got, this.offset + got)
        if (!bytesRead) break
        got += bytesRead
      }
      const last = buf.lastIndexOf(0x0a, got - 1)
      if (last < 0) return []
      this.offset += last + 1
      text = buf.toString('utf8', 0, last + 1)
    } finally {
      await handle.close()
    }
    const out: T[] = []
    for (const line of text.split('\n')) {
      if (!line.trim()) continue
      try {
        out.push(JSON.parse(line) as T)
      } catch {
        this.onProblem(`${this.file}: skipped a line that is not a record (left by an interrupted write?): ${line.slice(0, 80)}`)
      }
    }
    return out
  }
}
