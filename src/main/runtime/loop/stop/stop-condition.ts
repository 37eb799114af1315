// Stop conditions as one list of named predicates (vercel/ai's `stopWhen`): every guard that ends a runaway
// agent is a StopCondition, asked at one of three moments of the loop, and answers with one StopVerdict —
// the sentence the agent's parent and the person read, and the `limit` its result carries. The loop asks the
// list in one place per moment (`firstStop`); the model client it is given asks the `request` ones before
// every call (`guardedClient`), compaction's calls included. See ./index.ts for the list and its owners.
import type { AgentLimit } from '../../../../shared/events'
import { LimitReachedError } from '../../model/errors'
import type { ModelClient } from '../../model/types'

/**
 * When a condition is asked: `turn` before a turn starts (the run ends with what it has, no turn_start),
 * `request` before each model call (the call is refused: the run fails), `tools` after a turn's tool calls.
 */
export type StopMoment = 'turn' | 'request' | 'tools'

/** Why a run ends: what is said, and the `limit` the result carries (none: a hook's `continue: false`). */
export interface StopVerdict {
  /** The condition that answered (its name in the list). */
  by: string
  message: string
  limit?: AgentLimit
  /** Set by a hook's `continue: false`: the run ends completed, as Claude Code's hook_stopped. */
  hook?: { event: string }
}

/** One tool call of a turn, as the no-progress guard compares them. */
export interface CallOutcome {
  name: string
  /** The call's input; undefined when it does not count (a tool that does not exist). */
  input?: unknown
  content: string
  isError: boolean
}

/** What the loop knows when it asks. */
export interface StopState {
  /** Turns started so far. */
  turns: number
  /** The last turn's tool calls (the `tools` moment). */
  outcomes?: readonly CallOutcome[]
}

export interface StopCondition {
  /** A plain name for the guard (turn_limit, no_progress, budget, spawn_runaway, hook_halt). */
  name: string
  at: StopMoment
  check(state: StopState): Omit<StopVerdict, 'by'> | null
}

/** The first condition of `list` asked at `at` that says stop, else null. */
export function firstStop(list: readonly StopCondition[], at: StopMoment, state: StopState): StopVerdict | null {
  for (const c of list) {
    if (c.at !== at) continue
    const v = c.check(state)
    if (v) return { ...v, by: c.name }
  }
  return null
}

/** The error a refused model call throws: the loop ends the run as failed, with the verdict's message and limit. */
export class StopError extends LimitReachedError {
  constructor(readonly verdict: StopVerdict) {
    // Only a hook's verdict has no limit, and hooks are asked at `tools`, never before a request.
    super(verdict.message, verdict.limit as AgentLimit)
    this.name = 'StopError'
  }
}

/** `client` with the `request` conditions of `list` asked before each call: a verdict refuses the call. */
export function guardedClient(client: ModelClient, list: readonly StopCondition[], state: () => StopState = () => ({ turns: 0 })): ModelClient {
  const asked = list.filter((c) => c.at === 'request')
  if (!asked.length) return client
  return {
    get baseURL() {
      return client.baseURL
    },
    listModels: (signal) => client.listModels(signal),
    stream(request, handlers, signal) {
      const stop = firstStop(asked, 'request', state())
      if (stop) return Promise.reject(new StopError(stop))
      return client.stream(request, handlers, signal)
    },
    // A warming is a request too: none once a limit refuses requests.
    ...(client.warm ? { warm: (request, signal) => (firstStop(asked, 'request', state()) ? Promise.resolve(null) : client.warm!(request, signal)) } : {})
  }
}
