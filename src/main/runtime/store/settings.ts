// Fanout's own settings (`<dataDir>/settings.json`): endpoint, model aliases, spawn limits, default
// permission mode, theme. Loading never fails on a bad value: that one field falls back to its default
// and the problem is reported with its path; the file itself is left as the user wrote it.
import { z } from 'zod'
import { lazy } from '../../../shared/lazy'
import { PERMISSION_MODES } from '../../../shared/agent-definition'
import { CACHE_SHARING_MODES } from '../../../shared/settings-fields'
import { DEFAULT_LIMITS } from '../../../shared/spawn-limits'
import { CLEARING_CHOICES, DEFAULT_CONTEXT_SETTINGS } from '../compaction/context-settings'
import { DEFAULT_MODEL_ALIASES } from '../model/aliases'
import { EFFORT_LEVELS } from '../model/effort'
import { readJsonFile, writeJsonAtomic } from './atomic-file'
import { ensureDataDir, settingsPath } from './data-dir'
import { errorMessage } from '../../../shared/error-message'

export const THEMES = ['system', 'light', 'dark'] as const

export const DEFAULT_MODEL = 'sonnet'

// The schemas, built at their first use: a settings file to read, or a change to check.
const fields = lazy(() => {
  const modelId = z.string().trim().min(1, 'must be a model id')

  const baseURL = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })

  // Field rules without defaults (a patch must not fill in defaults), then with them (loading).
  const limitFields = {
    maxConcurrent: z.int().min(1).max(1000),
    maxDepth: z.int().min(0).max(50),
    maxAgentsPerSession: z.int().min(1).max(100_000),
    /** USD; 0 means no ceiling. */
    budgetUsd: z.number().min(0),
    /** Tokens (input, output and cache) the whole session may use; 0 means no ceiling. */
    budgetTokens: z.int().min(0).max(1e12),
    /** Turns of any agent's run (main agent or subagent) that has no maxTurns of its own. */
    maxTurns: z.int().min(1).max(10_000),
    /** USD each subagent's subtree may spend unless its call or definition says; 0 means no limit. */
    subagentBudgetUsd: z.number().min(0),
    subagentBudgetTokens: z.int().min(0).max(1e12),
    /** Percent of a budget at which the warning goes out. */
    budgetWarnPercent: z.int().min(1).max(100),
    /** USD above which a fan-out's estimate asks the person first; 0 means never. */
    approveFanoutAboveUsd: z.number().min(0)
  }

  const aliasesSchema = z.strictObject({
    haiku: modelId.default(DEFAULT_MODEL_ALIASES.haiku),
    sonnet: modelId.default(DEFAULT_MODEL_ALIASES.sonnet),
    opus: modelId.default(DEFAULT_MODEL_ALIASES.opus)
  })

  const limitsSchema = z.strictObject({
    maxConcurrent: limitFields.maxConcurrent.default(DEFAULT_LIMITS.maxConcurrent),
    maxDepth: limitFields.maxDepth.default(DEFAULT_LIMITS.maxDepth),
    maxAgentsPerSession: limitFields.maxAgentsPerSession.default(DEFAULT_LIMITS.maxAgentsPerSession),
    budgetUsd: limitFields.budgetUsd.default(DEFAULT_LIMITS.budgetUsd),
    budgetTokens: limitFields.budgetTokens.default(DEFAULT_LIMITS.budgetTokens),
    maxTurns: limitFields.maxTurns.default(DEFAULT_LIMITS.maxTurns),
    subagentBudgetUsd: limitFields.subagentBudgetUsd.default(DEFAULT_LIMITS.subagentBudgetUsd),
    subagentBudgetTokens: limitFields.subagentBudgetTokens.default(DEFAULT_LIMITS.subagentBudgetTokens),
    budgetWarnPercent: limitFields.budgetWarnPercent.default(DEFAULT_LIMITS.budgetWarnPercent),
    approveFanoutAboveUsd: limitFields.approveFanoutAboveUsd.default(DEFAULT_LIMITS.approveFanoutAboveUsd)
  })

  const contextFields = {
    autoCompact: z.boolean(),
    /** Compact past this share of the model's window; absent: Claude Code's threshold (window − reply reserve − 13k). */
    autoCompactPercent: z.number().min(10, 'must be between 10 and 100').max(100, 'must be between 10 and 100'),
    toolResultClearing: z.enum(CLEARING_CHOICES),
    keepToolResults: z.int().min(0).max(1_000),
    /** Context windows (tokens) by model id, for models the built-in table does not know. */
    windows: z.record(z.string().trim().min(1), z.int().min(1_000, 'a context window is at least 1,000 tokens').max(100_000_000))
  }

  const contextSchema = z.strictObject({
    autoCompact: contextFields.autoCompact.default(DEFAULT_CONTEXT_SETTINGS.autoCompact),
    autoCompactPercent: contextFields.autoCompactPercent.optional(),
    toolResultClearing: contextFields.toolResultClearing.default(DEFAULT_CONTEXT_SETTINGS.toolResultClearing),
    keepToolResults: contextFields.keepToolResults.default(DEFAULT_CONTEXT_SETTINGS.keepToolResults),
    windows: contextFields.windows.default({})
  })

  const permissionMode = z.enum(PERMISSION_MODES)
  /** A session's effort when nothing else sets one (see model/effort-settings.ts); absent: each model's default. */
  const effortLevel = z.enum(EFFORT_LEVELS as unknown as ['low', 'medium', 'high', 'xhigh', 'max'])
  const theme = z.enum(THEMES)

  return { baseURL, modelId, limitFields, aliasesSchema, limitsSchema, contextFields, contextSchema, permissionMode, effortLevel, theme }
})

