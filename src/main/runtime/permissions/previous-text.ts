// An overwriting Write asks with the file's text as it is now, so the person approves the diff it makes
// rather than a whole new text with nothing to compare it to. Only what the agent could read in its own
// folder anyway is sent along: a regular text file inside the working directory (where it really leads),
// not a protected path (credentials, git's or an editor's configuration), at most PREVIOUS_TEXT_MAX bytes.
// Anything else asks as before, with the new text alone.
import { lstat, readFile, realpath } from 'node:fs/promises'
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { protectedReason } from '../security/protected-paths'
import { isInside } from '../tools/paths'

/** Larger files are approved on their new text alone: the request travels to the page and into the transcript. */
export const PREVIOUS_TEXT_MAX = 128 * 1024

/** The text a Write would replace, when it may be shown; undefined otherwise (a new file, or one it may not show). */
export async function previousTextOf(toolName: string, input: unknown, cwd: string, home = homedir()): Promise<string | undefined> {
  if (toolName !== 'Write' || !input || typeof input !== 'object') return undefined
  const path = (input as Record<string, unknown>).file_path
  if (typeof path !== 'string' || !path) return undefined
  try {
    const root = await realpath(cwd)
    const real = await realpath(resolve(cwd, path))
    if (!isInside(root, real) || protectedReason(real, { roots: [root], home })) return undefined
    const info = await lstat(real)
    if (!info.isFile() || info.size > PREVIOUS_TEXT_MAX) return undefined
    const bytes = await readFile(real)
    if (bytes.length > PREVIOUS_TEXT_MAX || bytes.includes(0)) return undefined
    return bytes.toString('utf8')
  } catch {
    return undefined // missing (a new file), unreadable, or gone meanwhile: nothing to compare with
  }
}
