// How the file tools touch a file without a race between the path check and the open. The path check
// (path-policy.ts) judges where a path really leads (`realTarget`); a process that swaps a folder for a link
// between that check and the open would otherwise send the open elsewhere. So every open here works on the
// real target the check approved, and proves it reached it:
// - the target's folder is opened as a directory fd, and what was opened is read back from the kernel
//   (`/proc/self/fd/N`): it must be exactly the approved folder, whatever links were swapped on the way;
// - the file itself is then named relative to that fd (`/proc/self/fd/N/name` resolves like openat(2)),
//   with O_NOFOLLOW, so a link swapped in for the last component is refused, not followed;
// - new folders are created one by one beneath a verified fd, each reopened (O_NOFOLLOW) and checked;
// - a write goes to a temp file in that folder and is renamed over the name, both through the fd.
// Where /proc/self/fd is missing (macOS), the same steps run on paths, with the folder's real path checked
// right before and the opened file's device and inode compared after: a swap in the window between is
// unlikely but not impossible there (docs/sandbox.md). Only regular files are read or replaced: a FIFO,
// socket or device is refused before it can block (opened with O_NONBLOCK, then fstat).
import { constants, existsSync, type Stats } from 'node:fs'
import { lstat, mkdir, open, readlink, realpath, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { writeFileAtomic } from '../store/atomic-file'
import { realTarget } from './real-target'

/** A refusal the model is shown as the tool's error (not a crash of the tool). */
export class FileRefusal extends Error {}

const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd')

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants

/** What an entry is, in words, when it is not a regular file. */
export function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory'
  if (info.isFIFO()) return 'a FIFO (named pipe)'
  if (info.isSocket()) return 'a socket'
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device'
  if (info.isSymbolicLink()) return 'a symbolic link'
  return 'not a regular file'
}

/** Where `abs` really leads, as the path check judged it; a refusal for a loop. */
export function plannedTarget(abs: string, shown: string): string {
  const real = realTarget(abs)
  if (real === null) throw new FileRefusal(`${shown} cannot be resolved (a symbolic link loop, or too many links).`)
  return real
}

const swapped = (shown: string): FileRefusal =>
  new FileRefusal(
    `${shown} changed while it was being opened (a folder or file on the way was replaced, e.g. by a symbolic link), so the call was refused. Nothing was read or written; try again once it is stable.`
  )

/** An open folder, verified to be `real`; `at(name)` names an entry in it for any fs call. */
export interface Dir {
  real: string
  at(name: string): string
}

async function openDirFd(path: string, follow: boolean): Promise<FileHandle> {
  return open(path, O_RDONLY | O_DIRECTORY | (follow ? 0 : O_NOFOLLOW))
}

/** The real path of what an fd holds open, from the kernel. */
async function fdPath(fh: FileHandle): Promise<string> {
  return readlink(`/proc/self/fd/${fh.fd}`)
}

/**
 * Runs `fn` with the folder `realDir` open and verified. With `create`, missing folders are made beneath the
 * nearest existing one, each verified in turn. ENOENT when the folder is missing and `create` is false.
 */
export async function withDir<T>(realDir: string, shown: string, create: boolean, fn: (dir: Dir) => Promise<T>): Promise<T> {
  if (!PROC_FD) return withDirByPath(realDir, shown, create, fn)
  // The nearest existing ancestor, then the missing tail created one name at a time under it.
  const missing: string[] = []
  let at = realDir
  let fh = await nearestDir()
  async function nearestDir(): Promise<FileHandle> {
    for (;;) {
      try {
        return await openDirFd(at, true)
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code !== 'ENOENT' || !create || dirname(at) === at) throw code === 'ELOOP' ? swapped(shown) : err
        missing.unshift(basename(at))
        at = dirname(at)
      }
    }
  }
  try {
    if ((await fdPath(fh)) !== at) throw swapped(shown)
    for (const name of missing) {
      const child = `/proc/self/fd/${fh.fd}/${name}`
      await mkdir(child).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err
      })
      let next: FileHandle
      try {
        next = await openDirFd(child, false)
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        throw code === 'ELOOP' ? swapped(shown) : err
      }
      await fh.close()
      fh = next
      at = join(at, name)
      if ((await fdPath(fh)) !== at) throw swapped(shown)
    }
    const fd = fh.fd
    return await fn({ real: realDir, at: (name) => `/proc/self/fd/${fd}/${name}` })
  } finally {
    await fh.close().catch(() => {})
  }
}

