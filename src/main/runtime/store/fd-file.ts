// An fd opened with openSync, given the few FileHandle methods a JSONL writer uses: the writer opens a new
// agent's transcript on the calling thread (jsonl-writer.ts, `openNow`), where a FileHandle can only be had
// through the thread pool.
import { closeSync, ftruncate, write as writeFd } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'

/** What a JSONL writer does with an open file: a FileHandle, or an FdFile. */
export type AppendFile = Pick<FileHandle, 'fd' | 'truncate' | 'appendFile' | 'close'>

const settle = (resolve: () => void, reject: (err: Error) => void) => (err: Error | null) => (err ? reject(err) : resolve())

/**
 * A file opened for appending with openSync: truncate and append through its fd, off the calling thread; closed on
 * it. A close of a file written through the page cache takes microseconds, while handing it to libuv's threads
 * cost the calling thread more than that (a sleeping pool thread woken), and each agent's transcript is let go as
 * it ends, on the way to its parent's next request.
 */
export class FdFile implements AppendFile {
  constructor(readonly fd: number) {}

  truncate(len?: number): Promise<void> {
    return new Promise((resolve, reject) => ftruncate(this.fd, len ?? 0, settle(resolve, reject)))
  }

  async appendFile(data: string | Uint8Array): Promise<void> {
    const buf = typeof data === 'string' ? Buffer.from(data) : data
    for (let at = 0; at < buf.length; )
      at += await new Promise<number>((resolve, reject) => writeFd(this.fd, buf, at, buf.length - at, null, (err, n) => (err ? reject(err) : resolve(n))))
  }

  async close(): Promise<void> {
    closeSync(this.fd)
  }
}
