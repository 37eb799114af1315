// Temp files made ahead in one folder, for the atomic writes of Fanout's own state there (agents' state.json,
// the session index). Creating a file is the slow half of an atomic write on the disks measured here (open
// with O_CREAT|O_EXCL took 0.25-0.45 ms, the rename 0.25 ms), and through the thread pool the four steps of a
// write (open, write, close, rename) each wait for a wake-up of the main thread: the main agent's end state
// took 3-4 ms to land while the run's end went on, and `fanout run`'s answer waited for it. With a temp made
// ahead, the write is one write(2) and close(2) on the calling thread (a few microseconds into the page cache)
// and one rename through the pool.
//
// A temp is named as writeFileAtomic names its own (`.<name>.<pid>.<random>.tmp`): a kill leaves at most
// `keep` of them, which the next process that makes temps in that folder removes (their writer is gone).
import { randomHex } from '../random-hex'
import { closeSync, open as openCb } from 'node:fs'
import { readdir, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { deadWriterTemp, type MadeAhead, type TempFile } from './atomic-file'

const openExclusive = (path: string): Promise<number> =>
  new Promise((resolve, reject) => openCb(path, 'wx', 0o644, (err, fd) => (err ? reject(err) : resolve(fd))))

export class TempsAhead implements MadeAhead {
  private readonly ready: TempFile[] = []
  private filling: Promise<void> | null = null
  private disposed = false
  private swept = false

  constructor(
    readonly dir: string,
    private readonly keep = 2
  ) {}

  /**
   * A temp made ahead (its fd open for writing, empty), or null when none is ready; making the next begins,
   * unless `refill` is false (no write is expected soon: the next one that comes makes its own temp).
   */
  take(refill = true): TempFile | null {
    const temp = this.ready.shift() ?? null
    if (refill) this.fill()
    return temp
  }

  /** Begins making temps (in the background) until `keep` are ready; a failure only means none is ready. */
  fill(): void {
    if (this.filling || this.disposed || this.ready.length >= this.keep) return
    this.filling = this.make()
      .catch(() => undefined)
      .finally(() => {
        this.filling = null
      })
  }

  private async make(): Promise<void> {
    if (!this.swept) {
      this.swept = true
      await this.sweep()
    }
    while (!this.disposed && this.ready.length < this.keep) {
      const path = join(this.dir, `.ahead.${process.pid}.${randomHex(4)}.tmp`)
      const fd = await openExclusive(path)
      if (this.disposed) {
        closeSync(fd)
        await unlink(path).catch(() => undefined)
        return
      }
      this.ready.push({ path, fd })
    }
  }

  /** Temps of writers a kill cut off (their process gone), in this folder. */
  private async sweep(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[])
    await Promise.all(names.filter((n) => deadWriterTemp(n)).map((n) => unlink(join(this.dir, n)).catch(() => undefined)))
  }

  /** No more temps: those made and not used are closed and removed. */
  async dispose(): Promise<void> {
    this.disposed = true
    await this.filling
    const left = this.ready.splice(0)
    for (const t of left) {
      try {
        closeSync(t.fd)
      } catch {}
    }
    await Promise.all(left.map((t) => unlink(t.path).catch(() => undefined)))
  }
}
