// The `result` message of `--output-format json` and the last line of `stream-json`, in Claude Code's schema
// (type, subtype, is_error, num_turns, snake_case usage of the main loop, modelUsage per model in camelCase,
// permission_denials, terminal_reason, subagent_stats), so scripts and CI jobs written for Claude Code read
// it unchanged. Fanout adds `status` (its own run status) and `error`; docs/claude-code-differences.md lists
// the keys Claude Code has that Fanout leaves out.
import { cleanUuid } from '../../runtime/random-hex'
import { apiUsage, emptyUsage } from '../../../shared/usage'
import type { AgentRunResult } from '../../runtime/loop/types'
import { contextWindowFor } from '../../runtime/model/context-window'
import { modelMaxTokens } from '../../runtime/model/effort'
import type { PermissionDenial, RunTally, SubagentStats } from './run-tally'

export type ResultSubtype = 'success' | 'error_during_execution' | 'error_max_turns' | 'error_max_budget_usd'

export interface ModelUsageEntry {
  inputTokens: number
  outputTokens: number
  cacheReadInputTokens: number
  cacheCreationInputTokens: number
  webSearchRequests: number
  costUSD: number
  contextWindow: number
  maxOutputTokens: number
}

export interface ResultMessage {
  type: 'result'
  subtype: ResultSubtype
  is_error: boolean
  duration_ms: number
  duration_api_ms: number
  num_turns: number
  result: string
  stop_reason: string | null
  session_id: string
  total_cost_usd: number
  usage: ReturnType<typeof apiUsage> & { server_tool_use: { web_search_requests: number; web_fetch_requests: number }; service_tier: string }
  modelUsage: Record<string, ModelUsageEntry>
  permission_denials: PermissionDenial[]
  /** Left out, as Claude Code leaves it out, when a UserPromptSubmit hook kept the prompt from the model. */
  terminal_reason?: string
  subagent_stats: SubagentStats
  api_error_status: number | null
  /** On an API error: its type as the API named it (`invalid_request_error`, `overloaded_error`…), as Claude Code's. */
  api_error_type?: string
  uuid: string
  /** On the error subtypes: what went wrong. */
  errors?: string[]
  /** Fanout: the main agent's run status (completed, failed, stopped, max_turns). */
  status: AgentRunResult['status']
  /** Fanout: why it failed or stopped. */
  error?: string
  /** Fanout: the runaway guard that ended the main agent's run, if one did (see AgentLimit). */
  limit?: AgentRunResult['limit']
  /** Fanout: conversations compacted during the run (any agent's), and compactions that failed. */
  compactions: { done: number; failed: number }
  /**
   * Fanout: every agent of the run, the main one first, with its own usage (its children's not included; cache
   * reads and writes apart) and what that cost at the API's prices (writes 1.25x or 2x the input price, reads 0.1x).
   */
  agents: AgentCost[]
  /** Fanout: each fan-out's estimate before it started (docs/budgets.md); absent when no agent started subagents. */
  estimates?: RunTally['estimates']
  /** Fanout: budgets that warned or were reached; absent when none did. */
  budgets?: RunTally['budgets']
}

export interface AgentCost {
  agent_id: string
  agent_type: string
  model: string
  status: string
  usage: ReturnType<typeof apiUsage>
  cost_usd: number
}

export interface ResultInput {
  sessionId: string
  result: AgentRunResult
  tally: RunTally
  /** The person pressed Ctrl-C. */
  interrupted: boolean
  /** The session's spend ceiling stopped it. */
  overBudget: boolean
  /** Windows the settings give models (`context.windows`): the window each model was run with. */
  windows?: Readonly<Record<string, number>>
}

/** Results of a prompt a UserPromptSubmit hook refused: stream-json says so in a `system/informational` line before them. */
const refusals = new WeakMap<ResultMessage, NonNullable<AgentRunResult['promptRefused']>>()

export function promptRefusalOf(summary: ResultMessage): AgentRunResult['promptRefused'] {
  return refusals.get(summary)
}

