// The settings' part of the IPC contract: the settings as the window sees them (never the key), a change
// to them with the sentences each field's rule says, and the key and connection calls.
import { z } from 'zod'
import { Empty, MainAgentMode } from './contract-fields'
import { MergeStrategySchema } from './review-contract'
import {
  BASE_URL_TEXT,
  checkBaseUrl,
  checkModelId,
  CLEARING_CHOICES,
  EFFORT_CHOICES,
  MODEL_ALIAS_NAMES,
  NUMBER_RULES,
  rangeText,
  THEME_CHOICES,
  CACHE_SHARING_MODES,
  wholeNumberText,
  DOLLARS_TEXT,
  type NumberSetting
} from './settings-fields'
import { PERMISSION_MODES } from './agent-definition'

// The Settings dialog's own rule (an empty address is the dialog's "use the default", sent as null).
/**
 * What a failed Test connection asks the person to change. The host says what happened; the window says
 * where to change it (Settings and the first-run page have the fields in different places).
 */
export const ConnectionFixSchema = z.enum(['base_url', 'environment', 'network', 'key', 'no_key'])
export type ConnectionFix = z.infer<typeof ConnectionFixSchema>

const HttpUrl = z.string().refine((u) => u.trim() !== '' && checkBaseUrl(u).ok, BASE_URL_TEXT)

/** A numeric setting with the sentences the Settings dialog shows next to the field (settings-fields.ts). */
const wholeSetting = (name: NumberSetting) => {
  const r = NUMBER_RULES[name]
  return z
    .number({ error: wholeNumberText(name) })
    .int(wholeNumberText(name))
    .min(r.min, rangeText(name))
    .max(r.max, rangeText(name))
}

const ModelSetting = (alias: boolean) =>
  z.string().superRefine((v, ctx) => {
    const r = checkModelId(v, { alias })
    if (!r.ok) ctx.addIssue({ code: 'custom', message: r.error })
  })

const dollarSetting = (name: NumberSetting) =>
  z.number({ error: DOLLARS_TEXT }).min(NUMBER_RULES[name].min, rangeText(name)).max(NUMBER_RULES[name].max, rangeText(name))

export const LimitsSchema = z.object({
  /** Subagents running at once across the session; more wait as `queued`. */
  maxConcurrentAgents: wholeSetting('maxConcurrentAgents'),
  /** How deep subagents may nest (the main agent is depth 0). */
  maxDepth: wholeSetting('maxDepth'),
  /** Stop the session once it has cost this much; null for no limit. */
  maxBudgetUsd: z
    .number({ error: DOLLARS_TEXT })
    .min(NUMBER_RULES.maxBudgetUsd.min, rangeText('maxBudgetUsd'))
    .max(NUMBER_RULES.maxBudgetUsd.max, rangeText('maxBudgetUsd'))
    .nullable(),
  /** Stop the session once its agents together have used this many tokens; null for no limit. */
  maxBudgetTokens: wholeSetting('maxBudgetTokens').nullable(),
  /** Each subagent's subtree stops at this cost unless its call or file sets a budget; null for no limit. */
  subagentBudgetUsd: dollarSetting('subagentBudgetUsd').nullable().optional(),
  /** A fan-out whose estimate's high end is above this is asked about first; null never asks. */
  approveFanoutAboveUsd: dollarSetting('approveFanoutAboveUsd').nullable().optional(),
  /** Turns per run for every agent (main or subagent) without a maxTurns of its own. */
  maxTurns: wholeSetting('maxTurns')
})
export type Limits = z.infer<typeof LimitsSchema>

/** Long sessions: automatic compaction, its threshold (null: Claude Code's default), and old tool results. */
const ContextSettingsSchema = z.object({
  autoCompact: z.boolean(),
  autoCompactPercent: wholeSetting('autoCompactPercent').nullable(),
  toolResultClearing: z.enum(CLEARING_CHOICES)
})

