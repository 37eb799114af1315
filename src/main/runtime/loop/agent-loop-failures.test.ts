// How the loop behaves when things go wrong: retries, dropped streams, errors that survive, aborts.
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { AgentEvent } from '../../../shared/events'
import { byAttempt, reply, scriptTurns, startScriptedModel, type Respond, type ScriptedModel } from '../model/scripted'
import { defineTool, type Tool } from '../tools/define-tool'
import { runAgentLoop } from './agent-loop'
import type { AgentLoopOptions } from './types'

let model: ScriptedModel | undefined
afterEach(async () => {
  await model?.close()
  model = undefined
})

async function run(respond: Respond, opts: Partial<AgentLoopOptions> = {}, onEvent?: (e: AgentEvent) => void) {
  model = await startScriptedModel({ respond })
  const events: AgentEvent[] = []
  const started = performance.now()
  const result = await runAgentLoop(
    {
      agentId: 'agent-1',
      parentAgentId: null,
      parentToolUseId: null,
      sessionId: 'session-1',
      client: model.client,
      model: 'claude-haiku-5-5',
      systemPrompt: 'You are a test agent.',
      prompt: 'Go.',
      tools: [],
      cwd: '/tmp',
      ...opts
    },
    (e) => {
      events.push(e)
      onEvent?.(e)
    }
  )
  return { result, events, requests: model.server.messageRequests(), elapsed: performance.now() - started }
}

const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type)

// Sleeps for `ms` and ignores its abort signal: the loop must not wait for it. (Its timer does not keep the
// test process alive once the test is over.)
const stubborn: Tool = defineTool({
  name: 'stubborn',
  description: 'ignores aborts',
  schema: z.object({ ms: z.number() }),
  readOnly: true,
  execute: async ({ ms }) => {
    await new Promise((r) => setTimeout(r, ms).unref())
    return { content: 'finished anyway' }
  }
})

// Stopping must not wait for what it stops. The tests prove that by order, not by speed: what would hold the
// loop (a reply, a tool, a retry wait) lasts far longer than a test may run (30 s), so a loop that waited for
// it fails. (A bound of a few seconds is a speed target, which a loaded CI machine can miss: those belong in
// `npm run bench`.)
const LONG_MS = 4 * 60_000