/** A run that answered `text` without a model call (a local slash command), begun at `startedAt`. */
export function answeredRun(text: string, startedAt: number): AgentRunResult {
  return {
    status: 'completed',
    result: text,
    numTurns: 0,
    toolUses: 0,
    usage: emptyUsage(),
    durationMs: Date.now() - startedAt,
    messages: [],
    model: '',
    stopReason: null
  }
}

export function resultMessage({ sessionId, result, tally, interrupted, overBudget, windows }: ResultInput): ResultMessage {
  const modelUsage: Record<string, ModelUsageEntry> = {}
  let cost = 0
  for (const [model, u] of tally.byModel) {
    cost += u.costUsd
    modelUsage[model] = {
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      cacheReadInputTokens: u.cacheReadTokens,
      cacheCreationInputTokens: u.cacheWriteTokens,
      webSearchRequests: 0,
      costUSD: u.costUsd,
      contextWindow: contextWindowFor(model, windows),
      maxOutputTokens: modelMaxTokens(model)
    }
  }
  const status: AgentRunResult['status'] = interrupted ? 'stopped' : result.status
  const error = interrupted ? 'Interrupted: the run was stopped with Ctrl-C before it finished.' : result.error
  const apiError = !interrupted && result.status === 'failed' ? result.apiError : undefined
  const apiStatus = apiError?.status ?? NaN
  let subtype: ResultSubtype = 'success'
  let terminal = 'completed'
  if (status === 'max_turns') {
    subtype = 'error_max_turns'
    terminal = 'max_turns'
  } else if (status === 'failed' && overBudget) {
    subtype = 'error_max_budget_usd'
    terminal = 'budget_exhausted'
  } else if (status === 'failed') {
    subtype = 'error_during_execution'
    terminal = apiError ? 'api_error' : 'model_error'
  } else if (status === 'stopped') {
    subtype = 'error_during_execution'
    terminal = 'aborted_streaming'
  } else if (result.hookStop) terminal = result.hookStop.terminal
  const isError = subtype !== 'success'
  const refused = !interrupted && result.promptRefused
  const summary: ResultMessage = {
    type: 'result',
    subtype,
    is_error: isError,
    duration_ms: Date.now() - tally.startedAt,
    duration_api_ms: tally.apiMs,
    num_turns: tally.mainTurns,
    result: resultText(status, result, error),
    stop_reason: tally.lastStopReason,
    session_id: sessionId,
    total_cost_usd: Math.round(cost * 1e6) / 1e6,
    usage: { ...apiUsage(tally.mainUsage), server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 }, service_tier: 'standard' },
    modelUsage,
    permission_denials: tally.denials,
    ...(refused ? {} : { terminal_reason: terminal }),
    subagent_stats: tally.stats,
    api_error_status: Number.isFinite(apiStatus) ? apiStatus : null,
    ...(apiError?.type ? { api_error_type: apiError.type } : {}),
    uuid: cleanUuid(),
    ...(isError
      ? { errors: [status === 'max_turns' ? `Reached maximum number of turns (${tally.mainTurns})` : (error ?? `The run ended as ${status}.`)] }
      : {}),
    status,
    ...(error ? { error } : {}),
    ...(result.limit && !interrupted ? { limit: result.limit } : {}),
    agents: [...tally.byAgent].map(([id, a]) => ({
      agent_id: id,
      agent_type: a.type,
      model: a.model,
      status: a.status,
      usage: apiUsage(a.usage),
      cost_usd: Math.round(a.usage.costUsd * 1e9) / 1e9
    })),
    compactions: { ...tally.compactions },
    ...(tally.estimates.length ? { estimates: tally.estimates } : {}),
    ...(tally.budgets.length ? { budgets: tally.budgets } : {})
  }
  if (refused) refusals.set(summary, refused)
  return summary
}

/**
 * `result` never looks like an answer when the run failed: a model call's failure reads as Claude Code's
 * `API Error: <status> <the API's message>`, any other failure is its reason (a run that did no work would
 * otherwise print an empty result and a script could not tell why).
 */
export function resultText(status: AgentRunResult['status'], result: AgentRunResult, error: string | undefined): string {
  if (status !== 'failed') return result.result
  const api = result.apiError
  if (api) return `API Error: ${api.status !== null ? `${api.status} ` : ''}${api.message}`
  return error ?? result.result
}
