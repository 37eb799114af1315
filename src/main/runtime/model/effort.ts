// An agent's `effort` (the session's, a definition's field, or the Agent tool's per-call `effort`) as the
// Messages API's settings, for the models that have them. The mapping:
//
//   no effort set: the model's own default, as Claude Code 2.1.328 sends it: medium on every 5.x model, xhigh on
//     Opus 4.7+, high on Opus/Sonnet 4.6 and Opus 4.5 (each with adaptive thinking where the model has it, and
//     Opus 4.5 with a thinking budget of max_tokens - 1), and thinking with a budget of max_tokens - 1 on models
//     with extended thinking but no effort parameter (Sonnet/Haiku 4.5, Opus/Sonnet 4 and 4.1). Older models
//     (3.x) and ids outside the Claude families get nothing.
//   level (low | medium | high | xhigh | max), on a model with the effort parameter (Opus 4.5+, Sonnet 4.6+,
//     Haiku 5+, and later families):   output_config.effort = level, plus thinking {type: "adaptive"} where the
//     model thinks adaptively (Opus/Sonnet 4.6+, every 5.x model) so that effort also sets how much it thinks.
//     A level the model lacks falls to the nearest one below: `xhigh` is high before Opus 4.7 and 5.x, `max`
//     is high on Opus 4.5.
//   level, on a model with extended thinking but no effort parameter (Sonnet 3.7 to 4.5, Haiku 4.5, Opus 4/4.1):
//     thinking {type: "enabled"} with a budget: low none, medium 4,096, high 16,384, max 31,999 tokens.
//   a number, on a model with manual extended thinking: thinking {type: "enabled", budget_tokens: N}
//     (at least 1,024, below max_tokens); on a model that only thinks adaptively (Opus 4.7+, 5.x): the nearest
//     level (up to 4,096 low, 16,384 medium, 32,000 high, more max), as above.
//   anything else (older models, ids outside the Claude families, e.g. a gateway's): nothing is sent, and no
//     error: the agent runs as it would without an effort.
//   thinking turned off (`alwaysThinkingEnabled: false`): thinking {type: "disabled"} on models that think only
//     with a budget; models that think adaptively keep adaptive thinking (their effort sets how much), as in
//     Claude Code.
// max_tokens follows the model too: 128,000 on 5.x models, 64,000 on Opus 4.7+, else 32,000.
import type { Effort, ThinkingConfig } from './types'
import { DEFAULT_MAX_TOKENS } from './request-body'

export type EffortSetting = Effort | number

export const EFFORT_LEVELS: readonly Effort[] = ['low', 'medium', 'high', 'xhigh', 'max']

export interface ModelCapabilities {
  /** output_config.effort */
  effort: boolean
  /** The `max` level. */
  maxEffort: boolean
  /** The `xhigh` level. */
  xhighEffort?: boolean
  /** thinking {type: "adaptive"}. */
  adaptive: boolean
  /** thinking {type: "enabled", budget_tokens}. */
  manualThinking: boolean
  /** context_management (clearing old tool results on the API's side): Claude 4 models and later, Haiku from 4.5. */
  contextManagement: boolean
  /** The level used when none is set (models with the effort parameter). */
  defaultEffort?: Effort
  /** Extended thinking on by default, with the largest budget (models without the effort parameter). */
  thinksByDefault?: boolean
  /** max_tokens sent when nothing else says. */
  maxTokens?: number
}

const NONE: ModelCapabilities = { effort: false, maxEffort: false, adaptive: false, manualThinking: false, contextManagement: false }
const LATEST: ModelCapabilities = {
  effort: true,
  maxEffort: true,
  xhighEffort: true,
  adaptive: true,
  manualThinking: false,
  defaultEffort: 'medium',
  maxTokens: 128_000,
  contextManagement: true
}

