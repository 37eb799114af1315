// Whole-file writes that a crash or a failed write (a full disk, an I/O error) can never leave half-written:
// write a temp file next to the target (created exclusively, so no file or link already there is followed),
// fsync it, then rename over the target (atomic on POSIX; on Windows rename replaces too, but can fail
// briefly with EPERM/EBUSY while another process has the file open, so it is retried). The one atomic write:
// Fanout's own state, the file tools (through security/open-beneath.ts, which hands it a path resolved
// through a verified folder fd), git files Fanout rewrites in a worktree's admin folder (HEAD, its metadata),
// a stale session lock's replacement, and, synchronously, the CLI's code cache and the window's bounds.
import { randomHex } from '../random-hex'
import { closeSync, fsync, fsyncSync, mkdirSync, openSync, rename as renameCallback, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs'
import { link, mkdir, open, readFile, unlink, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { hostname } from 'node:os'
import { errorMessage } from '../../../shared/error-message'
import { processState } from './process-identity'

export interface AtomicWriteOptions {
  /** File mode of the new file, e.g. 0o600 for secrets. */
  mode?: number
  /** fsync before rename (default true): without it a power loss can leave an empty file after the rename. */
  fsync?: boolean
  /** Set `mode` exactly (chmod after create, so the umask does not narrow it): keeping a replaced file's mode. */
  keepMode?: boolean
  /** Also fsync the folder after the rename, so the new name itself survives a power loss (users' files). */
  fsyncDir?: boolean
  /** Create a missing folder (default true); false: a missing folder fails the write, nothing is made. */
  createDir?: boolean
  /** Temps made ahead in the file's folder (temps-ahead.ts): one is used when ready, for files of the default mode. */
  ahead?: MadeAhead
  /**
   * Whether the temp this write takes from `ahead` is replaced by a new one (default true). False for a write
   * no other is expected to follow soon (the session's last run has ended): making a temp is an open(2) with
   * O_CREAT|O_EXCL through the thread pool, and on two cores its cost lands on the calling thread.
   */
  refill?: boolean
}

/** An empty temp file made ahead, open for writing. */
export interface TempFile {
  path: string
  fd: number
}

/** Where writeFileAtomic takes a temp made ahead from (temps-ahead.ts). */
export interface MadeAhead {
  readonly dir: string
  /** A temp ready in `dir`, or null when none is; `refill` false: no other is made to replace it. */
  take(refill?: boolean): TempFile | null
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function writeFileAtomic(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const made = opts.ahead && opts.mode === undefined && opts.ahead.dir === dirname(file) ? opts.ahead.take(opts.refill !== false) : null
  if (made) {
    try {
      return await writeIntoMade(made, file, data, opts)
    } catch {
      // The usual write below: it makes its own temp (and the folder, if that was the trouble) and reports what still fails.
    }
  }
  const temp = tempBeside(file)
  // The folder nearly always exists: create it only when the write says it is missing.
  const write = async (): Promise<void> => {
    const fh = await open(temp, 'wx', opts.mode ?? 0o644)
    try {
      await fh.writeFile(data)
      if (opts.keepMode && opts.mode !== undefined) await fh.chmod(opts.mode)
      if (opts.fsync !== false) await fh.sync()
    } finally {
      await fh.close()
    }
  }
  try {
    try {
      await write()
    } catch (err) {
      if (errorCode(err) !== 'ENOENT' || opts.createDir === false) throw err
      await mkdir(dirname(file), { recursive: true })
      await write()
    }
    await renameWithRetry(temp, file)
    if (opts.fsyncDir) await syncDir(dirname(file))
  } catch (err) {
    // A write cut short (a full disk) or a rename refused leaves no temp file behind.
    await unlink(temp).catch(() => {})
    throw err
  }
}

/** writeFileAtomic through a temp made ahead: written and closed on the calling thread, then renamed. */
async function writeIntoMade(made: TempFile, file: string, data: string | Uint8Array, opts: AtomicWriteOptions): Promise<void> {
  try {
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data
      for (let at = 0; at < bytes.length; ) at += writeSync(made.fd, bytes, at, bytes.length - at)
      if (opts.fsync !== false) await new Promise<void>((resolve, reject) => fsync(made.fd, (err) => (err ? reject(err) : resolve())))
    } finally {
      closeSync(made.fd)
    }
    await renameWithRetry(made.path, file)
  } catch (err) {
    await unlink(made.path).catch(() => {})
    throw err
  }
  if (opts.fsyncDir) await syncDir(dirname(file))
}

// Hidden, and named after its target, so watchers and listings pass over it for the moment it exists; the
// writer's pid in the name tells the temp file of a write a kill cut off (its writer gone) from one in flight.
const tempBeside = (file: string) => join(dirname(file), `.${basename(file)}.${process.pid}.${randomHex(4)}.tmp`)
const TEMP_NAME = /^\..+\.([1-9]\d{0,9})\.[0-9a-f]{8}\.tmp$/

/** The pid of the process whose atomic write made the temp file named `name` (a file name, no folder), or null when it is not one. */
export function atomicTempWriter(name: string): number | null {
  const m = TEMP_NAME.exec(name)
  return m ? Number(m[1]) : null
}

/** Whether `name` is the temp file of an atomic write a kill cut off: its writing process (on this host) is gone. */
export function deadWriterTemp(name: string): boolean {
  const pid = atomicTempWriter(name)
  return pid !== null && processState({ pid, hostname: hostname() }) === 'gone'
}

/**
 * writeFileAtomic for the few writers that must not wait (a process about to exit): the same steps, except
 * that a refused rename is not retried (Windows) and the folder is not fsynced.
 */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, opts: Omit<AtomicWriteOptions, 'fsyncDir' | 'keepMode'> = {}): void {
  const temp = tempBeside(file)
  const write = () => {
    const fd = openSync(temp, 'wx', opts.mode ?? 0o644)
    try {
      writeFileSync(fd, data)
      if (opts.fsync !== false) fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  }
  try {
    try {
      write()
    } catch (err) {
      if (errorCode(err) !== 'ENOENT' || opts.createDir === false) throw err
      mkdirSync(dirname(file), { recursive: true })
      write()
    }
    renameSync(temp, file)
  } catch (err) {
    try {
      unlinkSync(temp)
    } catch {}
    throw err
  }
}

/**
 * fsync of a file written before without one (writeFileAtomic with `fsync: false`): what it holds now survives a
 * power loss from here on. A file that is gone (its session deleted) has nothing to keep.
 */
export async function syncFile(file: string): Promise<void> {
  let fh
  try {
    fh = await open(file, 'r')
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return
    throw err
  }
  try {
    await fh.sync()
  } finally {
    await fh.close()
  }
}

/** fsync of a folder (its entries); a no-op where folders cannot be opened for it (Windows). */
async function syncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return
  const fh = await open(dir, 'r')
  try {
    // The rename has happened: a file system that cannot sync folders (EINVAL) does not make it a failure.
    await fh.sync().catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EINVAL' && err.code !== 'ENOTSUP') throw err
    })
  } finally {
    await fh.close()
  }
}

