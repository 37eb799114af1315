// What the prompt box offers as the person types: `/` commands (the app's own and the folder's skills) and
// `@` files. Files are listed the way Glob lists them — the same walk (tools/list-files.ts: .gitignore
// honoured, .git left out, links not followed) and the same path check (security/path-policy.ts: what the
// folder's Read deny rules protect, and what a link leads to outside, is not offered).
import { realpath } from 'node:fs/promises'
import { join } from 'node:path'
import { FOLDER_FILES_MAX } from '../../../shared/folder-contract'
import { BUILTIN_COMMANDS, type CommandInfo } from '../../../shared/prompt-commands'
import { discoverSkills } from '../context/skill-index'
import { loadPermissionSettings } from '../permissions'
import { PathPolicy } from '../security/path-policy'
import { listFiles } from '../tools/list-files'
import { findRipgrep } from '../tools/ripgrep'

export async function folderCommands(cwd: string, home: string): Promise<CommandInfo[]> {
  const skills = await discoverSkills({ cwd, home })
  return [
    ...BUILTIN_COMMANDS,
    ...skills.map((s) => ({
      name: s.name,
      description: s.description,
      ...(s.argumentHint ? { argumentHint: s.argumentHint } : {}),
      source: s.scope
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
