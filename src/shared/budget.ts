// Budgets, the history of each agent definition's runs, and what a fan-out will cost before it starts. Pure:
// the runtime records and enforces, the CLI prints, the renderer draws, all from these shapes and folds.
import type { AgentBudget } from './agent-definition'

export type { AgentBudget }

/** Where an agent's budget came from, as the reason that stops it says it. */
export type BudgetSource = 'session' | 'call' | 'definition' | 'setting'

export const BUDGET_SOURCE_TEXT: Readonly<Record<BudgetSource, string>> = {
  session: "the session's budget (Settings → Limits, or --max-budget-usd)",
  call: 'the budget its Agent call gave it',
  definition: "its definition's `budget:`",
  setting: 'the budget every subagent gets (Settings → Limits)'
}

/** The share of a budget at which a warning goes out before it stops anything. */
export const DEFAULT_BUDGET_WARN_PERCENT = 80

/** Spend as a budget counts it: dollars, and tokens of every kind (input, output, cache). */
export interface Spend {
  usd: number
  tokens: number
}

/** How far a spend is into a budget (0..1+, the larger of dollars and tokens); 0 without a limit. */
export function budgetShare(limit: AgentBudget, spent: Spend): number {
  const usd = limit.usd && limit.usd > 0 ? spent.usd / limit.usd : 0
  const tokens = limit.tokens && limit.tokens > 0 ? spent.tokens / limit.tokens : 0
  return Math.max(usd, tokens)
}

/** The budget as people read it: "$2.00 / 500,000 tokens". */
export function budgetText(limit: AgentBudget): string {
  const parts: string[] = []
  if (limit.usd) parts.push(`$${limit.usd.toFixed(2)}`)
  if (limit.tokens) parts.push(`${limit.tokens.toLocaleString('en-US')} tokens`)
  return parts.join(' / ')
}

export function spendText(spent: Spend): string {
  return `$${spent.usd.toFixed(4)} and ${Math.round(spent.tokens).toLocaleString('en-US')} tokens`
}

// ---- History ----------------------------------------------------------------------------------------------

/** How a run of a definition ended; `merged`/`discarded` are later verdicts on its worktree branch in review. */
export type RunOutcome = 'completed' | 'failed' | 'stopped' | 'budget' | 'max_turns' | 'merged' | 'discarded'

/** One line of the history store: a subagent's run, or a review verdict on an earlier run (`verdict`). */
export interface AgentRunRecord {
  ts: number
  sessionId: string
  agentId: string
  agentType: string
  /** The definition's file (absent for built-ins and `--agents` JSON): runs are told apart by it. */
  file?: string
  model?: string
  outcome: RunOutcome
  costUsd: number
  tokens: number
  turns: number
  durationMs: number
  /** Characters of the task it was given: the estimate scales its cost with the prompt's size. */
  promptChars?: number
  /** A review verdict on the run `agentId` made, not a run of its own. */
  verdict?: true
}

export interface AgentStats {
  agentType: string
  file?: string
  runs: number
  /** Runs that completed (or were merged later) out of those that ended. */
  successRate: number | null
  medianCostUsd: number | null
  medianTokens: number | null
  medianTurns: number | null
  medianDurationMs: number | null
  totalCostUsd: number
  outcomes: Partial<Record<RunOutcome, number>>
  /** The latest runs, newest last (with the review verdict folded in). */
  last: AgentRunRecord[]
}

