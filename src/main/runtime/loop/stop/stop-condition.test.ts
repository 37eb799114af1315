import { describe, expect, it } from 'vitest'
import type { ModelClient } from '../../model/types'
import { firstStop, guardedClient, hookHalt, noProgress, runStops, StopError, turnLimit, type StopCondition } from '.'

const never: StopCondition = { name: 'never', at: 'request', check: () => null }
const budget: StopCondition = { name: 'budget', at: 'request', check: () => ({ limit: 'budget', message: 'Stopped at the budget.' }) }

describe('the stop list', () => {
  it('asks only the conditions of the moment, in order, and names the one that answered', () => {
    const list = [turnLimit(2), never, budget, hookHalt(() => ({ event: 'Stop', reason: 'done' }))]
    expect(firstStop(list, 'turn', { turns: 1 })).toBeNull()
    expect(firstStop(list, 'turn', { turns: 2 })).toEqual({
      by: 'turn_limit',
      limit: 'max_turns',
      message: 'Stopped at the limit of 2 turns before finishing.'
    })
    expect(firstStop(list, 'request', { turns: 0 })).toMatchObject({ by: 'budget', limit: 'budget' })
    expect(firstStop(list, 'tools', { turns: 0 })).toEqual({ by: 'hook_halt', message: 'done', hook: { event: 'Stop' } })
  })

  it('a run has one list: the turn ceiling, what its caller adds, a hook halt, then the no-progress streak', () => {
    expect(runStops({ maxTurns: 3, stopWhen: [budget] }).map((c) => c.name)).toEqual(['turn_limit', 'budget', 'hook_halt', 'no_progress'])
  })

  it('the no-progress condition ends a run of the same failing call with its limit', () => {
    const c = noProgress(2)
    const outcomes = [{ name: 'Bash', input: { command: 'x' }, content: 'exit 1', isError: true }]
    expect(c.check({ turns: 1, outcomes })).toBeNull()
    expect(c.check({ turns: 2, outcomes })).toMatchObject({ limit: 'no_progress', message: expect.stringContaining('2 turns in a row') })
  })

  it('a guarded client refuses the call with the verdict, without calling the model', async () => {
    let calls = 0
    const client = { baseURL: 'x', listModels: async () => [], stream: async () => (calls++, {}) } as unknown as ModelClient
    const err = await guardedClient(client, [never, budget])
      .stream({} as never, {}, new AbortController().signal)
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(StopError)
    expect(err).toMatchObject({ limit: 'budget', message: 'Stopped at the budget.' })
    expect(calls).toBe(0)
    expect(guardedClient(client, [turnLimit(1)])).toBe(client)
  })
})
