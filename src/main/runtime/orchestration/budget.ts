// The spend ceiling, enforced where money is spent: before each model call. An agent whose next call
// would go past the budget ends with a failed result that says why; its parent still gets an answer.
import type { ModelClient } from '../model/types'
import type { SpawnGate } from './limits'

export class BudgetExceededError extends Error {}

export function budgetedClient(client: ModelClient, gate: SpawnGate): ModelClient {
  return {
    get baseURL() {
      return client.baseURL
    },
    listModels: (signal) => client.listModels(signal),
    stream(request, handlers, signal) {
      if (gate.overBudget())
        return Promise.reject(new BudgetExceededError(`The session reached its spend budget of $${gate.limits.budgetUsd.toFixed(2)}; no further model calls are made. Raise the budget in settings to continue.`))
      return client.stream(request, handlers, signal)
    }
  }
}