export const settingsSchema = lazy(() => {
  const { baseURL, modelId, aliasesSchema, limitsSchema, contextSchema, permissionMode, effortLevel, theme } = fields()
  return z.strictObject({
    /** Anthropic-compatible endpoint; absent = the SDK default (or ANTHROPIC_BASE_URL). */
    baseURL: baseURL.optional(),
    /** The main agent's model: an alias or a full id. */
    defaultModel: modelId.default(DEFAULT_MODEL),
    modelAliases: aliasesSchema.prefault({}),
    limits: limitsSchema.prefault({}),
    /** Long sessions: auto-compaction and its threshold, clearing of old tool results, context windows by model. */
    context: contextSchema.prefault({}),
    defaultPermissionMode: permissionMode.default('default'),
    defaultEffort: effortLevel.optional(),
    theme: theme.default('system'),
    /** Coordinator mode for new sessions: the main agent directs agents in phases, with orchestration tools only. */
    coordinator: z.boolean().default(false),
    /** Agent teams for new sessions: the main agent can create a team with a shared task list. */
    agentTeams: z.boolean().default(false),
    /** How agents that start together share the prompt cache (model/cache-sharing.ts). */
    promptCacheSharing: z.enum(CACHE_SHARING_MODES).default('first'),
    /** The person chose "Skip for now" on the first-run screen: it is not shown again. */
    firstRunSkipped: z.boolean().default(false),
    /** How the Changes view merges an agent's branch: a merge commit, or one squashed commit (the person's last choice). */
    mergeStrategy: z.enum(['merge', 'squash']).default('merge'),
    /** MCP servers for every session, as in `.mcp.json`'s `mcpServers` (each entry is checked when a session loads it). */
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    /**
     * Environment variables that look like credentials but that Bash commands, hooks and MCP servers should get
     * anyway (names, or `PREFIX_*`). Everything else that carries a credential is kept from them.
     */
    passEnvironment: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, 'must be a variable name, or a prefix ending in *')).optional()
  })
})

// Only a change to the settings is checked against it, never a run's start.
const patchSchema = lazy(() => {
  const { baseURL, modelId, limitFields, contextFields, permissionMode, effortLevel, theme } = fields()
  return z.strictObject({
    baseURL: baseURL.nullable().optional(),
    defaultModel: modelId.optional(),
    /** null takes an alias back to its default. */
    modelAliases: z.strictObject({ haiku: modelId.nullable(), sonnet: modelId.nullable(), opus: modelId.nullable() }).partial().optional(),
    limits: z.strictObject(limitFields).partial().optional(),
    /** null takes autoCompactPercent back to Claude Code's threshold. */
    context: z
      .strictObject({ ...contextFields, autoCompactPercent: contextFields.autoCompactPercent.nullable() })
      .partial()
      .optional(),
    defaultPermissionMode: permissionMode.optional(),
    /** null: back to each model's default. */
    defaultEffort: effortLevel.nullable().optional(),
    theme: theme.optional(),
    coordinator: z.boolean().optional(),
    agentTeams: z.boolean().optional(),
    promptCacheSharing: z.enum(CACHE_SHARING_MODES).optional(),
    firstRunSkipped: z.boolean().optional(),
    mergeStrategy: z.enum(['merge', 'squash']).optional()
  })
})

export type Settings = z.infer<ReturnType<typeof settingsSchema>>

/**
 * What `settingsSchema().parse({})` gives (settings.test.ts checks it, key order too), written out so that a run
 * without a settings file builds no schema: the file is read at every start, and the schemas cost ~10 ms.
 */
const defaults = (): Settings => ({
  defaultModel: DEFAULT_MODEL,
  modelAliases: { ...DEFAULT_MODEL_ALIASES },
  limits: { ...DEFAULT_LIMITS },
  context: { ...DEFAULT_CONTEXT_SETTINGS, windows: {} },
  defaultPermissionMode: 'default',
  theme: 'system',
  coordinator: false,
  agentTeams: false,
  promptCacheSharing: 'first',
  firstRunSkipped: false,
  mergeStrategy: 'merge'
})

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze(defaults())

