// Both sides of one changed file, for the diff viewer: the text at the merge base and on the agent's branch
// (or in its worktree, for changes not committed yet). Binary and very large files are said, not sent.
import { lstat, readlink, realpath } from 'node:fs/promises'
import { isAbsolute, join, normalize, sep } from 'node:path'
import type { ChangedFile, FileDiff } from '../../../shared/review'
import { FileRefusal, openRegular, readBounded } from '../security/open-beneath'
import { runGitResult, tryGit } from '../worktrees/git'
import { ReviewError } from './review-error'

/** The viewer's limit per side; the CLI's `worktrees diff` prints any size. */
export const MAX_VIEW_BYTES = 1024 * 1024

/** A path from a request: relative, inside the repository, no `..` (checked again against the change list by the caller). */
export function safeRelativePath(path: string): boolean {
  if (!path || path.includes('\0') || isAbsolute(path) || /^[A-Za-z]:/.test(path)) return false
  const n = normalize(path)
  return n !== '..' && !n.startsWith(`..${sep}`) && !n.split(/[\\/]/).includes('..')
}

interface Side {
  text: string | null
  binary: boolean
  size: number
  tooLarge: boolean
}

const ABSENT: Side = { text: null, binary: false, size: 0, tooLarge: false }

function fromBuffer(buf: Buffer, size: number): Side {
  if (size > MAX_VIEW_BYTES) return { text: null, binary: false, size, tooLarge: true }
  if (buf.subarray(0, 8000).includes(0)) return { text: null, binary: true, size, tooLarge: false }
  return { text: buf.toString('utf8'), binary: false, size, tooLarge: false }
}

async function catBlob(dir: string, spec: string): Promise<Buffer> {
  return (await runGitResult(dir, ['cat-file', 'blob', spec], { maxBuffer: MAX_VIEW_BYTES + 1024 })).stdout
}

/** The file in commit `rev`, or ABSENT when it is not there. */
export async function blobSide(dir: string, rev: string, path: string): Promise<Side> {
  const spec = `${rev}:${path}`
  const size = Number(await tryGit(dir, ['cat-file', '-s', spec]))
  if (!Number.isFinite(size) || (await tryGit(dir, ['cat-file', '-t', spec])) !== 'blob') return ABSENT
  if (size > MAX_VIEW_BYTES) return { text: null, binary: false, size, tooLarge: true }
  return fromBuffer(await catBlob(dir, spec), size)
}

/**
 * The file as it is in a worktree folder now (a symbolic link shows as its target, as git stores it). The agent
 * can change the folder while we look, so the file is opened once (non-blocking, no link followed, beneath the
 * verified folder: security/open-beneath.ts) and judged on what was opened: a pipe, socket or device swapped in
 * is refused, not waited on, and a file that grew past the limit is read only up to it.
 */
export async function diskSide(root: string, path: string): Promise<Side> {
  const file = join(await realpath(root), path)
  const info = await lstat(file).catch(() => null)
  if (!info) return ABSENT
  if (info.isSymbolicLink()) {
    const target = await readlink(file)
    return { text: target, binary: false, size: target.length, tooLarge: false }
  }
  let opened
  try {
    opened = await openRegular(file, path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ABSENT
    if (err instanceof FileRefusal)
      throw new ReviewError('unsupported', `${path} cannot be shown: ${err.message.replace(/: it cannot be read or changed with the file tools\.$/, '.')}`)
    throw err
  }
  const { fh, info: opens } = opened
  try {
    if (opens.size > MAX_VIEW_BYTES) return { text: null, binary: false, size: opens.size, tooLarge: true }
    const { bytes, whole } = await readBounded(fh, MAX_VIEW_BYTES)
    return whole ? fromBuffer(bytes, bytes.length) : { text: null, binary: false, size: MAX_VIEW_BYTES + 1, tooLarge: true }
  } finally {
    await fh.close()
  }
}

export function fileDiff(file: ChangedFile, before: Side, after: Side): FileDiff {
  return {
    path: file.path,
    ...(file.oldPath ? { oldPath: file.oldPath } : {}),
    oldText: before.text,
    newText: after.text,
    binary: file.binary || before.binary || after.binary,
    tooLarge: before.tooLarge || after.tooLarge,
    oldSize: before.size,
    newSize: after.size
  }
}
