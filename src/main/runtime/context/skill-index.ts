// Every skill a session can use, as Claude Code finds them: `.claude/skills/<name>/SKILL.md` in the working
// folder and each folder above it up to the repository root (nearest first), `~/.claude/skills/<name>/SKILL.md`,
// and each plugin's `skills/<name>/SKILL.md` (named `plugin:name`). A name found in several places is the
// first one found (project over user); plugin skills are namespaced and never collide. The Skill tool lists
// and loads from this index; `agents check` and the run use it to warn about `skills:` that name nothing.
import { readdir, realpath } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { meantName } from '../definitions/spelling'
import { readConfigFile } from '../store/read-config'
import { firstByName } from './first-by-name'
import { leadsOutside, projectFolders } from './project-root'
import { parseFrontmatter } from './skill-frontmatter'

export interface SkillEntry {
  /** What the Skill tool and `skills:` call it: the folder name, or `plugin:folder` for a plugin's. */
  name: string
  description: string
  scope: 'project' | 'user' | 'plugin'
  /** Real path of SKILL.md. */
  path: string
  dir: string
  /** false when its frontmatter says `disable-model-invocation: true`: only a person may call it, not the Skill tool. */
  modelInvocable: boolean
  /** Its frontmatter's `argument-hint`: what a person types after `/name`. */
  argumentHint?: string
  /** A command file (`.claude/commands/*.md`) offered beside the skills, as Claude Code's Skill tool offers them: `path` is the file. */
  command?: { argumentNames: string[] }
}

export interface SkillIndexOptions {
  cwd: string
  home: string
  pluginDirs?: ReadonlyArray<{ name: string; dir: string }>
}

const SKILL_FOLDER = /^[A-Za-z0-9][A-Za-z0-9._-]*$/
/** Longer descriptions are cut in listings (the whole SKILL.md loads when the skill is called). */
const MAX_LISTED_DESCRIPTION = 500

async function folders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && SKILL_FOLDER.test(e.name))
      .map((e) => e.name)
      .sort()
  } catch {
    return []
  }
}

async function entry(skillsDir: string, folder: string, name: string, scope: SkillEntry['scope'], within?: string): Promise<SkillEntry | null> {
  try {
    const path = await realpath(join(skillsDir, folder, 'SKILL.md'))
    // A project's skill is sent to the model when called: one that is a link to a file outside the project (a
    // repository can ship links) would send that file, so it is not offered.
    if (within && (await leadsOutside(path, within))) return null
    // Only a regular, bounded file: a planted SKILL.md may be a link to a pipe or /dev/zero.
    const read = readConfigFile(path)
    if (!('text' in read)) return null
    const fm = parseFrontmatter(read.text)
    const description = typeof fm.data.description === 'string' ? fm.data.description.trim().replace(/\s+/g, ' ') : ''
    const hint = typeof fm.data['argument-hint'] === 'string' ? fm.data['argument-hint'].trim() : ''
    return {
      name,
      description,
      scope,
      path,
      dir: dirname(path),
      modelInvocable: fm.data['disable-model-invocation'] !== true,
      ...(hint ? { argumentHint: hint } : {})
    }
  } catch {
    return null
  }
}

export async function discoverSkills(opts: SkillIndexOptions): Promise<SkillEntry[]> {
  const { list: out, add } = firstByName<SkillEntry>()
  const roots: Array<{ dir: string; scope: SkillEntry['scope']; prefix: string; within?: string }> = [
    ...(await projectFolders(opts.cwd)).map((d) => ({ dir: join(d, '.claude', 'skills'), scope: 'project' as const, prefix: '', within: d })),
    { dir: join(opts.home, '.claude', 'skills'), scope: 'user', prefix: '' },
    ...(opts.pluginDirs ?? []).map((p) => ({ dir: join(p.dir, 'skills'), scope: 'plugin' as const, prefix: `${p.name}:` }))
  ]
  for (const root of roots) for (const folder of await folders(root.dir)) add(await entry(root.dir, folder, `${root.prefix}${folder}`, root.scope, root.within))
  return out
}

/** The listing the Skill tool's description carries: `- name: description`, one a line. */
export function formatSkillListing(skills: readonly SkillEntry[]): string {
  return skills
    .map((s) => {
      const d = s.description.length > MAX_LISTED_DESCRIPTION ? `${s.description.slice(0, MAX_LISTED_DESCRIPTION - 1)}…` : s.description
      return `- ${s.name}${d ? `: ${d}` : ''}`
    })
    .join('\n')
}

/** Names in `wanted` that no skill answers to, with the closest known name when one is near. */
export function unknownSkills(wanted: readonly string[], skills: readonly SkillEntry[]): Array<{ name: string; suggestion?: string }> {
  const known = skills.map((s) => s.name)
  return [...new Set(wanted)]
    .filter((n) => !known.includes(n))
    .map((name) => {
      const lower = name.toLowerCase()
      const suggestion = known.find((k) => k.toLowerCase() === lower || k.toLowerCase().endsWith(`:${lower}`)) ?? meantName(name, known)
      return suggestion ? { name, suggestion } : { name }
    })
}