export interface SettingsPatch {
  /** null removes it (back to the default endpoint). */
  baseURL?: string | null
  defaultModel?: string
  /** null takes an alias back to its default (the key leaves the file). */
  modelAliases?: Partial<Record<keyof Settings['modelAliases'], string | null>>
  limits?: Partial<Settings['limits']>
  context?: Partial<Omit<Settings['context'], 'autoCompactPercent'>> & { autoCompactPercent?: number | null }
  defaultPermissionMode?: Settings['defaultPermissionMode']
  /** null: back to each model's default effort. */
  defaultEffort?: Settings['defaultEffort'] | null
  theme?: Settings['theme']
  coordinator?: boolean
  agentTeams?: boolean
  promptCacheSharing?: Settings['promptCacheSharing']
  firstRunSkipped?: boolean
  mergeStrategy?: Settings['mergeStrategy']
}

export interface LoadedSettings {
  settings: Settings
  /** One sentence per ignored value, e.g. `settings.json: limits.maxDepth: …; using the default (3)`. */
  problems: string[]
  file: string
  exists: boolean
}

type Raw = Record<string, unknown>
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Validates parsed settings, replacing each bad or unknown value by its default, with a note. */
export function parseSettings(raw: unknown, file = 'settings.json'): { settings: Settings; problems: string[] } {
  const problems: string[] = []
  if (!isObject(raw)) {
    if (raw !== undefined && raw !== null) problems.push(`${file}: expected a JSON object; using defaults`)
    return { settings: defaults(), problems }
  }
  if (Object.keys(raw).length === 0) return { settings: defaults(), problems }
  const work = structuredClone(raw)
  // Each pass removes the values zod rejected, so the next pass fills in their defaults.
  for (let pass = 0; pass < 20; pass++) {
    const r = settingsSchema().safeParse(work)
    if (r.success) return { settings: r.data, problems }
    for (const issue of r.error.issues) {
      const at = issue.path.map(String)
      const parent = at.slice(0, -1).reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), work)
      if (issue.code === 'unrecognized_keys') {
        const container = at.reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), work)
        for (const key of issue.keys) {
          problems.push(`${file}: unknown setting "${[...at, key].join('.')}" ignored`)
          if (isObject(container)) delete container[key]
        }
        continue
      }
      const name = at.join('.') || '(root)'
      problems.push(`${file}: ${name}: ${issue.message}; using the default${defaultText(at)}`)
      if (isObject(parent)) delete parent[at[at.length - 1]]
      else return { settings: defaults(), problems }
    }
  }
  return { settings: defaults(), problems }
}

function defaultText(path: string[]): string {
  const v = path.reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), DEFAULT_SETTINGS as unknown)
  return v === undefined || isObject(v) ? '' : ` (${JSON.stringify(v)})`
}

export async function loadSettings(dataDir: string): Promise<LoadedSettings> {
  const file = settingsPath(dataDir)
  let raw: unknown
  try {
    raw = await readJsonFile(file)
  } catch (err) {
    return { settings: defaults(), problems: [`${errorMessage(err)}; using defaults (the file is left untouched)`], file, exists: true }
  }
  return { ...parseSettings(raw ?? {}, file), file, exists: raw !== null }
}

/** A section of the file with a patch applied: null removes a key, so its default applies again. */
function mergeSection(current: unknown, patch: Raw): Raw {
  const out: Raw = { ...(isObject(current) ? current : {}) }
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else if (v !== undefined) out[k] = v
  }
  return out
}

/**
 * Validates `patch` strictly, applies it to the file as written (keys this version does not know are
 * kept) and writes it atomically. Throws, changing nothing, when the patch is invalid or the file is not
 * valid JSON (a file the user is editing is never overwritten).
 */
export async function updateSettings(dataDir: string, patch: SettingsPatch): Promise<Settings> {
  const file = settingsPath(dataDir)
  const valid = patchSchema().safeParse(patch)
  if (!valid.success) {
    const i = valid.error.issues[0]
    const where = [...i.path.map(String), ...(i.code === 'unrecognized_keys' ? [i.keys.join(', ')] : [])].join('.')
    throw new Error(`Invalid setting ${where || '(root)'}: ${i.message}; nothing was saved`)
  }
  const current = await readJsonFile(file)
  if (current !== null && !isObject(current)) throw new Error(`${file}: expected a JSON object; fix or delete it before saving settings`)
  const next: Raw = structuredClone(current ?? {})
  for (const [key, value] of Object.entries(valid.data)) {
    if (value === undefined) continue
    if (value === null) delete next[key]
    else if (isObject(value)) next[key] = mergeSection(next[key], value)
    else next[key] = value
  }
  await ensureDataDir(dataDir)
  await writeJsonAtomic(file, next)
  return parseSettings(next, file).settings
}
