// What one agent has read, so Write/Edit can insist on "read before you overwrite" and refuse to clobber
// a file that changed on disk (the user or another agent edited it) since this agent last looked.
import { createHash } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { readRegular } from '../security/open-beneath'

/** The most a Write/Edit/NotebookEdit reads of a file it is about to change (the Read tool's own limit). */
export const EDIT_MAX_FILE_BYTES = 50 * 1024 * 1024

export interface FileSnapshot {
  mtimeMs: number
  size: number
  /** sha256 of the bytes this agent saw. */
  hash: string
}

export function hashContent(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex')
}

export class FileState {
  private readonly files = new Map<string, FileSnapshot>()

  /** Records the bytes this agent has seen (after a Read, or after it wrote the file itself). */
  record(absPath: string, content: Buffer | string, mtimeMs: number): void {
    const size = typeof content === 'string' ? Buffer.byteLength(content) : content.length
    this.files.set(absPath, { mtimeMs, size, hash: hashContent(content) })
  }

  get(absPath: string): FileSnapshot | undefined {
    return this.files.get(absPath)
  }

  has(absPath: string): boolean {
    return this.files.has(absPath)
  }

  forget(absPath: string): void {
    this.files.delete(absPath)
  }

  /**
   * Null when the agent may overwrite the file; otherwise a message the model can act on.
   * A file that does not exist may always be created. A touched-but-identical file is fine: only content counts.
   */
  async checkWritable(absPath: string, displayName = absPath, real = absPath): Promise<string | null> {
    let current: { mtimeMs: number; size: number }
    try {
      current = await stat(real)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
    const seen = this.files.get(absPath)
    if (!seen) return `${displayName} already exists and has not been read yet. Read it first, then write or edit it.`
    if (current.mtimeMs === seen.mtimeMs && current.size === seen.size) return null
    // Read through the verified open: no FIFO blocks it, no swapped link redirects it, no huge file fills memory.
    const bytes = (await readRegular(real, displayName, EDIT_MAX_FILE_BYTES))?.bytes
    if (bytes && hashContent(bytes) === seen.hash) {
      this.files.set(absPath, { ...seen, mtimeMs: current.mtimeMs })
      return null
    }
    return `${displayName} has been modified on disk since you last read it (by the user or another process). Read it again before changing it, so those changes are not lost.`
  }
}
