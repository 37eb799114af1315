// One custom command file (`.claude/commands/**/*.md`, `~/.claude/commands`, a plugin's `commands/`), read as
// Claude Code reads it: optional YAML frontmatter (description, argument-hint, allowed-tools, model,
// disable-model-invocation, arguments), then the prompt. A repository's command file is hostile input: it is
// read as a bounded regular file and nothing in it runs here (its `!` blocks run later, through the session's
// permission and sandbox path: expand.ts).
import { parseFrontmatter } from '../context/skill-frontmatter'
import { readConfigFile } from '../store/read-config'

export type CommandSource = 'project' | 'user' | 'plugin' | 'skill' | 'built-in'

export interface CommandDefinition {
  /** What the person types after `/`: `name`, `folder:name` for a subfolder, `namespace:name` for a plugin's. */
  name: string
  description: string
  argumentHint?: string
  /** Permission rules (`Bash(git add:*)`, `Read`) granted while the command's prompt runs. */
  allowedTools: string[]
  /** The model its prompt runs on (alias or id). */
  model?: string
  /** Named arguments (`arguments: [a, b]`): `$a` is the first word typed, `$b` the second. */
  argumentNames: string[]
  /** Only a person may run it; the model is not offered it. */
  disableModelInvocation: boolean
  /** false for a skill whose frontmatter says `user-invocable: false`: no command, the model's alone. */
  userInvocable: boolean
  source: CommandSource
  /** The file it was read from (SKILL.md for a skill). */
  path: string
  /** A skill's folder (its prompt starts with "Base directory for this skill: DIR"). */
  skillDir?: string
  /** Where a skill was found: a project's skill grants its `allowed-tools` only in a trusted folder, as a project command. */
  skillScope?: 'project' | 'user' | 'plugin'
  /** From a plugin the folder brought: gated like the project's own (its `allowed-tools` need a trusted folder). */
  folderBrought?: boolean
  /** The prompt: the file without its frontmatter. */
  body: string
  /** A frontmatter problem: the command still loads, without its frontmatter (as Claude Code does). */
  problem?: string
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : undefined)

/** `allowed-tools` as Claude Code takes it: a YAML list, or one string of comma- or space-separated rules (commas inside parentheses kept). */
export function ruleList(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim())
  if (typeof v !== 'string') return []
  const out: string[] = []
  let depth = 0
  let cur = ''
  for (const ch of v) {
    if (ch === '(') depth++
    if (ch === ')') depth = Math.max(0, depth - 1)
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (cur.trim()) out.push(cur.trim())
      cur = ''
    } else cur += ch
  }
  if (cur.trim()) out.push(cur.trim())
  return out
}

function names(v: unknown): string[] {
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(/\s+/) : []
  return list.filter((x): x is string => typeof x === 'string' && x.trim() !== '' && !/^\d+$/.test(x.trim())).map((x) => x.trim())
}

/** The first line of the prompt, Claude Code's description for a file that has none. */
function firstLine(body: string): string {
  const line = body.split('\n').find((l) => l.trim()) ?? ''
  return line
    .replace(/^#+\s*/, '')
    .trim()
    .slice(0, 100)
}

/** Parses a command's text; `name`, `source` and `path` are where it was found. */
export function parseCommand(text: string, name: string, source: CommandSource, path: string): CommandDefinition {
  const fm = parseFrontmatter(text)
  const d = fm.data
  const body = fm.body
  const model = str(d.model)
  const hint = str(d['argument-hint'])
  return {
    name,
    description: str(d.description) ?? firstLine(body),
    ...(hint ? { argumentHint: hint } : {}),
    allowedTools: ruleList(d['allowed-tools']),
    ...(model && model !== 'inherit' ? { model } : {}),
    argumentNames: names(d.arguments),
    disableModelInvocation: d['disable-model-invocation'] === true,
    userInvocable: d['user-invocable'] !== false,
    source,
    path,
    body,
    ...(fm.error ? { problem: `${path}:${fm.error.line}:${fm.error.column}: the frontmatter is not valid YAML (${fm.error.message})` } : {})
  }
}

/** Reads one command file as a bounded regular file; null when it cannot be read (a pipe, a device, gone). */
export function readCommandFile(path: string, name: string, source: CommandSource): CommandDefinition | null {
  const read = readConfigFile(path)
  if (!('text' in read)) return null
  return parseCommand(read.text, name, source, path)
}
