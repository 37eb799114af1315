// Whole-file writes that a crash can never leave half-written: write a temp file next to the target,
// fsync it, then rename over the target (atomic on POSIX; on Windows rename replaces too, but can fail
// briefly with EPERM/EBUSY while another process has the file open, so it is retried).
import { randomBytes } from 'node:crypto'
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { errorMessage } from '../../../shared/error-message'

export interface AtomicWriteOptions {
  /** File mode of the new file, e.g. 0o600 for secrets. */
  mode?: number
  /** fsync before rename (default true): without it a power loss can leave an empty file after the rename. */
  fsync?: boolean
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function writeFileAtomic(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  // The folder nearly always exists: create it only when the write says it is missing.
  const write = () => writeFile(temp, data, { mode: opts.mode ?? 0o644, flush: opts.fsync !== false })
  try {
    try {
      await write()
    } catch (err) {
      if (errorCode(err) !== 'ENOENT') throw err
      await mkdir(dirname(file), { recursive: true })
      await write()
    }
    await renameWithRetry(temp, file)
  } catch (err) {
    // A write cut short (a full disk) or a rename refused leaves no temp file behind.
    await unlink(temp).catch(() => {})
    throw err
  }
}

async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await rename(from, to)
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
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
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