/** What a Claude model id supports, from its family and version; nothing for ids it cannot read. */
export function modelCapabilities(modelId: string): ModelCapabilities {
  const id = modelId.toLowerCase()
  // claude-opus-4-5, claude-sonnet-4-5-20250929, claude-haiku-5-5, claude-mythos-preview, claude-fable-5-1
  const modern = /claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d{1,2})(?!\d))?/.exec(id)
  // claude-3-7-sonnet-20250219, claude-3-5-haiku-latest
  const legacy = /claude-(\d+)-(\d+)-(opus|sonnet|haiku)/.exec(id)
  if (!modern && !legacy) return /claude-mythos/.test(id) ? LATEST : NONE
  const family = modern ? modern[1] : legacy![3]
  const version = modern ? Number(modern[2]) + Number(modern[3] ?? 0) / 10 : Number(legacy![1]) + Number(legacy![2]) / 10
  if (family === 'fable' || family === 'mythos' || version >= 5) return LATEST
  if (family === 'opus') {
    if (version >= 4.7)
      return {
        effort: true,
        maxEffort: true,
        xhighEffort: true,
        adaptive: true,
        manualThinking: false,
        defaultEffort: 'xhigh',
        maxTokens: 64_000,
        contextManagement: true
      }
    if (version >= 4.6) return { effort: true, maxEffort: true, adaptive: true, manualThinking: true, defaultEffort: 'high', contextManagement: true }
    if (version >= 4.5)
      return { effort: true, maxEffort: false, adaptive: false, manualThinking: true, defaultEffort: 'high', thinksByDefault: true, contextManagement: true }
    return { ...NONE, manualThinking: version >= 4, thinksByDefault: version >= 4, contextManagement: version >= 4 }
  }
  if (family === 'sonnet') {
    if (version >= 4.6) return { effort: true, maxEffort: true, adaptive: true, manualThinking: true, defaultEffort: 'high', contextManagement: true }
    return { ...NONE, manualThinking: version >= 3.7, thinksByDefault: version >= 4, contextManagement: version >= 4 }
  }
  // haiku below 5
  return { ...NONE, manualThinking: version >= 4.5, thinksByDefault: version >= 4.5, contextManagement: version >= 4.5 }
}

/** max_tokens for a model when nothing else sets it. */
export function modelMaxTokens(modelId: string): number {
  return modelCapabilities(modelId).maxTokens ?? DEFAULT_MAX_TOKENS
}

const LEVEL_BUDGETS: Record<Effort, number | null> = { low: null, medium: 4_096, high: 16_384, xhigh: 24_576, max: 31_999 }

function levelOf(budget: number): Effort {
  return budget <= 4_096 ? 'low' : budget <= 16_384 ? 'medium' : budget <= 32_000 ? 'high' : 'max'
}

/** Reads `effort` as written (a definition may say "High" or "8000"); undefined for anything else. */
export function readEffort(value: unknown): EffortSetting | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value
  if (typeof value !== 'string') return undefined
  const v = value.trim().toLowerCase()
  if ((EFFORT_LEVELS as readonly string[]).includes(v)) return v as Effort
  return /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined
}

/** The level the model offers for `level`: the nearest one at or below it. */
function offeredLevel(level: Effort, caps: ModelCapabilities): Effort {
  if (level === 'max' && !caps.maxEffort) return caps.xhighEffort ? 'xhigh' : 'high'
  if (level === 'xhigh' && !caps.xhighEffort) return 'high'
  return level
}

export interface EffortOptions {
  /** max_tokens of the request (default: the model's). */
  maxTokens?: number
  /** false: thinking off where the model allows it (`alwaysThinkingEnabled: false`). */
  thinking?: boolean
}

/**
 * The request settings for `effort` on `model` (spread into the loop's options): the model's defaults when no
 * effort is set; empty for a model that has none. `maxTokens` is the model's own unless the caller set one.
 */
export function effortRequest(model: string, effort: unknown, opts: EffortOptions = {}): { thinking?: ThinkingConfig; effort?: Effort; maxTokens: number } {
  const caps = modelCapabilities(model)
  const maxTokens = opts.maxTokens ?? caps.maxTokens ?? DEFAULT_MAX_TOKENS
  const clampBudget = (n: number) => Math.max(1_024, Math.min(n, maxTokens - 1))
  const canBudget = caps.manualThinking && maxTokens > 1_024
  const noThinking = opts.thinking === false && caps.manualThinking ? { thinking: { type: 'disabled' } as ThinkingConfig } : {}
  const setting = readEffort(effort)
  if (setting === undefined) {
    const thinking =
      opts.thinking !== false && caps.thinksByDefault && canBudget
        ? { thinking: { type: 'enabled', budget_tokens: maxTokens - 1 } as ThinkingConfig }
        : caps.adaptive
          ? { thinking: { type: 'adaptive' } as ThinkingConfig }
          : noThinking
    return { maxTokens, ...(caps.defaultEffort ? { effort: caps.defaultEffort } : {}), ...thinking }
  }
  if (typeof setting === 'number') {
    if (opts.thinking !== false && canBudget) return { maxTokens, thinking: { type: 'enabled', budget_tokens: clampBudget(setting) } }
    if (caps.effort) return effortRequest(model, levelOf(setting), { ...opts, maxTokens })
    return { maxTokens, ...noThinking }
  }
  if (caps.effort) return { maxTokens, effort: offeredLevel(setting, caps), ...(caps.adaptive ? { thinking: { type: 'adaptive' } } : noThinking) }
  const budget = LEVEL_BUDGETS[setting]
  if (opts.thinking !== false && canBudget && budget !== null) return { maxTokens, thinking: { type: 'enabled', budget_tokens: clampBudget(budget) } }
  return { maxTokens, ...noThinking }
}

/** The effort level a request for `model` carries with `effort` (what hooks see as `effort.level`), if any. */
export function effortLevel(model: string, effort: unknown): Effort | undefined {
  return effortRequest(model, effort).effort
}
