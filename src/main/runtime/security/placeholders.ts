// What every reader of a project asks before it treats a path as a person's file: is it one of the Bash
// sandbox's placeholders (an empty file or folder that only exists while a sandboxed command runs, or that a
// crashed Fanout left)? Commits, review listings, settings/MCP/agent loading, the folder watch and the file
// tools skip them or say what they are. See sandbox/mount-points.ts.
import { chmodSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { mountPoints, type PlaceholderInfo } from './sandbox/mount-points'

export type { PlaceholderInfo }

/** The placeholder at `path`, or null when what is there (if anything) is a real file or folder. */
export const placeholderAt = (path: string): PlaceholderInfo | null => mountPoints.placeholderAt(path)

/** `path` is a placeholder (not a person's file). */
export function isPlaceholder(path: string): boolean {
  return mountPoints.placeholderAt(path) !== null
}

/** The placeholders under `root` (absolute paths). */
export const placeholdersUnder = (root: string): string[] => mountPoints.placeholdersUnder(root)

/** A placeholder file standing where a folder on the way to `path` would have to be made. */
export const placeholderOnTheWay = (path: string): PlaceholderInfo | null => mountPoints.placeholderOnTheWay(path)

/**
 * Makes the placeholder file at `path` (if that is what is there) an ordinary file about to be written:
 * writable, as a new file would be. From then on it is no placeholder: nothing removes or hides it.
 */
export function claimPlaceholder(path: string): void {
  if (placeholderAt(path)?.kind === 'file') chmodSync(path, 0o644)
}

/** What to tell a person or model who wanted to use a path a placeholder holds. */
export function heldMessage(info: PlaceholderInfo, shown: string): string {
  return `${shown} is held by ${info.holder}: the Bash sandbox keeps that command from creating it, so an empty placeholder stands there until the command ends. Try again then.`
}

/**
 * Git pathspecs for "the whole work tree at `root` except the placeholders" (`-- . :(exclude,literal)…`),
 * or an empty list when there are none. Placeholders inside `.git` are not in the work tree and are left out.
 */
export function pathspecWithoutPlaceholders(root: string): string[] {
  const gitDir = join(root, '.git')
  const rels = placeholdersUnder(root)
    .filter((p) => p !== gitDir && !p.startsWith(gitDir + sep))
    .map((p) => relative(root, p).split(sep).join('/'))
    .filter((r) => r && !r.startsWith('..'))
  return rels.length ? ['--', '.', ...rels.map((r) => `:(exclude,literal)${r}`)] : []
}
