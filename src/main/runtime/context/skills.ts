// Skills named in a definition's `skills: [...]` are preloaded into the agent's context: each is a folder
// `.claude/skills/<name>/` (or a plugin's `skills/<name>/`, named `plugin:name`) whose SKILL.md holds YAML
// frontmatter (name, description) and instructions. The project's skills (nearest folder first) win over the
// user's `~/.claude/skills` (skill-index.ts finds them).
import { join } from 'node:path'
import type { Diagnostic } from '../../../shared/agent-definition'
import { readConfigFile } from '../store/read-config'
import { projectFolders } from './project-root'
import { parseFrontmatter } from './skill-frontmatter'
import { discoverSkills, unknownSkills, type SkillEntry } from './skill-index'

export { parseFrontmatter } from './skill-frontmatter'

export interface LoadedSkill {
  /** The name it was asked for (its folder name). */
  name: string
  /** `description` from the frontmatter, when present. */
  description?: string
  /** Where it was found. */
  scope: 'project' | 'user' | 'plugin'
  /** Real path of SKILL.md. */
  path: string
  /** The skill's folder: files the instructions mention are relative to it. */
  dir: string
  /** The instructions (SKILL.md without its frontmatter). */
  body: string
  /** Every frontmatter field, as parsed. */
  frontmatter: Record<string, unknown>
}

export interface LoadSkillsOptions {
  names: string[]
  cwd: string
  home: string
  /** The agent file that asked for the skills, named in warnings. */
  definitionFile?: string
  pluginDirs?: ReadonlyArray<{ name: string; dir: string }>
  /** The skills already found (discoverSkills), to skip looking again. */
  index?: readonly SkillEntry[]
}

export interface LoadSkillsResult {
  skills: LoadedSkill[]
  /** Warnings (missing skill, unreadable frontmatter): the agent still runs without them. */
  diagnostics: Diagnostic[]
}

const SKILL_NAME = /^(?:[A-Za-z0-9][A-Za-z0-9._-]*:)?[A-Za-z0-9][A-Za-z0-9._-]*$/

export async function loadSkills(options: LoadSkillsOptions): Promise<LoadSkillsResult> {
  const where = options.definitionFile ?? options.cwd
  const warn = (code: string, message: string, line = 1, column = 1, file = where): Diagnostic => ({
    file,
    line,
    column,
    severity: 'warning',
    code,
    message
  })
  const skills: LoadedSkill[] = []
  const diagnostics: Diagnostic[] = []
  const index =
    options.index ?? (await discoverSkills({ cwd: options.cwd, home: options.home, ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}) }))
  for (const name of [...new Set(options.names)]) {
    if (!SKILL_NAME.test(name)) {
      diagnostics.push(
        warn(
          'skill-name-invalid',
          `Skill name ${JSON.stringify(name)} is not a folder name under .claude/skills (or plugin:folder for a plugin's skill); it was skipped.`
        )
      )
      continue
    }
    const found = index.find((s) => s.name === name)
    if (!found) {
      diagnostics.push(warn('skill-not-found', await skillNotFound(name, index, options)))
      continue
    }
    // A skill file a repository planted may be a link to a pipe or a device: only a regular, bounded file is read.
    const read = readConfigFile(found.path)
    if (!('text' in read)) {
      diagnostics.push(
        warn(
          'skill-unreadable',
          `Skill "${name}" could not be read (${'error' in read ? read.error : 'it is gone'}); the agent runs without it.`,
          1,
          1,
          found.path
        )
      )
      continue
    }
    const text = read.text
    const fm = parseFrontmatter(text)
    if (fm.error) {
      diagnostics.push(
        warn(
          'skill-frontmatter-invalid',
          `The frontmatter of skill "${name}" is not valid YAML (${fm.error.message}); its instructions are loaded without it.`,
          fm.error.line,
          fm.error.column,
          found.path
        )
      )
    }
    const description = typeof fm.data.description === 'string' ? fm.data.description.trim() : undefined
    skills.push({
      name,
      ...(description ? { description } : {}),
      scope: found.scope,
      path: found.path,
      dir: found.dir,
      body: fm.body.trim(),
      frontmatter: fm.data
    })
  }
  return { skills, diagnostics }
}

/** Why a skill name answers to nothing, with where it was looked for and the nearest name there is. */
export async function skillNotFound(name: string, index: readonly SkillEntry[], options: { cwd: string; home: string }): Promise<string> {
  const folders = await projectFolders(options.cwd)
  const near = unknownSkills([name], index)[0]?.suggestion
  const where = name.includes(':')
    ? `no plugin skill ${name} (plugin skills are named plugin:folder, from each plugin's skills/ folder)`
    : `no .claude/skills/${name}/SKILL.md in ${folders[folders.length - 1]} or the folders below it down to ${folders[0]}, nor in ${join(options.home, '.claude', 'skills')}`
  return `Skill "${name}" was not found: ${where}.${near ? ` Did you mean "${near}"?` : ''} The agent runs without it.`
}

/** The skills section of a system prompt; '' when there are none. */
export function formatSkills(skills: LoadedSkill[]): string {
  if (!skills.length) return ''
  const blocks = skills.map((s) => {
    const title = typeof s.frontmatter.name === 'string' && s.frontmatter.name.trim() ? s.frontmatter.name.trim() : s.name
    const head = [`## Skill: ${title}`, `Folder: ${s.dir}`, ...(s.description ? [`Use it for: ${s.description}`] : [])]
    return `${head.join('\n')}\n\n${s.body}`
  })
  return [
    'These skills were loaded for you. Each one is a way of doing a kind of task: when your task matches a skill, follow its instructions. Files a skill refers to are relative to its folder; Read them when needed.',
    ...blocks
  ].join('\n\n')
}
