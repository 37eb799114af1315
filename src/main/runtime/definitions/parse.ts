// One agent file -> an AgentDefinition, or diagnostics saying why not. Loads exactly the files Claude Code
// loads, with the same name, description and tools; unlike Claude Code it says what it skipped or repaired.
import type { AgentDefinition, AgentSource, Diagnostic } from '../../../shared/agent-definition'
import type { Position } from './diagnostics'
import { diagnostic, preview } from './diagnostics'
import { readAgentFields } from './fields'
import { splitFrontmatter } from './frontmatter'
import { quoteProblematicValues } from './recover'
import { readYaml, type KeyPosition } from './yaml-read'

/** Bigger files are refused unread: no real system prompt is this long, and parsing stays bounded. */
export const MAX_AGENT_FILE_CHARS = 1024 * 1024
/** Bigger frontmatter is refused before YAML parsing (the largest of ~590 real files is 4.4 KB). */
export const MAX_FRONTMATTER_CHARS = 64 * 1024

export interface ParseAgentOptions {
  /** Plugin agents: the plugin's name and the subfolders under its agents/ folder (`plugin:sub:name`). */
  plugin?: string
  namespace?: string[]
  /** `{{KEY}}` in the body is replaced by the value (built-ins use `{{FANOUT_DOCS_DIR}}`). */
  placeholders?: Record<string, string>
}

export interface ParsedAgent {
  definition?: AgentDefinition
  diagnostics: Diagnostic[]
}

const START: Position = { line: 1, column: 1 }

function baseName(file: string): string {
  const name = file.split(/[\\/]/).pop() ?? file
  return name.replace(/\.md$/i, '')
}

export function substitutePlaceholders(body: string, placeholders: Record<string, string> | undefined): string {
  if (!placeholders) return body
  return body.replace(/\{\{([A-Z0-9_]+)\}\}/g, (whole, key: string) => (Object.hasOwn(placeholders, key) ? placeholders[key] : whole))
}

/** The first line of prose in a markdown body: a plugin agent's description when it has none. */
function firstProseLine(body: string): string | undefined {
  for (const line of body.split('\n')) {
    const t = line.trim()
    if (t && !t.startsWith('#') && !t.startsWith('---')) return t.length > 200 ? `${t.slice(0, 197)}...` : t
  }
  return undefined
}

