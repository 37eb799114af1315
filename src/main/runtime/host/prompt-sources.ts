// What the prompt box offers as the person types: `/` commands (the app's own, command files, plugins', skills) and
// `@` files. Files are listed the way Glob lists them — the same walk (tools/list-files.ts: .gitignore
// honoured, .git left out, links not followed) and the same path check (security/path-policy.ts: what the
// folder's Read deny rules protect, and what a link leads to outside, is not offered).
import { realpath } from 'node:fs/promises'
import { join } from 'node:path'
import { FOLDER_FILES_MAX } from '../../../shared/folder-contract'
import { BUILTIN_COMMANDS, type CommandInfo } from '../../../shared/prompt-commands'
import { loadFolderCommands } from '../commands'
import { loadPermissionSettings } from '../permissions'
import { PathPolicy } from '../security/path-policy'
import { listFiles } from '../tools/list-files'
import { findRipgrep } from '../tools/ripgrep'

/**
 * The `/` menu: the commands the app acts on itself, then what a typed `/name` resolves to — command files,
 * enabled plugins' commands and skills — resolved as a sent prompt is (commands/folder-commands.ts).
 */
export async function folderCommands(cwd: string, home: string): Promise<CommandInfo[]> {
  // `/compact` is the page's before anything else; the other built-ins give way to a command file of their name, as
  // a sent prompt does (commands/resolve.ts), so the menu lists what would run.
  const loaded = (await loadFolderCommands(cwd, home)).filter((c) => c.name !== 'compact' && c.source !== 'built-in')
  const shadowed = new Set(loaded.map((c) => c.name))
  return [
    ...BUILTIN_COMMANDS.filter((b) => b.name === 'compact' || !shadowed.has(b.name)),
    ...loaded.map((c) => ({
      name: c.name,
      description: c.description,
      ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}),
      source: c.source === 'skill' ? (c.skillScope ?? 'project') : (c.source as Exclude<typeof c.source, 'skill' | 'built-in'>)
    }))
  ]
}

export async function folderFiles(cwd: string, home: string): Promise<{ files: string[]; complete: boolean }> {
  const root = await realpath(cwd)
  const rules = loadPermissionSettings({ cwd, home }).rules
  const policy = new PathPolicy({ cwd, rules: () => rules, home })
  const visible = policy.searchFilter(cwd, 'Read')
  const { files } = await listFiles(root, findRipgrep())
  const shown: string[] = []
  for (const rel of files) {
    if (shown.length >= FOLDER_FILES_MAX) return { files: shown.sort(), complete: false }
    if (visible(join(cwd, rel))) shown.push(rel)
  }
  return { files: shown.sort(), complete: true }
}
