// Skills named in a definition's `skills: [...]` are preloaded into the agent's context: each is a folder
// `.claude/skills/<name>/` whose SKILL.md holds YAML frontmatter (name, description) and instructions.
// The project's skills (nearest folder first) win over the user's `~/.claude/skills`.
import { realpath } from 'node:fs/promises'
import { readConfigFile } from '../store/read-config'
import { dirname, join } from 'node:path'
import { isMap, parseDocument } from 'yaml'
import type { Diagnostic } from '../../../shared/agent-definition'
import { projectFolders } from './project-root'

export interface LoadedSkill {
  /** The name it was asked for (its folder name). */
  name: string
  /** `description` from the frontmatter, when present. */
  description?: string
  /** Where it was found. */
  scope: 'project' | 'user'
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
}

export interface LoadSkillsResult {
  skills: LoadedSkill[]
  /** Warnings (missing skill, unreadable frontmatter): the agent still runs without them. */
  diagnostics: Diagnostic[]
}

const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

interface Frontmatter {
  data: Record<string, unknown>
  body: string
  /** 1-based line of the first frontmatter line, for locating YAML errors. */
  error?: { message: string; line: number; column: number }
}

/** Splits `---\n<yaml>\n---\n<body>`; a file without frontmatter is all body. */
export function parseFrontmatter(text: string): Frontmatter {
  const source = text.replace(/^\uFEFF/, '')
  const match = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(source)
  if (!match) return { data: {}, body: source }
  const body = source.slice(match[0].length)
  const doc = parseDocument(match[1] ?? '')
  if (doc.errors.length) {
    const first = doc.errors[0]
    const pos = first.linePos?.[0]
    // +1: the YAML starts on the line after the opening `---`.
    return { data: {}, body, error: { message: first.message.split('\n')[0], line: (pos?.line ?? 1) + 1, column: pos?.col ?? 1 } }
  }
  const value = doc.toJS() as unknown
  return { data: isMap(doc.contents) && value && typeof value === 'object' ? (value as Record<string, unknown>) : {}, body }
}

async function readSkill(path: string): Promise<{ real: string; text: string } | null> {
  try {
    const real = await realpath(path)
    // A skill file a repository planted may be a link to a pipe or a device: only a regular, bounded file is read.
    const read = readConfigFile(real)
    return 'text' in read ? { real, text: read.text } : null
  } catch {
    return null
  }
}

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
  const folders = await projectFolders(options.cwd)
  for (const name of [...new Set(options.names)]) {
    if (!SKILL_NAME.test(name)) {
      diagnostics.push(warn('skill-name-invalid', `Skill name ${JSON.stringify(name)} is not a folder name under .claude/skills; it was skipped.`))
      continue
    }
    const candidates: Array<{ path: string; scope: LoadedSkill['scope'] }> = [
      ...folders.map((dir) => ({ path: join(dir, '.claude', 'skills', name, 'SKILL.md'), scope: 'project' as const })),
      { path: join(options.home, '.claude', 'skills', name, 'SKILL.md'), scope: 'user' as const }
    ]
    let found: (typeof candidates)[number] & { real: string; text: string } | undefined
    for (const candidate of candidates) {
      const read = await readSkill(candidate.path)
      if (read) {
        found = { ...candidate, ...read }
        break
      }
    }
    if (!found) {
      diagnostics.push(
        warn(
          'skill-not-found',
          `Skill "${name}" was not found: no .claude/skills/${name}/SKILL.md in ${folders[folders.length - 1]} or the folders below it down to ${folders[0]}, nor in ${join(options.home, '.claude', 'skills')}. The agent runs without it.`
        )
      )
      continue
    }
    const fm = parseFrontmatter(found.text)
    if (fm.error) {
      diagnostics.push(
        warn('skill-frontmatter-invalid', `The frontmatter of skill "${name}" is not valid YAML (${fm.error.message}); its instructions are loaded without it.`, fm.error.line, fm.error.column, found.real)
      )
    }
    const description = typeof fm.data.description === 'string' ? fm.data.description.trim() : undefined
    skills.push({
      name,
      ...(description ? { description } : {}),
      scope: found.scope,
      path: found.real,
      dir: dirname(found.real),
      body: fm.body.trim(),
      frontmatter: fm.data
    })
  }
  return { skills, diagnostics }
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