export function parseAgentMarkdown(text: string, file: string, source: AgentSource, opts: ParseAgentOptions = {}): ParsedAgent {
  const diagnostics: Diagnostic[] = []
  const fail = (at: Position, code: string, message: string): ParsedAgent => {
    diagnostics.push(diagnostic(file, at, 'error', code, `${message}; the agent is not loaded`))
    return { diagnostics }
  }
  if (text.length > MAX_AGENT_FILE_CHARS) {
    return fail(START, 'file-too-large', `the file is ${text.length} characters long, more than the ${MAX_AGENT_FILE_CHARS} an agent file may have`)
  }
  // A BOM and CRLF line ends are editor artefacts, not content: read them as if they were not there.
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n')
  const isPlugin = source === 'plugin' && opts.plugin !== undefined

  let raw: Record<string, unknown> = {}
  let keys = new Map<string, KeyPosition>()
  let body = src
  let fmStart = START
  const split = splitFrontmatter(src)
  if (!split.ok) {
    // Claude Code reads such a file as having no frontmatter: plugin agents then fall back to the file
    // name; every other agent is skipped for lack of a name.
    if (!isPlugin) {
      return split.reason === 'unterminated'
        ? fail(split.at, 'unterminated-frontmatter', 'the frontmatter opened by `---` on line 1 is never closed by another `---` line')
        : fail(
            split.at,
            'no-frontmatter',
            'the file has no frontmatter: an agent file starts with a `---` line, then `name:` and `description:`, then a closing `---`'
          )
    }
  } else {
    body = split.body
    fmStart = split.yamlStart
    if (split.closeMidLine) {
      diagnostics.push(
        diagnostic(
          file,
          split.close,
          'warning',
          'frontmatter-closed-mid-line',
          'the frontmatter ends at this `---`, which is not on a line of its own; the rest of this line and what follows is read as the prompt (Claude Code reads it the same way)'
        )
      )
    }
    if (split.yaml.length > MAX_FRONTMATTER_CHARS) {
      return fail(fmStart, 'frontmatter-too-large', `the frontmatter is ${split.yaml.length} characters long, more than the ${MAX_FRONTMATTER_CHARS} allowed`)
    }
    const read = readFrontmatter(split.yaml, fmStart, file, diagnostics)
    if (read.ok) {
      raw = read.raw
      keys = read.keys
    } else if (isPlugin) {
      // Claude Code reads unreadable plugin frontmatter as empty and names the agent after its file.
      diagnostics.push(diagnostic(file, read.at, 'warning', read.code, `${read.message}; the frontmatter is ignored and the file name is used as the name`))
    } else {
      return fail(read.at, read.code, read.message)
    }
  }

  const keyAt = (key: string): Position => keys.get(key)?.key ?? fmStart
  const valueAt = (key: string): Position => keys.get(key)?.value ?? fmStart

  // name -> agentType
  let name: string
  const rawName = raw.name
  if (typeof rawName === 'string' && rawName) {
    if (rawName.includes(':')) {
      return fail(valueAt('name'), 'name-has-colon', `the name "${rawName}" contains ":", which is reserved for plugin agents (plugin:agent)`)
    }
    name = rawName
  } else if (isPlugin) {
    name = baseName(file)
    if (rawName !== undefined)
      diagnostics.push(
        diagnostic(
          file,
          valueAt('name'),
          'warning',
          'invalid-name',
          `\`name\` should be a non-empty text, but is ${preview(rawName)}; the file name "${name}" is used instead`
        )
      )
  } else if (rawName === undefined) {
    return fail(fmStart, 'missing-name', 'the frontmatter has no `name:`; add `name: some-agent`')
  } else {
    const wrong = notText('name', rawName)
    return fail(valueAt('name'), wrong.code, wrong.message)
  }
  const agentType = isPlugin ? [opts.plugin, ...(opts.namespace ?? []), name].join(':') : name

  // description -> whenToUse
  let whenToUse: string
  const rawDescription = raw.description
  if (typeof rawDescription === 'string' && rawDescription) {
    whenToUse = rawDescription
  } else if (isPlugin) {
    whenToUse = firstProseLine(body) ?? `Agent from the ${opts.plugin} plugin`
    diagnostics.push(
      diagnostic(
        file,
        valueAt('description'),
        'info',
        'missing-description',
        `no \`description\`: the parent decides when to use this agent from it, so "${preview(whenToUse, 50)}" (from the prompt) is used`
      )
    )
  } else if (rawDescription === undefined) {
    return fail(fmStart, 'missing-description', 'the frontmatter has no `description:`, which tells the parent agent when to use this one')
  } else {
    const wrong = notText('description', rawDescription)
    return fail(valueAt('description'), wrong.code, wrong.message)
  }
  // Claude Code turns the two characters `\n` into a line break in every description: many files rely on it.
  whenToUse = whenToUse.replace(/\\n/g, '\n')

  const { fields, diagnostics: fieldDiagnostics } = readAgentFields(raw, {
    file,
    source,
    keyAt,
    valueAt,
    handled: new Set(['name', 'description'])
  })
  diagnostics.push(...fieldDiagnostics)

  const definition: AgentDefinition = {
    ...fields,
    agentType,
    whenToUse,
    systemPrompt: substitutePlaceholders(body.trim(), opts.placeholders),
    source,
    file,
    ...(isPlugin ? { plugin: opts.plugin } : {}),
    frontmatter: raw
  }
  return { definition, diagnostics }
}

/** What each required text says, for the message about an empty one. */
const REQUIRED_TEXT = {
  name: 'it is the agent type the main agent asks for; write it after `name:`, e.g. `name: code-reviewer`',
  description: 'it tells the parent agent when to use this one; write that after `description:`'
} as const

/**
 * Why a `name` or `description` that is there is not a text Claude Code accepts, and the fix for that cause:
 * quotes only where quoting gives the text that was meant (a number or true/false), never for an empty value.
 */
