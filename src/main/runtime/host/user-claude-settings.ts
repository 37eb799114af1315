// Writes one key of the user's Claude Code settings (`~/.claude/settings.json`), as Claude Code's own /config
// does, keeping every other key as it is. A file that is not valid JSON is never overwritten.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../store/atomic-file'
import { errorMessage } from '../../../shared/error-message'

export const userSettingsFile = (home: string) => join(home, '.claude', 'settings.json')

/** Sets `worktree.baseRef` in the user's settings; throws a sentence naming the file when it cannot be read as JSON. */
export async function writeUserWorktreeBaseRef(home: string, value: 'head' | 'fresh'): Promise<void> {
  const file = userSettingsFile(home)
  let text: string | null = null
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file} could not be read: ${errorMessage(err)}`, { cause: err })
  }
  let json: Record<string, unknown> = {}
  if (text !== null && text.trim()) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (err) {
      throw new Error(`${file} is not valid JSON (${errorMessage(err)}); fix it before changing worktree.baseRef, so nothing in it is lost.`, { cause: err })
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error(`${file} must hold a JSON object; worktree.baseRef was not saved.`)
    json = parsed as Record<string, unknown>
  }
  const worktree =
    typeof json.worktree === 'object' && json.worktree !== null && !Array.isArray(json.worktree) ? (json.worktree as Record<string, unknown>) : {}
  json.worktree = { ...worktree, baseRef: value }
  await writeFileAtomic(file, JSON.stringify(json, null, 2) + '\n')
}
