// Fanout's stored settings as the UI sees them (never the key, only whether there is one), and the UI's
// patches as store patches.
import type { Settings as UiSettings, SettingsPatch as UiPatch } from '../../../shared/ipc-contract'
import { DEFAULT_MODEL_ALIASES } from '../model/aliases'
import type { Settings, SettingsPatch } from '../store'

export type KeySource = 'stored' | 'environment' | 'none'

export function settingsView(s: Settings, keySource: KeySource, baseRef: UiSettings['worktreeBaseRef']): UiSettings {
  return {
    hasApiKey: keySource !== 'none',
    apiKeySource: keySource,
    baseUrl: s.baseURL ?? null,
    defaultModel: s.defaultModel,
    modelAliases: { ...s.modelAliases },
    defaultModelAliases: { ...DEFAULT_MODEL_ALIASES },
    limits: {
      maxConcurrentAgents: s.limits.maxConcurrent,
      maxDepth: Math.max(1, s.limits.maxDepth),
      maxBudgetUsd: s.limits.budgetUsd > 0 ? s.limits.budgetUsd : null,
      maxBudgetTokens: s.limits.budgetTokens > 0 ? s.limits.budgetTokens : null,
      subagentBudgetUsd: s.limits.subagentBudgetUsd > 0 ? s.limits.subagentBudgetUsd : null,
      approveFanoutAboveUsd: s.limits.approveFanoutAboveUsd > 0 ? s.limits.approveFanoutAboveUsd : null,
      maxTurns: s.limits.maxTurns
    },
    defaultPermissionMode: s.defaultPermissionMode,
    defaultEffort: s.defaultEffort ?? null,
    coordinator: s.coordinator,
    agentTeams: s.agentTeams,
    promptCacheSharing: s.promptCacheSharing,
    theme: s.theme,
    firstRunSkipped: s.firstRunSkipped,
    context: { autoCompact: s.context.autoCompact, autoCompactPercent: s.context.autoCompactPercent ?? null, toolResultClearing: s.context.toolResultClearing },
    mergeStrategy: s.mergeStrategy,
    worktreeBaseRef: baseRef
  }
}

/** The UI's patch (already checked against the contract: three aliases, ranges, model ids) as a store patch. */
export function storePatch(p: UiPatch): SettingsPatch {
  const out: SettingsPatch = {}
  if (p.baseUrl !== undefined) out.baseURL = p.baseUrl
  if (p.defaultModel !== undefined) out.defaultModel = p.defaultModel
  if (p.defaultPermissionMode !== undefined) out.defaultPermissionMode = p.defaultPermissionMode
  if (p.defaultEffort !== undefined) out.defaultEffort = p.defaultEffort
  if (p.coordinator !== undefined) out.coordinator = p.coordinator
  if (p.agentTeams !== undefined) out.agentTeams = p.agentTeams
  if (p.promptCacheSharing !== undefined) out.promptCacheSharing = p.promptCacheSharing
  if (p.theme !== undefined) out.theme = p.theme
  if (p.firstRunSkipped !== undefined) out.firstRunSkipped = p.firstRunSkipped
  if (p.mergeStrategy !== undefined) out.mergeStrategy = p.mergeStrategy
  if (p.modelAliases) out.modelAliases = p.modelAliases
  if (p.context) out.context = { ...p.context }
  if (p.limits) {
    const l = p.limits
    out.limits = {
      ...(l.maxConcurrentAgents !== undefined ? { maxConcurrent: l.maxConcurrentAgents } : {}),
      ...(l.maxDepth !== undefined ? { maxDepth: l.maxDepth } : {}),
      ...(l.maxBudgetUsd !== undefined ? { budgetUsd: l.maxBudgetUsd ?? 0 } : {}),
      ...(l.maxBudgetTokens !== undefined ? { budgetTokens: l.maxBudgetTokens ?? 0 } : {}),
      ...(l.subagentBudgetUsd !== undefined ? { subagentBudgetUsd: l.subagentBudgetUsd ?? 0 } : {}),
      ...(l.approveFanoutAboveUsd !== undefined ? { approveFanoutAboveUsd: l.approveFanoutAboveUsd ?? 0 } : {}),
      ...(l.maxTurns !== undefined ? { maxTurns: l.maxTurns } : {})
    }
  }
  return out
}
