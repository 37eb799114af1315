// The Settings form's draft: the fields as typed, checked with the contract's own rules
// (shared/settings-fields.ts), and turned into a patch only when every field holds.
import type { PermissionMode } from '../../../shared/agent-definition'
import type { Settings, SettingsPatch } from '../../../shared/ipc-contract'
import {
  checkBaseUrl,
  checkModelId,
  checkNumberSetting,
  MODEL_ALIAS_NAMES,
  type ClearingChoice,
  type EffortChoice,
  type ModelAliasName,
  type NumberSetting,
  type SettingsFieldKey
} from '../../../shared/settings-fields'

export interface Draft {
  baseUrl: string
  defaultModel: string
  aliases: Record<ModelAliasName, string>
  maxConcurrentAgents: string
  maxDepth: string
  maxBudgetUsd: string
  maxBudgetTokens: string
  subagentBudgetUsd: string
  approveFanoutAboveUsd: string
  maxTurns: string
  defaultPermissionMode: PermissionMode
  /** '': each model's own default. */
  defaultEffort: EffortChoice | ''
  coordinator: boolean
  agentTeams: boolean
  promptCacheSharing: Settings['promptCacheSharing']
  autoCompact: boolean
  autoCompactPercent: string
  toolResultClearing: ClearingChoice
  /** Claude Code's worktree.baseRef (saved to the user's Claude Code settings only when changed). */
  worktreeBaseRef: Settings['worktreeBaseRef']['value']
  mergeStrategy: Settings['mergeStrategy']
}

export type FieldErrors = Partial<Record<SettingsFieldKey, string>>

export const NUMBER_FIELDS: NumberSetting[] = [
  'maxConcurrentAgents',
  'maxDepth',
  'maxTurns',
  'maxBudgetUsd',
  'maxBudgetTokens',
  'subagentBudgetUsd',
  'approveFanoutAboveUsd',
  'autoCompactPercent'
]

/** Fields in the order they appear, so the first invalid one is the one focused. */
export const FIELD_ORDER: SettingsFieldKey[] = [
  'baseUrl',
  'defaultModel',
  ...MODEL_ALIAS_NAMES.map((a) => `alias.${a}` as const),
  'maxConcurrentAgents',
  'maxDepth',
  'maxTurns',
  'maxBudgetUsd',
  'subagentBudgetUsd',
  'approveFanoutAboveUsd',
  'defaultPermissionMode',
  'autoCompactPercent',
  'toolResultClearing'
]

export const toDraft = (s: Settings): Draft => ({
  baseUrl: s.baseUrl ?? '',
  defaultModel: s.defaultModel,
  aliases: Object.fromEntries(MODEL_ALIAS_NAMES.map((a) => [a, s.modelAliases[a] ?? s.defaultModelAliases[a] ?? ''])) as Record<ModelAliasName, string>,
  maxConcurrentAgents: String(s.limits.maxConcurrentAgents),
  maxDepth: String(s.limits.maxDepth),
  maxBudgetUsd: s.limits.maxBudgetUsd === null ? '' : String(s.limits.maxBudgetUsd),
  maxBudgetTokens: s.limits.maxBudgetTokens === null || s.limits.maxBudgetTokens === undefined ? '' : String(s.limits.maxBudgetTokens),
  subagentBudgetUsd: s.limits.subagentBudgetUsd == null ? '' : String(s.limits.subagentBudgetUsd),
  approveFanoutAboveUsd: s.limits.approveFanoutAboveUsd == null ? '' : String(s.limits.approveFanoutAboveUsd),
  maxTurns: String(s.limits.maxTurns),
  defaultPermissionMode: s.defaultPermissionMode,
  defaultEffort: s.defaultEffort ?? '',
  coordinator: s.coordinator,
  agentTeams: s.agentTeams,
  promptCacheSharing: s.promptCacheSharing,
  autoCompact: s.context.autoCompact,
  autoCompactPercent: s.context.autoCompactPercent === null ? '' : String(s.context.autoCompactPercent),
  toolResultClearing: s.context.toolResultClearing,
  worktreeBaseRef: s.worktreeBaseRef.value,
  mergeStrategy: s.mergeStrategy
})

export function sameDraft(a: Draft, b: Draft): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Every field's problem, as the sentence shown next to it. */
export function draftErrors(d: Draft): FieldErrors {
  const errors: FieldErrors = {}
  const url = checkBaseUrl(d.baseUrl)
  if (!url.ok) errors.baseUrl = url.error
  const model = checkModelId(d.defaultModel, { alias: true })
  if (!model.ok) errors.defaultModel = model.error
  for (const a of MODEL_ALIAS_NAMES) {
    const r = checkModelId(d.aliases[a], { alias: false })
    if (!r.ok) errors[`alias.${a}`] = r.error
  }
  for (const k of NUMBER_FIELDS) {
    const r = checkNumberSetting(k, d[k])
    if (!r.ok) errors[k] = r.error
  }
  return errors
}

/** The patch for a draft without errors. An alias at its default is stored as "the default" (null), so it follows future defaults. */
export function draftPatch(d: Draft, defaults: Record<string, string>): SettingsPatch {
  const num = (k: NumberSetting) => {
    const r = checkNumberSetting(k, d[k])
    if (!r.ok) throw new Error(r.error)
    return r.value
  }
  return {
    baseUrl: d.baseUrl.trim() || null,
    defaultModel: d.defaultModel.trim(),
    modelAliases: Object.fromEntries(MODEL_ALIAS_NAMES.map((a) => [a, d.aliases[a].trim() === defaults[a] ? null : d.aliases[a].trim()])),
    limits: {
      maxConcurrentAgents: num('maxConcurrentAgents')!,
      maxDepth: num('maxDepth')!,
      maxBudgetUsd: num('maxBudgetUsd'),
      maxBudgetTokens: num('maxBudgetTokens'),
      subagentBudgetUsd: num('subagentBudgetUsd'),
      approveFanoutAboveUsd: num('approveFanoutAboveUsd'),
      maxTurns: num('maxTurns')!
    },
    defaultPermissionMode: d.defaultPermissionMode === 'bubble' ? undefined : d.defaultPermissionMode,
    defaultEffort: d.defaultEffort || null,
    coordinator: d.coordinator,
    agentTeams: d.agentTeams,
    promptCacheSharing: d.promptCacheSharing,
    context: { autoCompact: d.autoCompact, autoCompactPercent: num('autoCompactPercent'), toolResultClearing: d.toolResultClearing }
  }
}

/** The draft field each error key edits, to clear a host's error once the person changes that field. */
export function changedFields(before: Draft, after: Draft): SettingsFieldKey[] {
  const out: SettingsFieldKey[] = []
  for (const k of FIELD_ORDER) {
    const get = (d: Draft) => (k.startsWith('alias.') ? d.aliases[k.slice(6) as ModelAliasName] : d[k as keyof Draft])
    if (get(before) !== get(after)) out.push(k)
  }
  return out
}
