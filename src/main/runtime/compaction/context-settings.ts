// The person's context settings (settings.json `context`) turned into what one agent's run uses, for its model
// and endpoint: its window, the compaction threshold, and how old tool results are cleared.
import type { ContextLimits } from '../../../shared/events'
import type { ClearingChoice } from '../../../shared/settings-fields'
import { compactThreshold, contextWindowFor } from '../model/context-window'
import { modelCapabilities } from '../model/effort'
import { DEFAULT_MAX_TOKENS } from '../model/request-body'
import type { ContextOptions } from './context-control'
import type { ClearingMode } from './tool-result-clearing'

export { CLEARING_CHOICES, type ClearingChoice } from '../../../shared/settings-fields'

export interface ContextSettings {
  /** Compact automatically at the threshold (and when the API says the prompt is too long). */
  autoCompact: boolean
  /** The threshold as a share of the window (1-100); absent: Claude Code's (the window less 33k: 83.5% of 200k, 96.7% of 1M). */
  autoCompactPercent?: number
  /**
   * Old tool results: `auto` has the API clear them where the model and endpoint support it (Anthropic's API,
   * Claude 4 and later) and clears them here otherwise; `api` asks the API whenever the model supports it;
   * `local` always clears here; `off` keeps them all.
   */
  toolResultClearing: ClearingChoice
  /** The most recent tool calls whose results are never cleared. */
  keepToolResults: number
  /** Context windows by model id, for models the built-in table does not know (a gateway's, a 1M variant). */
  windows: Record<string, number>
}

export const DEFAULT_CONTEXT_SETTINGS: Readonly<ContextSettings> = Object.freeze({
  autoCompact: true,
  toolResultClearing: 'auto',
  keepToolResults: 5,
  windows: {}
})

/** Recent turns kept as they are by a compaction: a fifth of the window, at most 40,000 tokens. */
export const keepTokensFor = (window: number): number => Math.min(40_000, Math.floor(window * 0.2))
/** Room for a summary: a tenth of the window, between 1,024 and 16,000 tokens. */
export const summaryTokensFor = (window: number): number => Math.min(16_000, Math.max(1_024, Math.floor(window * 0.1)))

function isAnthropicApi(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname === 'api.anthropic.com'
  } catch {
    return false
  }
}

function clearingMode(choice: ClearingChoice, model: string, baseURL: string): ClearingMode {
  if (choice === 'off' || choice === 'local') return choice
  const supported = modelCapabilities(model).contextManagement
  if (choice === 'api') return supported ? 'api' : 'local'
  // A gateway may refuse the beta field, so `auto` asks only Anthropic's own API.
  return supported && isAnthropicApi(baseURL) ? 'api' : 'local'
}

export function contextLimitsFor(model: string, s: ContextSettings, maxOutputTokens = DEFAULT_MAX_TOKENS): ContextLimits {
  const window = contextWindowFor(model, s.windows)
  return {
    window,
    threshold: compactThreshold(window, { ...(s.autoCompactPercent !== undefined ? { percent: s.autoCompactPercent } : {}), maxOutputTokens }),
    autoCompact: s.autoCompact
  }
}

export function contextOptionsFor(
  model: string,
  s: ContextSettings,
  o: { baseURL: string; maxOutputTokens?: number; takeRequest?: ContextOptions['takeRequest']; hooks?: ContextOptions['hooks'] }
): ContextOptions {
  const limits = contextLimitsFor(model, s, o.maxOutputTokens)
  return {
    limits,
    clearing: {
      mode: clearingMode(s.toolResultClearing, model, o.baseURL),
      // The API's own default trigger is 100,000 tokens: half of a 200k window.
      trigger: Math.floor(limits.window / 2),
      keep: s.keepToolResults,
      clearAtLeast: Math.floor(limits.window / 10)
    },
    keepTokens: keepTokensFor(limits.window),
    summaryMaxTokens: summaryTokensFor(limits.window),
    ...(o.takeRequest ? { takeRequest: o.takeRequest } : {}),
    ...(o.hooks ? { hooks: o.hooks } : {})
  }
}