export function median(values: number[]): number | null {
  if (!values.length) return null
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/** A definition's key in the history: its name, and its file when it has one. */
export const historyKey = (r: { agentType: string; file?: string }): string => `${r.agentType}\u0000${r.file ?? ''}`

/** Folds the store's lines into each definition's runs: verdicts replace the outcome of the run they judge. */
export function historyRuns(records: readonly AgentRunRecord[]): Map<string, AgentRunRecord[]> {
  const byAgent = new Map<string, AgentRunRecord>()
  const runs = new Map<string, AgentRunRecord[]>()
  for (const r of records) {
    if (r.verdict) {
      const run = byAgent.get(r.agentId)
      if (run) run.outcome = r.outcome
      continue
    }
    const copy = { ...r }
    // Agent ids are random and never reused: a verdict finds its run by id alone (review knows no session).
    byAgent.set(r.agentId, copy)
    const key = historyKey(r)
    const list = runs.get(key) ?? []
    list.push(copy)
    runs.set(key, list)
  }
  return runs
}

export function agentStats(runs: readonly AgentRunRecord[], lastN = 20): AgentStats {
  const first = runs[0] ?? { agentType: '' }
  const outcomes: Partial<Record<RunOutcome, number>> = {}
  for (const r of runs) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1
  const good = (outcomes.completed ?? 0) + (outcomes.merged ?? 0)
  return {
    agentType: first.agentType,
    ...(first.file ? { file: first.file } : {}),
    runs: runs.length,
    successRate: runs.length ? good / runs.length : null,
    medianCostUsd: median(runs.map((r) => r.costUsd)),
    medianTokens: median(runs.map((r) => r.tokens)),
    medianTurns: median(runs.map((r) => r.turns)),
    medianDurationMs: median(runs.map((r) => r.durationMs)),
    totalCostUsd: runs.reduce((s, r) => s + r.costUsd, 0),
    outcomes,
    last: runs.slice(-lastN)
  }
}

// ---- Estimates --------------------------------------------------------------------------------------------

/** What one Agent call is expected to cost, and from what. */
export interface CallEstimate {
  toolUseId: string
  agentType: string
  low: number
  median: number
  high: number
  /** Recorded runs of this definition the figures come from; 0: a guess from the prompt's size alone. */
  runs: number
}

/** What a turn's Agent calls are expected to cost together (USD). */
export interface FanoutEstimate {
  agents: CallEstimate[]
  low: number
  median: number
  high: number
  /** Above the setting that asks before such a fan-out starts (USD), when one is set. */
  approveAbove?: number
}

/**
 * A definition with no history: a subagent's run is a few dozen requests that re-read a growing context.
 * About 15 requests of 20k tokens at Sonnet's $3/M input with most of it cached, give or take a factor of 3.
 */
const UNKNOWN_RUN_USD = 0.1

/** The nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]
}

/**
 * One call's estimate: the definition's recorded costs (low and high: the cheapest and dearest runs, the
 * median their middle), scaled by how much longer this prompt is than the ones it was given (a long task
 * brief is read on every request), within a factor of 2 either way so that a one-line prompt does not
 * promise a free run. Without history: a fixed guess from the prompt's size, range ÷3 ×3.
 */
/** Per list of runs: its costs in order and its typical prompt, worked out once for a fan-out's many calls of one type. */
interface RunFigures {
  costs: number[]
  middle: number
  typical: number | null
}
const runFigures = new WeakMap<readonly AgentRunRecord[], RunFigures>()

function figuresOf(runs: readonly AgentRunRecord[]): RunFigures {
  let figures = runFigures.get(runs)
  if (!figures) {
    const costs = runs.map((r) => r.costUsd).sort((a, b) => a - b)
    figures = { costs, middle: median(costs) ?? 0, typical: median(runs.map((r) => r.promptChars ?? 0).filter((n) => n > 0)) }
    runFigures.set(runs, figures)
  }
  return figures
}

/** `runs` is read, never changed (its figures are kept for the next call with the same list). */
export function estimateCall(call: { toolUseId: string; agentType: string; promptChars: number }, runs: readonly AgentRunRecord[]): CallEstimate {
  const { costs, middle, typical } = figuresOf(runs)
  if (!costs.length) {
    const mid = UNKNOWN_RUN_USD * Math.min(4, Math.max(1, call.promptChars / 4000))
    return { toolUseId: call.toolUseId, agentType: call.agentType, low: mid / 3, median: mid, high: mid * 3, runs: 0 }
  }
  const scale = typical ? Math.min(2, Math.max(0.5, (call.promptChars + 2000) / (typical + 2000))) : 1
  return {
    toolUseId: call.toolUseId,
    agentType: call.agentType,
    low: percentile(costs, 0) * Math.min(1, scale),
    median: middle * scale,
    high: percentile(costs, 1) * Math.max(1, scale),
    runs: costs.length
  }
}

export function sumEstimates(agents: CallEstimate[], approveAbove?: number): FanoutEstimate {
  const sum = (k: 'low' | 'median' | 'high') => agents.reduce((s, a) => s + a[k], 0)
  return { agents, low: sum('low'), median: sum('median'), high: sum('high'), ...(approveAbove ? { approveAbove } : {}) }
}

const usd = (n: number) => (n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`)

/** "16 agents: about $0.80 ($0.40–$1.60)". */
export function estimateText(e: FanoutEstimate): string {
  const n = e.agents.length
  const known = e.agents.filter((a) => a.runs > 0).length
  const basis = known === n ? 'from their recorded runs' : known === 0 ? 'no recorded runs: a guess from the prompts' : `${known} of ${n} from recorded runs`
  return `${n} agent${n === 1 ? '' : 's'}: about ${usd(e.median)} (${usd(e.low)}–${usd(e.high)}), ${basis}`
}
