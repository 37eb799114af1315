// Budgets (dollars, tokens), enforced where they are spent: before each model call. The session's budget is
// checked by the session's client; an agent's own budget (its Agent call's `budget`, its definition's
// `budget:`, else the setting every subagent gets) covers it and every agent under it, and is checked by
// the client each run is given (`agentBudgetClient`), one more predicate in the same place. An agent whose
// next call would go past a budget ends as failed, `limit: 'budget'`, its reason saying which budget, what
// was spent and what its parent can do; every agent under the budget's holder stops the same way at its own
// next call, so a subtree stops within one request of each agent in flight. A warning (a `budget` event)
// goes out once when a budget passes its warning share. Agents that keep spawning past the session's limit
// are stopped here too (`limit: 'spawn_limit'`, see SpawnGate.spawnRunaway). Each is a stop condition of the
// one list the loop asks (loop/stop/).
import { BUDGET_SOURCE_TEXT, budgetShare, budgetText, spendText, type BudgetSource, type Spend } from '../../../../shared/budget'
import type { AgentBudget } from '../../../../shared/agent-definition'
import type { BudgetEvent, EventBase } from '../../../../shared/events'
import { guardedClient, type StopCondition, type StopVerdict } from '../../loop/stop'
import type { ModelClient } from '../../model/types'
import type { SessionContext } from '../types'
import type { AgentHandle } from './agent-registry'
import type { SpawnGate } from './limits'

type Verdict = Omit<StopVerdict, 'by'>

/** The session's stop conditions, asked before every model call of any of its agents: its spawn runaway guard and its budget. */
export function sessionStops(gate: SpawnGate): StopCondition[] {
  return [
    {
      name: 'spawn_runaway',
      at: 'request',
      check: () => {
        const runaway = gate.spawnRunaway()
        return runaway ? { limit: 'spawn_limit', message: runaway } : null
      }
    },
    {
      name: 'session_budget',
      at: 'request',
      check: () => {
        const over = gate.overBudget()
        return over
          ? {
              limit: 'budget',
              message: `Stopped at the session's budget: ${over} No further model calls are made; raise the budget in Settings → Limits (or --max-budget-usd) to continue.`
            }
          : null
      }
    }
  ]
}

/** The session's client: its stop conditions asked before each call. */
export const budgetedClient = (client: ModelClient, gate: SpawnGate): ModelClient => guardedClient(client, sessionStops(gate))

/** An agent's own budget and its ancestors', as the stop condition its run adds to the loop's list. */
export function subtreeBudget(host: BudgetHost, handle: AgentHandle): StopCondition {
  return { name: 'subtree_budget', at: 'request', check: () => subtreeBudgetStop(host, handle) }
}

/** An agent's own budget and where it came from; kept on its handle and said in its agent_start. */
export type HeldBudget = NonNullable<AgentHandle['budget']>

/** What the budget checks need from the session. */
export type BudgetHost = Pick<SessionContext, 'registry' | 'gate' | 'mainAgentId' | 'sessionId' | 'emit'>

/** The budget a new subagent carries: its call's, else its definition's, else the setting's; null: none. */
export function budgetFor(call: AgentBudget | undefined, definition: AgentBudget | undefined, limits: SpawnGate['limits']): HeldBudget | null {
  if (call && (call.usd || call.tokens)) return { ...call, from: 'call' }
  if (definition && (definition.usd || definition.tokens)) return { ...definition, from: 'definition' }
  const { subagentBudgetUsd: usd, subagentBudgetTokens: tokens } = limits
  if (usd > 0 || tokens > 0) return { ...(usd > 0 ? { usd } : {}), ...(tokens > 0 ? { tokens } : {}), from: 'setting' }
  return null
}

const spendOf = (u: { costUsd: number; inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number }): Spend => ({
  usd: u.costUsd,
  tokens: u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens
})

/**
 * Checks, before `handle`'s next model call, its own budget and every ancestor's (whose subtree it is part of),
 * and the session's for warnings: the first budget reached, as the error that refuses the call; null while
 * every one holds. Warnings go out as `budget` events on the holder.
 */
export function subtreeBudgetStop(host: BudgetHost, handle: AgentHandle): Verdict | null {
  const warnAt = host.gate.limits.budgetWarnPercent / 100
  const main = host.registry.get(host.mainAgentId)
  const { budgetUsd, budgetTokens } = host.gate.limits
  if (main && (budgetUsd > 0 || budgetTokens > 0)) {
    const limit: AgentBudget = { ...(budgetUsd > 0 ? { usd: budgetUsd } : {}), ...(budgetTokens > 0 ? { tokens: budgetTokens } : {}) }
    const spent = host.gate.spent()
    warnOnce(host, main, limit, 'session', { usd: spent.costUsd, tokens: spent.tokens }, warnAt)
  }
  for (let at: AgentHandle | undefined = handle; at; at = at.parentId ? host.registry.get(at.parentId) : undefined) {
    const budget = at.budget
    if (!budget) continue
    const spent = spendOf(host.registry.subtreeUsage(at.id))
    const share = budgetShare(budget, spent)
    if (share >= 1) {
      if (at.budgetNoted !== `reached ${budgetText(budget)}`) {
        at.budgetNoted = `reached ${budgetText(budget)}`
        emitBudget(host, at, { level: 'reached', limit: pick(budget), from: budget.from, spent })
      }
      return { limit: 'budget', message: stopText(at, handle, budget, spent) }
    }
    warnOnce(host, at, budget, budget.from, spent, warnAt)
  }
  return null
}

function warnOnce(host: BudgetHost, holder: AgentHandle, limit: AgentBudget, from: BudgetSource, spent: Spend, warnAt: number): void {
  const key = `warning ${budgetText(limit)}`
  const share = budgetShare(limit, spent)
  if (share < warnAt || share >= 1 || holder.budgetNoted === key || holder.budgetNoted === `reached ${budgetText(limit)}`) return
  holder.budgetNoted = key
  emitBudget(host, holder, { level: 'warning', limit: pick(limit), from, spent })
}

function emitBudget(host: BudgetHost, h: AgentHandle, e: Omit<BudgetEvent, keyof EventBase | 'type'>): void {
  host.emit({ agentId: h.id, parentAgentId: h.parentId, parentToolUseId: h.parentToolUseId, sessionId: host.sessionId, ts: Date.now(), type: 'budget', ...e })
}

const pick = (b: AgentBudget): AgentBudget => ({ ...(b.usd ? { usd: b.usd } : {}), ...(b.tokens ? { tokens: b.tokens } : {}) })

/** The reason that ends the run: which budget, what was spent, and what the parent can do about it. */
function stopText(holder: AgentHandle, handle: AgentHandle, budget: HeldBudget, spent: Spend): string {
  const whose = holder === handle ? 'this agent and its subagents' : `agent ${holder.id} (${holder.agentType}) and its subagents, this one among them,`
  const raise =
    budget.from === 'call' || budget.from === 'setting'
      ? `resume it with a larger budget (Agent with resume: '${holder.id}' and budget: {usd: …}),`
      : `resume it with a larger budget (Agent with resume: '${holder.id}' and budget: {usd: …}; its definition's \`budget:\` is the default),`
  return `Stopped at its budget of ${budgetText(budget)} (${BUDGET_SOURCE_TEXT[budget.from]}): ${whose} spent ${spendText(spent)}. No further model calls are made in that subtree; its work so far is kept (files, worktree branch, transcript). To go on, ${raise} finish the rest yourself, or report what was done.`
}
