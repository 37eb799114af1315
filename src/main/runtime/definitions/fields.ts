// Turns validated frontmatter values into AgentDefinition fields. Each field stands alone: a bad value
// costs that field (with a warning saying what was expected), never the whole agent. Shared by markdown
// files and `--agents` JSON so both read fields identically.
import type { AgentDefinition, AgentSource, Diagnostic } from '../../../shared/agent-definition'
import { isBareWord } from '../../../shared/settings-fields'
import type { Position } from './diagnostics'
import { diagnostic, preview } from './diagnostics'
import { FIELD_EXPECTS, FRONTMATTER_KEYS, MODEL_ALIASES, frontmatterField, suggestKey, type FrontmatterKey } from './schema'
import { meantAlias, misspeltTools } from './spelling'
import { readToolList } from './tool-list'

export type AgentFields = Omit<AgentDefinition, 'agentType' | 'whenToUse' | 'systemPrompt' | 'source' | 'file' | 'plugin' | 'frontmatter'>

export interface FieldReadContext {
  file: string
  source: AgentSource
  /** Where a key / its value is in the file (the frontmatter start when unknown). */
  keyAt(key: string): Position
  valueAt(key: string): Position
  /** Keys read elsewhere (name, description, prompt) that are neither fields here nor unknown. */
  handled: ReadonlySet<string>
}

/** Fields a plugin may not set: they would let a plugin raise its own permissions (Claude Code agrees). */
const PLUGIN_FORBIDDEN = new Set<FrontmatterKey>(['permissionMode', 'hooks', 'mcpServers'])
const KNOWN = new Set<string>(FRONTMATTER_KEYS)
/** One note per unknown key is useful; thousands are noise. */
const MAX_UNKNOWN_KEY_NOTES = 20

export function readAgentFields(raw: Record<string, unknown>, ctx: FieldReadContext): { fields: AgentFields; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = []
  const fields: AgentFields = { extra: {} }
  const warn = (key: string, code: string, message: string, at = ctx.valueAt(key)): void => {
    diagnostics.push(diagnostic(ctx.file, at, 'warning', code, message))
  }
  const info = (key: string, code: string, message: string, at = ctx.keyAt(key)): void => {
    diagnostics.push(diagnostic(ctx.file, at, 'info', code, message))
  }

  let unknownReported = 0
  let unknownUnreported = 0
  for (const [key, value] of Object.entries(raw)) {
    if (ctx.handled.has(key)) continue
    if (!KNOWN.has(key)) {
      // defineProperty, not assignment: a key named `__proto__` must stay a plain key.
      Object.defineProperty(fields.extra, key, { value, enumerable: true, writable: true, configurable: true })
      const suggestion = suggestKey(key)
      if (!suggestion && unknownReported >= MAX_UNKNOWN_KEY_NOTES) {
        unknownUnreported++
      } else if (suggestion) {
        warn(key, 'unknown-key', `\`${key}\` is not an agent field, so it has no effect; did you mean \`${suggestion}\`?`, ctx.keyAt(key))
      } else {
        unknownReported++
        info(key, 'unknown-key', `\`${key}\` is not an agent field; it is kept in the file but has no effect`)
      }
      continue
    }
    const field = key as FrontmatterKey
    if (value === null || value === undefined) {
      info(key, 'empty-field', `\`${key}\` has no value, so it is ignored`)
      continue
    }
    if (ctx.source === 'plugin' && PLUGIN_FORBIDDEN.has(field)) {
      warn(key, 'plugin-forbidden', `plugin agents cannot set \`${key}\`; it is ignored (a plugin may not widen its own permissions)`, ctx.keyAt(key))
      continue
    }
    const parsed = frontmatterField(field).safeParse(value)
    if (!parsed.success) {
      warn(key, 'invalid-field', `\`${key}\` should be ${FIELD_EXPECTS[field]}, but is ${preview(value)}; the field is ignored`)
      continue
    }
    applyField(
      field,
      parsed.data,
      fields,
      (code, message) => warn(key, code, message),
      (code, message) => info(key, code, message)
    )
  }
  if (unknownUnreported) {
    diagnostics.push(
      diagnostic(
        ctx.file,
        ctx.keyAt(''),
        'info',
        'unknown-key',
        `${unknownUnreported} more keys are not agent fields; they are kept in the file but have no effect`
      )
    )
  }
  return { fields, diagnostics }
}

type Say = (code: string, message: string) => void

function applyField(key: FrontmatterKey, value: unknown, fields: AgentFields, warn: Say, info: Say): void {
  switch (key) {
    case 'tools':
    case 'disallowedTools': {
      const { list = [], dropped } = readToolList(value)
      if (dropped.length)
        warn('invalid-tool-name', `\`${key}\` has entries that are not tool names (${dropped.map((d) => preview(d, 30)).join(', ')}); they are ignored`)
      for (const { spec, meant } of misspeltTools(list)) {
        const effect = key === 'tools' ? 'the agent will not get it' : 'nothing is removed by it'
        warn('unknown-tool', `\`${key}\` lists "${spec}", which is not a tool; did you mean \`${meant}\`? As written, ${effect}`)
      }
      if (key === 'tools') {
        if (list.includes('*')) {
          if (list.length > 1) info('wildcard-tools', '`tools` contains `*`, which already means all tools; the other names add nothing')
          fields.tools = ['*']
        } else {
          if (list.length === 0) info('empty-tools', '`tools` is empty, which means all tools; remove it, or list the tools the agent should have')
          fields.tools = list
        }
      } else {
        fields.disallowedTools = list
      }
      return
    }
    case 'skills':
      fields.skills = readToolList(value).list ?? []
      return
    case 'model': {
      const model = value as string
      const alias = (MODEL_ALIASES as readonly string[]).includes(model.toLowerCase().replace(/\[1m\]$/, ''))
      // A bare word that is not an alias cannot be a model id; the model layer refuses it at spawn time.
      if (!alias && isBareWord(model)) {
        const meant = meantAlias(model)
        warn(
          'unknown-model',
          `\`model\` is "${model}", which is neither ${MODEL_ALIASES.join(', ')} nor a model id${meant ? ` (did you mean \`${meant}\`?)` : ''}; starting this agent will fail`
        )
      } else if (!alias && !/claude/i.test(model)) {
        // Gateways may name models freely, so this is a warning, not a refusal.
        warn(
          'unknown-model',
          `\`model\` is "${model}", which is not a Claude model id (like claude-sonnet-4-5) nor ${MODEL_ALIASES.join(', ')}; it is sent to the API as written, which refuses it unless your gateway knows that name`
        )
      }
      fields.model = model
      return
    }
    case 'criticalSystemReminder_EXPERIMENTAL':
      fields.criticalSystemReminder = value as string
      return
    case 'name':
    case 'description':
      return // read by the caller
    default:
      ;(fields as Record<string, unknown>)[key] = value
  }
}
