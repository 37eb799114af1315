// An agent's `effort` (a definition's field, or the Agent tool's per-call `effort`) as the Messages API's
// settings, for the models that have them. The mapping:
//
//   level (low | medium | high | max), on a model with the effort parameter (Opus 4.5+, Sonnet 4.6+, Haiku 5+,
//     and later families):   output_config.effort = level, plus thinking {type: "adaptive"} where the model
//     thinks adaptively (Opus/Sonnet 4.6+, every 5.x model) so that effort also sets how much it thinks.
//     `max` becomes `high` on Opus 4.5, which predates it.
//   level, on a model with extended thinking but no effort parameter (Sonnet 3.7 to 4.5, Haiku 4.5, Opus 4/4.1):
//     thinking {type: "enabled"} with a budget: low none, medium 4,096, high 16,384, max 31,999 tokens.
//   a number, on a model with manual extended thinking: thinking {type: "enabled", budget_tokens: N}
//     (at least 1,024, below max_tokens); on a model that only thinks adaptively (Opus 4.7+, 5.x): the nearest
//     level (up to 4,096 low, 16,384 medium, 32,000 high, more max), as above.
//   anything else (older models, ids outside the Claude families, e.g. a gateway's): nothing is sent, and no
//     error: the agent runs as it would without an effort.
import type { Effort, ThinkingConfig } from './types'
import { DEFAULT_MAX_TOKENS } from './request-body'

export type EffortSetting = 'low' | 'medium' | 'high' | 'max' | number

export interface ModelCapabilities {
  /** output_config.effort */
  effort: boolean
  /** The `max` level. */
  maxEffort: boolean
  /** thinking {type: "adaptive"}. */
  adaptive: boolean
  /** thinking {type: "enabled", budget_tokens}. */
  manualThinking: boolean
  /** context_management (clearing old tool results on the API's side): Claude 4 models and later, Haiku from 4.5. */
  contextManagement: boolean
}

const NONE: ModelCapabilities = { effort: false, maxEffort: false, adaptive: false, manualThinking: false, contextManagement: false }

/** What a Claude model id supports, from its family and version; nothing for ids it cannot read. */
export function modelCapabilities(modelId: string): ModelCapabilities {
  const id = modelId.toLowerCase()
  // claude-opus-4-5, claude-sonnet-4-5-20250929, claude-haiku-5-5, claude-mythos-preview, claude-fable-5-1
  const modern = /claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d{1,2})(?!\d))?/.exec(id)
  // claude-3-7-sonnet-20250219, claude-3-5-haiku-latest
  const legacy = /claude-(\d+)-(\d+)-(opus|sonnet|haiku)/.exec(id)
  if (!modern && !legacy) return /claude-mythos/.test(id) ? { effort: true, maxEffort: true, adaptive: true, manualThinking: false, contextManagement: true } : NONE
  const family = modern ? modern[1] : legacy![3]
  const version = modern ? Number(modern[2]) + Number(modern[3] ?? 0) / 10 : Number(legacy![1]) + Number(legacy![2]) / 10
  if (family === 'fable' || family === 'mythos' || version >= 5) return { effort: true, maxEffort: true, adaptive: true, manualThinking: false, contextManagement: true }
  if (family === 'opus') {
    if (version >= 4.7) return { effort: true, maxEffort: true, adaptive: true, manualThinking: false, contextManagement: true }
    if (version >= 4.6) return { effort: true, maxEffort: true, adaptive: true, manualThinking: true, contextManagement: true }
    if (version >= 4.5) return { effort: true, maxEffort: false, adaptive: false, manualThinking: true, contextManagement: true }
    return { ...NONE, manualThinking: version >= 4, contextManagement: version >= 4 }
  }
  if (family === 'sonnet') {
    if (version >= 4.6) return { effort: true, maxEffort: true, adaptive: true, manualThinking: true, contextManagement: true }
    return { ...NONE, manualThinking: version >= 3.7, contextManagement: version >= 4 }
  }
  // haiku below 5
  return { ...NONE, manualThinking: version >= 4.5, contextManagement: version >= 4.5 }
}

const LEVEL_BUDGETS: Record<'low' | 'medium' | 'high' | 'max', number | null> = { low: null, medium: 4_096, high: 16_384, max: 31_999 }

function levelOf(budget: number): 'low' | 'medium' | 'high' | 'max' {
  return budget <= 4_096 ? 'low' : budget <= 16_384 ? 'medium' : budget <= 32_000 ? 'high' : 'max'
}

/** Reads `effort` as written (a definition may say "High" or "8000"); undefined for anything else. */
export function readEffort(value: unknown): EffortSetting | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value
  if (typeof value !== 'string') return undefined
  const v = value.trim().toLowerCase()
  if (v === 'low' || v === 'medium' || v === 'high' || v === 'max') return v
  return /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined
}

/** The request settings for `effort` on `model` (spread into the loop's options); empty when the model has none. */
export function effortRequest(model: string, effort: unknown, maxTokens = DEFAULT_MAX_TOKENS): { thinking?: ThinkingConfig; effort?: Effort } {
  const setting = readEffort(effort)
  if (setting === undefined) return {}
  const caps = modelCapabilities(model)
  const clampBudget = (n: number) => Math.max(1_024, Math.min(n, maxTokens - 1))
  if (typeof setting === 'number') {
    if (caps.manualThinking && maxTokens > 1_024) return { thinking: { type: 'enabled', budget_tokens: clampBudget(setting) } }
    if (caps.effort) return effortRequest(model, levelOf(setting), maxTokens)
    return {}
  }
  if (caps.effort) {
    const level: Effort = setting === 'max' && !caps.maxEffort ? 'high' : setting
    return { effort: level, ...(caps.adaptive ? { thinking: { type: 'adaptive' } } : {}) }
  }
  const budget = LEVEL_BUDGETS[setting]
  if (caps.manualThinking && budget !== null && maxTokens > 1_024) return { thinking: { type: 'enabled', budget_tokens: clampBudget(budget) } }
  return {}
}
