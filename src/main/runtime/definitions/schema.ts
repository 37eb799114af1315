// The frontmatter of an agent file, as a zod schema: one entry per field, each as lenient as Claude Code
// (booleans may be written "true", counts may be quoted), so each field is validated on its own and a bad
// value costs only that field, with a diagnostic. Types for the frontmatter come from here.
import { z } from 'zod'
import { lazy } from '../../../shared/lazy'
import { MEMORY_SCOPES, PERMISSION_MODES } from '../../../shared/agent-definition'

/** The colours Claude Code accepts for an agent; others are ignored (and reported). */
export const AGENT_COLORS = ['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan'] as const
export const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const
/** What Claude Code 2.1.328 accepts in `model` besides a model id (model/aliases.ts resolves them; `[1m]` may follow any). */
export const MODEL_ALIASES = ['haiku', 'sonnet', 'opus', 'fable', 'best', 'opusplan', 'default', 'inherit'] as const

// Each field's schema is built at its first use (a schema node costs ~35k instructions): every run reads the
// built-in agents, which use a few fields, before its first request.
const text = lazy(() => z.string().refine((s) => s.trim() !== ''))
const booleanish = lazy(() => z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true'))
const wholeNumber = lazy(() =>
  z.union([
    z.number().int().positive(),
    z
      .string()
      .regex(/^\s*\d+\s*$/)
      .transform(Number)
      .pipe(z.number().int().positive())
  ])
)
/** A tool or skill list: "A, B", a YAML list, or nothing. Read further by tool-list.ts. */
const nameList = lazy(() => z.union([z.string(), z.array(z.unknown()), z.null()]))
const record = lazy(() => z.record(z.string(), z.unknown()))
const amount = () =>
  z.union([
    z.number().positive(),
    z
      .string()
      .regex(/^\s*\$?\d+(\.\d+)?\s*$/)
      .transform((v) => Number(v.trim().replace('$', '')))
      .pipe(z.number().positive())
  ])
/** Fanout's own field (Claude Code ignores it): what one run of the agent, its subagents included, may spend. */
const budget = () =>
  z
    .strictObject({ usd: amount(), tokens: wholeNumber() })
    .partial()
    .refine((b) => b.usd !== undefined || b.tokens !== undefined)

const FIELD_SCHEMAS = {
  name: () => z.string().min(1),
  description: () => z.string().min(1),
  tools: nameList,
  disallowedTools: nameList,
  model: () => text().transform((s) => (s.trim().toLowerCase() === 'inherit' ? 'inherit' : s.trim())),
  color: () => z.enum(AGENT_COLORS),
  forkContext: booleanish,
  permissionMode: () => z.enum(PERMISSION_MODES),
  background: booleanish,
  memory: () => z.enum(MEMORY_SCOPES),
  isolation: () => z.literal('worktree'),
  skills: nameList,
  maxTurns: wholeNumber,
  effort: () => z.union([z.enum(EFFORT_LEVELS), wholeNumber()]),
  mcpServers: () => z.union([z.array(z.union([z.string(), record()])), record()]),
  hooks: record,
  initialPrompt: text,
  criticalSystemReminder_EXPERIMENTAL: text,
  omitClaudeMd: booleanish,
  budget
} as const

export type FrontmatterKey = keyof typeof FIELD_SCHEMAS
type FieldSchemas = { [K in FrontmatterKey]: ReturnType<(typeof FIELD_SCHEMAS)[K]> }

const built = new Map<FrontmatterKey, z.ZodType>()

/** One field's schema (each field is validated on its own), built at its first use. */
export function frontmatterField<K extends FrontmatterKey>(key: K): FieldSchemas[K] {
  let schema = built.get(key)
  if (!schema) built.set(key, (schema = FIELD_SCHEMAS[key]()))
  return schema as FieldSchemas[K]
}

/** The whole frontmatter: every known field optional, unknown keys kept. */
export const agentFrontmatterSchema = lazy(() =>
  z
    .object(Object.fromEntries(FRONTMATTER_KEYS.map((k) => [k, frontmatterField(k)])) as FieldSchemas)
    .partial()
    .catchall(z.unknown())
)
export type AgentFrontmatter = z.output<ReturnType<typeof agentFrontmatterSchema>>
export type AgentFrontmatterInput = z.input<ReturnType<typeof agentFrontmatterSchema>>

export const FRONTMATTER_KEYS = Object.keys(FIELD_SCHEMAS) as FrontmatterKey[]

/** What each field should be, in words, for "`maxTurns` should be ..., but is ..." diagnostics. */
export const FIELD_EXPECTS: Readonly<Record<FrontmatterKey, string>> = {
  name: 'a non-empty text',
  description: 'a non-empty text',
  tools: 'a comma-separated list or a YAML list of tool names',
  disallowedTools: 'a comma-separated list or a YAML list of tool names',
  model: `one of ${MODEL_ALIASES.join(', ')} or a model id`,
  color: `one of ${AGENT_COLORS.join(', ')}`,
  forkContext: 'true or false',
  permissionMode: `one of ${PERMISSION_MODES.join(', ')}`,
  background: 'true or false',
  memory: `one of ${MEMORY_SCOPES.join(', ')}`,
  isolation: '"worktree"',
  skills: 'a comma-separated list or a YAML list of skill names',
  maxTurns: 'a whole number above 0',
  effort: `one of ${EFFORT_LEVELS.join(', ')} or a whole number`,
  mcpServers: 'a list of server names or server configurations',
  hooks: 'a mapping of hook events to hooks',
  initialPrompt: 'a non-empty text',
  criticalSystemReminder_EXPERIMENTAL: 'a non-empty text',
  omitClaudeMd: 'true or false',
  budget: 'a mapping with usd (dollars above 0) and/or tokens (a whole number above 0), e.g. {usd: 2, tokens: 500000}'
}

/** Keys people write by mistake (often copied from slash commands or skills), and what they meant. */
export const KEY_SUGGESTIONS: Readonly<Record<string, FrontmatterKey>> = {
  'allowed-tools': 'tools',
  allowedTools: 'tools',
  allowed_tools: 'tools',
  tool: 'tools',
  'disallowed-tools': 'disallowedTools',
  disallowed_tools: 'disallowedTools',
  'permission-mode': 'permissionMode',
  permission_mode: 'permissionMode',
  'max-turns': 'maxTurns',
  max_turns: 'maxTurns',
  'initial-prompt': 'initialPrompt',
  'mcp-servers': 'mcpServers',
  mcp_servers: 'mcpServers',
  colour: 'color',
  'max-budget-usd': 'budget',
  maxBudgetUsd: 'budget'
}

/** The known key a misspelt one most likely means: same letters ignoring case, `-` and `_`. */
const normalizeKey = (k: string): string => k.toLowerCase().replace(/[-_]/g, '')
const BY_NORMALIZED = new Map(FRONTMATTER_KEYS.map((k) => [normalizeKey(k), k]))

export function suggestKey(key: string): FrontmatterKey | undefined {
  return Object.hasOwn(KEY_SUGGESTIONS, key) ? KEY_SUGGESTIONS[key] : BY_NORMALIZED.get(normalizeKey(key))
}