export const SettingsSchema = z.object({
  /** Whether a key is available. The key itself never leaves the main process. */
  hasApiKey: z.boolean(),
  apiKeySource: z.enum(['stored', 'environment', 'none']).optional(),
  baseUrl: z.string().nullable(),
  defaultModel: z.string(),
  /** Alias → model id (e.g. `sonnet` → `claude-sonnet-4-5`): exactly haiku, sonnet and opus. */
  modelAliases: z.record(z.string(), z.string()),
  /** What each alias means when the settings do not say, for "reset to default". */
  defaultModelAliases: z.record(z.string(), z.string()),
  limits: LimitsSchema,
  defaultPermissionMode: z.enum(PERMISSION_MODES),
  /** New sessions' effort; null: each model's own default (medium on the 5.x models). */
  defaultEffort: z.enum(EFFORT_CHOICES).nullable(),
  /** New sessions run in coordinator mode (the main agent directs agents in four phases). */
  coordinator: z.boolean(),
  /** New sessions may create an agent team (coordinator mode always may). */
  agentTeams: z.boolean(),
  /** How agents that start together share the prompt cache (first, prewarm, off). */
  promptCacheSharing: z.enum(CACHE_SHARING_MODES),
  /** Light, dark, or as the system says. */
  theme: z.enum(THEME_CHOICES),
  /** "Skip for now" was chosen on the first-run screen. */
  firstRunSkipped: z.boolean(),
  context: ContextSettingsSchema,
  /** How the Changes view merges an agent's branch (the person's last choice). */
  mergeStrategy: MergeStrategySchema,
  /**
   * Claude Code's `worktree.baseRef` in force for the workspace: where new agent worktrees start, and the
   * settings file that says so (null: Fanout's default, `head`).
   */
  worktreeBaseRef: z.object({
    value: z.enum(['head', 'fresh']),
    file: z.string().nullable(),
    scope: z.enum(['user', 'project', 'local', 'managed']).nullable()
  })
})
export type Settings = z.infer<typeof SettingsSchema>

const AliasValue = ModelSetting(false).nullable().optional()

export const SettingsPatchSchema = z
  .object({
    baseUrl: HttpUrl.nullable().optional(),
    defaultModel: ModelSetting(true).optional(),
    /** The three aliases only (the runtime, the Agent tool and agent files know no others); null resets one to its default. */
    modelAliases: z
      .strictObject({ haiku: AliasValue, sonnet: AliasValue, opus: AliasValue }, { error: `Only the ${MODEL_ALIAS_NAMES.join(', ')} aliases exist.` })
      .optional(),
    limits: LimitsSchema.partial().strict().optional(),
    defaultPermissionMode: MainAgentMode.optional(),
    /** null: back to each model's own default. */
    defaultEffort: z.enum(EFFORT_CHOICES).nullable().optional(),
    coordinator: z.boolean().optional(),
    agentTeams: z.boolean().optional(),
    promptCacheSharing: z.enum(CACHE_SHARING_MODES).optional(),
    theme: z.enum(THEME_CHOICES).optional(),
    firstRunSkipped: z.boolean().optional(),
    context: ContextSettingsSchema.partial().strict().optional(),
    mergeStrategy: MergeStrategySchema.optional(),
    /** Written to the user's Claude Code settings (`~/.claude/settings.json`), as Claude Code's /config does. */
    worktreeBaseRef: z.enum(['head', 'fresh']).optional()
  })
  .strict()
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>

export const SETTINGS_CONTRACT = {
  'settings.get': { request: Empty, response: z.object({ settings: SettingsSchema }) },
  'settings.update': { request: SettingsPatchSchema, response: z.object({ settings: SettingsSchema }) },
  'settings.setApiKey': {
    request: z
      .object({
        apiKey: z
          .string({ error: 'apiKey must be a string' })
          .trim()
          .min(1, 'apiKey is empty')
          .max(1000, 'apiKey is longer than 1000 characters')
          .regex(/^[\x21-\x7e]+$/, 'apiKey must not contain spaces or non-ASCII characters')
      })
      .strict(),
    response: z.object({ settings: SettingsSchema })
  },
  /** GET /v1/models at a base URL with the stored key: whether the endpoint answers, in a sentence. */
  'settings.testConnection': {
    /** The base URL as typed in Settings (null: the default endpoint); absent: the saved one. */
    request: z.object({ baseUrl: HttpUrl.nullable().optional() }).strict(),
    response: z.object({ ok: z.boolean(), url: z.string(), message: z.string(), fix: ConnectionFixSchema.optional() })
  }
} as const
export type SettingsCallName = keyof typeof SETTINGS_CONTRACT
