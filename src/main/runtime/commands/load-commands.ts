// Every command a person can type after `/`, found as Claude Code finds them: `~/.claude/commands`, then
// `.claude/commands/**/*.md` in the working folder and each folder above it up to the repository root (nearest first),
// folders a caller adds (a plugin's `commands/`, named `namespace:name`), then the skills (a skill is a command
// too: `/skill-name args`). A subfolder names its commands `folder:name` (`frontend/component.md` is
// `/frontend:component`). The first one found under a name wins.
import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { firstByName } from '../context/first-by-name'
import { leadsOutside, projectFolders } from '../context/project-root'
import { discoverSkills, type SkillEntry } from '../context/skill-index'
import { readCommandFile, type CommandDefinition, type CommandSource } from './command-file'

/** A folder of command files another feature brings (a plugin's `commands/`): its commands are `namespace:name`. */
export interface CommandFolder {
  dir: string
  namespace?: string
  source?: CommandSource
  /** Only this file of `dir` (a plugin manifest that names one command file). */
  file?: string
  /** The folder brought it (a project's plugin): its `allowed-tools` count only once the folder is trusted. */
  folderBrought?: boolean
}

export interface LoadCommandsOptions {
  cwd: string
  home: string
  extraFolders?: readonly CommandFolder[]
  /** Plugin folders whose skills are listed as `plugin:skill` (context/skill-index.ts). */
  pluginDirs?: ReadonlyArray<{ name: string; dir: string }>
  /** The skills as already found (else found here, with `pluginDirs`'). */
  skills?: readonly SkillEntry[]
}

/** Bounds on what a hostile tree can make the loader walk. */
const MAX_DEPTH = 6
const MAX_FILES = 2000
const NAME_PART = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch {
    return []
  }
}

/** The command files under `dir`: [name parts, path], subfolders depth first, at most MAX_FILES. */
async function commandFiles(dir: string, parts: string[] = [], found: Array<[string[], string]> = []): Promise<Array<[string[], string]>> {
  if (parts.length > MAX_DEPTH) return found
  for (const e of await entries(dir)) {
    if (found.length >= MAX_FILES) break
    const path = join(dir, e.name)
    if (e.isDirectory()) {
      if (NAME_PART.test(e.name)) await commandFiles(path, [...parts, e.name], found)
    } else if ((e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.md')) {
      const base = e.name.slice(0, -3)
      if (NAME_PART.test(base)) found.push([[...parts, base], path])
    }
  }
  return found
}

/** Every command, first found wins: the user's, the project's (nearest folder first), the extra folders', then skills. */
export async function loadCommands(opts: LoadCommandsOptions): Promise<CommandDefinition[]> {
  const { list: out, add } = firstByName<CommandDefinition>()
  // The user's own first: Claude Code 2.1 runs `~/.claude/commands/x.md` when the project has an `x.md` too.
  const roots: Array<{ dir: string; source: CommandSource; prefix: string; within?: string; file?: string; folderBrought?: boolean }> = [
    { dir: join(opts.home, '.claude', 'commands'), source: 'user', prefix: '' },
    ...(await projectFolders(opts.cwd)).map((d) => ({ dir: join(d, '.claude', 'commands'), source: 'project' as const, prefix: '', within: d })),
    ...(opts.extraFolders ?? []).map((f) => ({
      dir: f.dir,
      source: f.source ?? ('plugin' as const),
      prefix: f.namespace ? `${f.namespace}:` : '',
      within: f.dir,
      ...(f.file ? { file: f.file } : {}),
      ...(f.folderBrought ? { folderBrought: true } : {})
    }))
  ]
  for (const root of roots)
    for (const [parts, path] of await commandFiles(root.dir)) {
      if (root.file && path !== root.file) continue
      // A repository's command file that is a link out of it would send that file to the model: not offered.
      if (root.within && (await leadsOutside(path, root.within))) continue
      const c = readCommandFile(path, `${root.prefix}${parts.join(':')}`, root.source)
      add(c && root.folderBrought ? { ...c, folderBrought: true } : c)
    }
  const skills = opts.skills ?? (await discoverSkills({ cwd: opts.cwd, home: opts.home, ...(opts.pluginDirs ? { pluginDirs: opts.pluginDirs } : {}) }))
  for (const skill of skills) {
    const c = readCommandFile(skill.path, skill.name, 'skill')
    // `user-invocable: false`: a skill only the model calls is no command.
    if (!c || !c.userInvocable) continue
    add({ ...c, description: skill.description || c.description, skillDir: skill.dir, skillScope: skill.scope })
  }
  return out
}