function notText(key: keyof typeof REQUIRED_TEXT, value: unknown): { code: string; message: string } {
  if (value === null || value === '') return { code: `empty-${key}`, message: `\`${key}\` is empty: ${REQUIRED_TEXT[key]}` }
  const shown = preview(value)
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    const what = typeof value === 'boolean' ? 'a true/false value' : 'a number'
    return { code: `invalid-${key}`, message: `\`${key}\` should be text, but YAML reads ${shown} as ${what}; put it in quotes to keep it as text` }
  }
  if (Array.isArray(value)) {
    return {
      code: `invalid-${key}`,
      message: `\`${key}\` should be text, but is a list (${shown}); write it as one text, in quotes if it starts with \`[\` or \`-\``
    }
  }
  if (typeof value === 'object') {
    const fix =
      key === 'description'
        ? 'if those lines belong to it, write it as a block (`description: |`) or put it all in quotes'
        : 'write the name on the line of `name:`'
    return { code: `invalid-${key}`, message: `\`${key}\` should be text, but is a set of \`key: value\` lines (${shown}); ${fix}` }
  }
  return { code: `invalid-${key}`, message: `\`${key}\` should be text, but is ${shown}` }
}

type FrontmatterRead = { ok: true; raw: Record<string, unknown>; keys: Map<string, KeyPosition> } | { ok: false; at: Position; code: string; message: string }

/** YAML first; on failure Claude Code's repairs, with a warning for each repaired line. */
function readFrontmatter(yaml: string, origin: Position, file: string, diagnostics: Diagnostic[]): FrontmatterRead {
  let read = readYaml(yaml, origin)
  if (!read.ok) {
    const firstError = read
    // Tabs that indent a continuation line: Claude Code reads them as spaces.
    const tabs = untabContinuations(yaml)
    const repair = quoteProblematicValues(tabs.text)
    const retried = repair.quoted.length || tabs.lines.length ? readYaml(repair.text, origin) : undefined
    if (!retried?.ok) {
      const message = firstError.hint
        ? `the frontmatter is not valid YAML: ${firstError.hint}`
        : `the frontmatter is not valid YAML (${firstError.message}) and could not be repaired`
      return { ok: false, at: firstError.at, code: 'invalid-yaml', message }
    }
    for (const line of tabs.lines)
      diagnostics.push(
        diagnostic(
          file,
          { line: origin.line + line, column: 1 },
          'warning',
          'yaml-repaired',
          'this line is indented with a tab, which YAML does not allow; it was read as indented with spaces, as Claude Code does. Indent it with spaces to make the file valid YAML'
        )
      )
    for (const q of repair.quoted) {
      const why =
        q.trigger === ': ' ? 'contains ": ", which YAML reads as the start of a nested key' : `contains "${q.trigger}", which has a special meaning in YAML`
      diagnostics.push(
        diagnostic(
          file,
          { line: origin.line + q.index, column: q.valueColumn + 1 },
          'warning',
          'yaml-repaired',
          `the value of \`${q.key}\` ${why}; it was read as quoted text, as Claude Code does. Put the value in quotes to make the file valid YAML`
        )
      )
    }
    read = retried
  }
  for (const d of read.duplicates ?? [])
    diagnostics.push(
      diagnostic(
        file,
        d.at,
        'warning',
        'duplicate-key',
        `\`${d.key}\` is written twice; the last one is used, as Claude Code does. Remove the other so the file is valid YAML`
      )
    )
  if (read.data === null || read.data === undefined) return { ok: true, raw: {}, keys: read.keys }
  if (typeof read.data !== 'object' || Array.isArray(read.data)) {
    const what = Array.isArray(read.data) ? 'a list' : preview(read.data)
    return { ok: false, at: origin, code: 'frontmatter-not-mapping', message: `the frontmatter should be \`key: value\` lines, but is ${what}` }
  }
  return { ok: true, raw: read.data as Record<string, unknown>, keys: read.keys }
}

/** Leading tabs of indented lines (never of a line at column 0) as two spaces each, and which lines changed. */
function untabContinuations(yaml: string): { text: string; lines: number[] } {
  const lines: number[] = []
  const text = yaml
    .split('\n')
    .map((line, i) => {
      const lead = /^[ \t]+/.exec(line)?.[0]
      if (!lead || !lead.includes('\t')) return line
      lines.push(i)
      return lead.replace(/\t/g, '  ') + line.slice(lead.length)
    })
    .join('\n')
  return { text, lines }
}
