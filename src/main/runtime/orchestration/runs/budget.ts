// The session's budgets (dollars, tokens), enforced where they are spent: before each model call. An agent
// whose next call would go past a budget ends as failed, its reason and `limit: 'budget'` said; its parent
// still gets an answer (and fails the same way at its own next call). Agents that keep spawning past the
// session's limit are stopped the same way (`limit: 'spawn_limit'`, see SpawnGate.spawnRunaway).
import { LimitReachedError } from '../../model/errors'
import type { ModelClient } from '../../model/types'
import type { SpawnGate } from './limits'

export class BudgetExceededError extends LimitReachedError {
  constructor(message: string) {
    super(message, 'budget')
    this.name = 'BudgetExceededError'
  }
}

export function budgetedClient(client: ModelClient, gate: SpawnGate): ModelClient {
  return {
    get baseURL() {
      return client.baseURL
    },
    listModels: (signal) => client.listModels(signal),
    stream(request, handlers, signal) {
      const runaway = gate.spawnRunaway()
      if (runaway) return Promise.reject(new LimitReachedError(runaway, 'spawn_limit'))
      const over = gate.overBudget()
      if (over)
        return Promise.reject(
          new BudgetExceededError(
            `Stopped at the session's budget: ${over} No further model calls are made; raise the budget in Settings → Limits to continue.`
          )
        )
      return client.stream(request, handlers, signal)
    }
  }
}
