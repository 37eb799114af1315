// How far an agent is into its budget, for the bar on its tile, card and the session header: its own and
// its subagents' spend (the whole session's for the session's budget) against the budget its agent_start
// said, and whether a warning or the stop has come. Pure, from the folded session state.
import { BUDGET_SOURCE_TEXT, budgetShare, budgetText, spendText, type Spend } from '../budget'
import type { AgentState, SessionState } from './session-state'

export interface BudgetUse {
  /** 0..100, capped. */
  percent: number
  level: 'ok' | 'warning' | 'reached'
  /** "$0.42 of $2.00". */
  label: string
  /** For a title: which budget, what was spent. */
  detail: string
}

const tokensOf = (a: AgentState) => a.usage.inputTokens + a.usage.outputTokens + a.usage.cacheReadTokens + a.usage.cacheWriteTokens

/** The agent's spend with every agent under it. */
export function subtreeSpend(session: SessionState, agentId: string): Spend {
  const spent = { usd: 0, tokens: 0 }
  const stack = [agentId]
  const seen = new Set<string>()
  while (stack.length) {
    const id = stack.pop() as string
    const a = session.agents[id]
    if (!a || seen.has(id)) continue
    seen.add(id)
    spent.usd += a.usage.costUsd
    spent.tokens += tokensOf(a)
    stack.push(...a.children)
  }
  return spent
}

export function budgetUse(session: SessionState | undefined, agentId: string | null | undefined): BudgetUse | null {
  const a = agentId ? session?.agents[agentId] : undefined
  if (!session || !a?.budget) return null
  const b = a.budget
  const spent =
    b.from === 'session'
      ? {
          usd: session.usage.costUsd,
          tokens: session.usage.inputTokens + session.usage.outputTokens + session.usage.cacheReadTokens + session.usage.cacheWriteTokens
        }
      : subtreeSpend(session, a.id)
  const share = budgetShare(b, spent)
  const byUsd = b.usd ? spent.usd / b.usd : 0
  const byTokens = b.tokens ? spent.tokens / b.tokens : 0
  const label =
    b.usd && byUsd >= byTokens
      ? `$${spent.usd.toFixed(2)} of $${b.usd.toFixed(2)}`
      : `${Math.round(spent.tokens / 1000)}k of ${Math.round((b.tokens ?? 0) / 1000)}k tok`
  const level = a.budgetLevel === 'reached' || share >= 1 ? 'reached' : a.budgetLevel === 'warning' ? 'warning' : 'ok'
  return {
    percent: Math.min(100, Math.round(share * 100)),
    level,
    label,
    detail: `Budget ${budgetText(b)} — ${BUDGET_SOURCE_TEXT[b.from]}. Spent ${spendText(spent)}${b.from === 'session' ? '' : ' (with its subagents)'}.${level === 'reached' ? ' Reached: its agents stopped.' : level === 'warning' ? ' Past the warning share.' : ''}`
  }
}