describe('runAgentLoop failures', () => {
  it('retries a 429 and a 529, reporting each retry as an error event, then completes', async () => {
    const { result, events, requests } = await run(
      scriptTurns(byAttempt(reply.rateLimited({ retryAfterSeconds: 0.01 }), reply.overloaded(), reply.text('made it')))
    )
    expect(result).toMatchObject({ status: 'completed', result: 'made it', numTurns: 1 })
    expect(requests).toHaveLength(3)
    const errors = of(events, 'error')
    expect(errors.map((e) => [e.retrying, e.attempt])).toEqual([
      [true, 1],
      [true, 2]
    ])
    expect(errors[0].message).toMatch(/^Rate limited \(429\): .*Retrying in 10 ms \(attempt 2 of 4; [\d.]+ m?s spent of at most 10 min retrying\)\.$/)
    expect(errors[1].message).toMatch(
      /^Overloaded \(529\): Overloaded\. Retrying in [\d.]+ m?s \(attempt 3 of 4; [\d.]+ m?s spent of at most 10 min retrying\)\.$/
    )
  })

  it('retries a stream that drops mid-message without duplicating its text', async () => {
    const full = reply.text('Partial text must not be duplicated.', { textChunk: 5 })
    const { result, events } = await run(scriptTurns(byAttempt(reply.dropAfter(3, full), full)))
    expect(result.status).toBe('completed')
    expect(result.result).toBe('Partial text must not be duplicated.')
    const assistant = result.messages.filter((m) => m.role === 'assistant')
    expect(assistant).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'Partial text must not be duplicated.' }] }])
    // The UI contract: deltas before a retrying error belong to the failed attempt.
    const retryAt = events.findIndex((e) => e.type === 'error' && e.retrying)
    expect(retryAt).toBeGreaterThan(0)
    const before = of(events.slice(0, retryAt), 'text_delta')
      .map((e) => e.text)
      .join('')
    const after = of(events.slice(retryAt), 'text_delta')
      .map((e) => e.text)
      .join('')
    expect(before).toBe('Partial text mu') // 3 deltas of 5 characters
    expect(after).toBe('Partial text must not be duplicated.')
  })

  it('ends with status failed and the error when it survives every retry; the caller gets a result', async () => {
    const { result, events, requests } = await run(scriptTurns(reply.overloaded()))
    expect(result.status).toBe('failed')
    expect(result.error).toMatch(/^Overloaded \(529\): Overloaded \(gave up after 4 attempts over [\d.]+ (ms|s|min)\)$/)
    expect(requests).toHaveLength(4)
    const last = of(events, 'error').at(-1)!
    expect(last).toMatchObject({ retrying: false, message: result.error })
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', stopReason: 'error' })
  })

  it('fails at once on an error that is not worth retrying', async () => {
    const { result, requests } = await run(scriptTurns(reply.httpError(401, 'authentication_error', 'invalid x-api-key')))
    expect(result).toMatchObject({ status: 'failed', error: 'Authentication failed (401): invalid x-api-key' })
    expect(requests).toHaveLength(1)
  })

  it('stops mid-stream within a short time, keeping the partial text', async () => {
    const ac = new AbortController()
    // 5 characters every 20 ms: the full reply would take LONG_MS.
    const slow = reply.text('word '.repeat(LONG_MS / 20), { textChunk: 5, chunkDelayMs: 20 })
    let deltas = 0
    const { result, events, elapsed } = await run(scriptTurns(slow), { signal: ac.signal }, (e) => {
      if (e.type === 'text_delta' && ++deltas === 3) ac.abort()
    })
    expect(result.status).toBe('stopped')
    expect(elapsed).toBeLessThan(LONG_MS) // stopped before the reply ended
    const partial = of(events, 'text_delta')
      .map((e) => e.text)
      .join('')
    expect(partial).toBe('word word word ')
    expect(result.result).toBe('word word word')
    expect(of(events, 'message').at(-1)!.message).toEqual({ role: 'assistant', content: [{ type: 'text', text: partial }] })
  })

  it('stops a running tool that ignores its signal, and answers its tool_use', async () => {
    const ac = new AbortController()
    const { result, events, elapsed } = await run(
      scriptTurns(reply.toolUse('stubborn', { ms: LONG_MS }), reply.text('never')),
      { signal: ac.signal, tools: [stubborn] },
      (e) => {
        if (e.type === 'tool_run') setTimeout(() => ac.abort(), 10)
      }
    )
    expect(result.status).toBe('stopped')
    expect(elapsed).toBeLessThan(LONG_MS) // stopped before the tool ended
    expect(of(events, 'tool_end')).toEqual([expect.objectContaining({ isError: true, output: 'stubborn was interrupted: the agent was stopped.' })])
    const last = result.messages.at(-1)!
    expect(last.role).toBe('user')
    expect(last.content).toEqual([expect.objectContaining({ type: 'tool_result', is_error: true })])
  })

  it('stops while waiting to retry, and while a permission prompt is open', async () => {
    const ac1 = new AbortController()
    const waiting = await run(scriptTurns(reply.rateLimited({ retryAfterSeconds: LONG_MS / 2000 })), { signal: ac1.signal }, (e) => {
      if (e.type === 'error') ac1.abort()
    })
    expect(waiting.result.status).toBe('stopped')
    expect(waiting.elapsed).toBeLessThan(LONG_MS / 2) // stopped before the wait ended
    await model!.close()

    const ac2 = new AbortController()
    const asking = await run(scriptTurns(reply.toolUse('stubborn', { ms: 1 }), reply.text('never')), {
      signal: ac2.signal,
      tools: [stubborn],
      beforeToolCall: () => {
        setTimeout(() => ac2.abort(), 10)
        return new Promise(() => {}) // the user never answers
      }
    })
    expect(asking.result.status).toBe('stopped')
    // The prompt is never answered: the loop ending at all is the proof it did not wait for it.
    expect(of(asking.events, 'tool_end')).toEqual([expect.objectContaining({ isError: true, output: 'stubborn was interrupted: the agent was stopped.' })])
  })

  it('does not start when the signal is already aborted', async () => {
    const ac = new AbortController()
    ac.abort()
    const { result, requests } = await run(scriptTurns(reply.text('x')), { signal: ac.signal })
    expect(result.status).toBe('stopped')
    expect(requests).toHaveLength(0)
  })
})