/** The portable fallback: the folder's real path is checked right before each use (see the header). */
async function withDirByPath<T>(realDir: string, shown: string, create: boolean, fn: (dir: Dir) => Promise<T>): Promise<T> {
  if (create) await mkdir(realDir, { recursive: true })
  const check = async (): Promise<void> => {
    if ((await realpath(realDir).catch(() => null)) !== realDir) throw swapped(shown)
  }
  await check()
  return fn({
    real: realDir,
    at: (name) => join(realDir, name)
  })
}

/** An open regular file at the approved real path `real`; a refusal for anything else. ENOENT when missing. */
export async function openRegular(real: string, shown: string): Promise<{ fh: FileHandle; info: Stats }> {
  return withDir(dirname(real), shown, false, async (dir) => {
    let fh: FileHandle
    try {
      fh = await open(dir.at(basename(real)), O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw swapped(shown)
      throw err
    }
    try {
      const info = await fh.stat()
      if (!info.isFile()) throw new FileRefusal(`${shown} is ${kindOf(info)}, not a regular file: it cannot be read or changed with the file tools.`)
      if (!PROC_FD) {
        // Open, then verify: the file opened must be the one at the approved path now.
        const now = await lstat(real).catch(() => null)
        if (!now || now.ino !== info.ino || now.dev !== info.dev || (await realpath(dirname(real)).catch(() => null)) !== dirname(real)) throw swapped(shown)
      }
      return { fh, info }
    } catch (err) {
      await fh.close()
      throw err
    }
  })
}

/** Reads at most `maxBytes` from an open file; `whole` is false when there was more. */
export async function readBounded(fh: FileHandle, maxBytes: number): Promise<{ bytes: Buffer; whole: boolean }> {
  const chunks: Buffer[] = []
  let total = 0
  for (;;) {
    const want = Math.min(64 * 1024, maxBytes + 1 - total)
    if (want <= 0) break
    const buf = Buffer.allocUnsafe(want)
    const { bytesRead } = await fh.read(buf, 0, want, null)
    if (bytesRead === 0) break
    chunks.push(buf.subarray(0, bytesRead))
    total += bytesRead
  }
  const bytes = Buffer.concat(chunks)
  return bytes.length > maxBytes ? { bytes: bytes.subarray(0, maxBytes), whole: false } : { bytes, whole: true }
}

/** The bytes of the regular file at `real` (null when missing), refusing one larger than `maxBytes`. */
export async function readRegular(real: string, shown: string, maxBytes: number): Promise<{ bytes: Buffer; info: Stats } | null> {
  let opened
  try {
    opened = await openRegular(real, shown)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
  const { fh, info } = opened
  try {
    if (info.size > maxBytes) throw tooLarge(shown, info.size, maxBytes)
    const { bytes, whole } = await readBounded(fh, maxBytes)
    if (!whole) throw tooLarge(shown, undefined, maxBytes)
    return { bytes, info }
  } finally {
    await fh.close()
  }
}

const mb = (n: number): string => `${(n / 1048576).toFixed(1)} MB`
const tooLarge = (shown: string, size: number | undefined, max: number): FileRefusal =>
  new FileRefusal(
    `${shown} is ${size === undefined ? 'growing past' : mb(size) + ','} more than ${mb(max)}: too large for the file tools. Use Grep, or Bash (head, sed -n), on parts of it.`
  )

/**
 * Replaces (or creates) the regular file at `real` with `data`, all through a verified folder fd: a temp file
 * beside it (created exclusively), fsynced, renamed over the name, the folder fsynced. A write that fails (a
 * full disk, an I/O error) leaves the old file byte for byte and no temp file. The old file's mode is kept.
 * `inPlace` writes into the existing file instead (a Bash-sandbox placeholder, which is a mount point).
 */
export async function replaceRegular(real: string, shown: string, data: string, opts: { inPlace?: boolean } = {}): Promise<Stats> {
  return withDir(dirname(real), shown, true, async (dir) => {
    const target = dir.at(basename(real))
    const old = await lstat(target).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null
      throw err
    })
    if (old && !old.isFile()) throw new FileRefusal(`${shown} is ${kindOf(old)}, not a regular file: the file tools do not replace it.`)
    if (opts.inPlace && old) {
      const fh = await open(target, constants.O_WRONLY | constants.O_TRUNC | O_NOFOLLOW | O_NONBLOCK)
      try {
        await fh.writeFile(data)
        await fh.sync()
      } finally {
        await fh.close()
      }
    } else {
      await writeFileAtomic(target, data, { mode: old ? old.mode & 0o7777 : 0o644, keepMode: old !== null, fsyncDir: true })
    }
    const now = await lstat(target)
    if (!PROC_FD && (await realpath(dirname(real)).catch(() => null)) !== dirname(real)) throw swapped(shown)
    return now
  })
}