/**
 * rename(2) through the callback API: the same request on libuv's threads, but the promise API's first call in a
 * process cost ~0.3 ms of the calling thread against ~0.08 (its machinery is set up lazily), and every state a run
 * ends with is renamed into place on the way to the next request or to `fanout run`'s answer.
 */
const renameNow = (from: string, to: string) => new Promise<void>((resolve, reject) => renameCallback(from, to, (err) => (err ? reject(err) : resolve())))

async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await renameNow(from, to)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (attempt >= 5 || !(code === 'EPERM' || code === 'EACCES' || code === 'EBUSY')) throw err
      await sleep(10 * 2 ** attempt)
    }
  }
}

export const writeJsonAtomic = (file: string, value: unknown, opts?: AtomicWriteOptions): Promise<void> =>
  writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n', opts)

/** Reads and parses a JSON file; null when it does not exist; a clear error naming the file otherwise. */
export async function readJsonFile(file: string): Promise<unknown | null> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${errorMessage(err)}`, { cause: err })
  }
}

export function errorCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code
}

/**
 * Creates `file` with `content` whole, in one step, only if no file has that name: written to a temp file
 * beside it, then link(2)ed, which fails when the name exists. Of processes racing for one name exactly one
 * wins (true); the others get false. Readers never see it half-written.
 */
export async function createExclusive(file: string, content: string, opts: { mode?: number } = {}): Promise<boolean> {
  const temp = join(dirname(file), `.${basename(file)}.${randomHex(6)}.tmp`)
  await writeFile(temp, content, { mode: opts.mode ?? 0o644 })
  try {
    await link(temp, file)
    return true
  } catch (err) {
    if (errorCode(err) === 'EEXIST') return false
    throw err
  } finally {
    await unlink(temp).catch(() => {})
  }
}
