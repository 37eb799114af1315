// Subagents' prefix warmed while their Agent calls stream (warm-spawn.ts), end to end: a real session on the
// scripted server, whose simulated prompt cache says what each request read and wrote. The main agent's
// message is held in the middle of its calls until the warming reaches the server, so "while it streams" is
// a fact of the run, not a timing. Calls that start as they arrive (early-spawn.ts) need no warming: the first
// one's own request writes the prefix. These sessions ask for approval of fan-outs above an amount, so their
// calls wait for the reply's end, where a warming is what saves the siblings their wait.
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, UsageEvent } from '../../../../shared/events'
import { reply, scriptByAgent, type RecordedRequest, type Respond } from '../../model/scripted'
import { closeCacheSession, openCacheSession } from '../testing/cache-session'
import { mainAgent } from '../testing/scripted-agents'
import type { CacheSharing } from '../../model/cache-sharing'

afterEach(closeCacheSession)

/** Fan-outs above $1,000 need approval: none here does, but no Agent call starts before its reply ends. */
const WAIT_FOR_REPLY = { limits: { maxConcurrent: 100, approveFanoutAboveUsd: 1000 } }

const isWorker = (r: RecordedRequest) => /Worker task \d+/.test(r.firstUserText)
const firstCalls = (reqs: RecordedRequest[]) => reqs.filter((r) => isWorker(r) && r.turn === 0 && r.maxTokens !== 0)
const warmings = (reqs: RecordedRequest[]) => reqs.filter((r) => r.maxTokens === 0)
const written = (r: RecordedRequest) => r.cache!.write5m + r.cache!.write1h

const calls = (n: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: n }, (_, i) => ({ name: 'Agent', input: { description: `Worker ${i}`, prompt: `Worker task ${i}: list the files.`, ...extra } }))

/** The deltas of the message's first `blocks` calls: a pause there holds the stream right after they streamed whole. */
const deltasOf = (inputs: Array<{ input: unknown }>, blocks: number) =>
  inputs.slice(0, blocks).reduce((n, c) => n + Math.ceil(JSON.stringify(c.input).length / 7), 0)

/**
 * Runs a fan-out of `inputs` whose message is held after its first three calls until a warming arrived (or
 * `holdMs` passed: then none came); returns every request and whether the hold saw a warming.
 */
async function fanOut(inputs: ReturnType<typeof calls>, sharing: CacheSharing = 'first', holdMs = 3000) {
  const seen: { server?: { requests: RecordedRequest[] } } = {}
  let warmedWhileHeld = false
  const until = (async () => {
    for (let waited = 0; waited < holdMs; waited += 10) {
      if (seen.server?.requests.some((r) => r.maxTokens === 0)) return void (warmedWhileHeld = true)
      await new Promise((r) => setTimeout(r, 10))
    }
  })()
  const script = scriptByAgent([
    { name: 'worker', match: /Worker task \d+/, turns: [reply.toolUse('Glob', { pattern: '*.md' }), reply.text('found them')] },
    mainAgent([{ ...reply.toolUses(inputs), pause: { afterDeltas: deltasOf(inputs, Math.min(3, inputs.length)), until } }, reply.text('done')])
  ])
  const respond: Respond = (req, ctx) => script(req, ctx)
  const current = await openCacheSession({ respond, sharing, prefix: 'fanout-warm-', session: WAIT_FOR_REPLY })
  seen.server = current.model.server
  const events: AgentEvent[] = []
  current.session.bus.subscribe((e) => events.push(e))
  const result = await current.session.run('Fan out.')
  return { result, reqs: current.model.server.messageRequests(), warmedWhileHeld, events, mainId: current.session.mainAgentId }
}

describe('subagents warmed while their calls stream', () => {
  it('writes the siblings’ prefix once while the message streams: all sixteen read it, none writes it, and the warming is billed to the parent', async () => {
    const { result, reqs, warmedWhileHeld, events, mainId } = await fanOut(calls(16))
    expect(result.status).toBe('completed')
    expect(warmedWhileHeld).toBe(true)
    expect(warmings(reqs)).toHaveLength(1)
    const firsts = firstCalls(reqs)
    expect(firsts).toHaveLength(16)
    const prefix = Math.max(...firsts.map((r) => r.cache!.read))
    expect(prefix).toBeGreaterThan(3000)
    // Every sibling read the whole prefix: the one warming wrote it, and it was in the cache when they went.
    for (const r of firsts) {
      expect(r.cache!.read).toBe(prefix)
      expect(written(r)).toBeLessThan(50)
    }
    // What the warming cost is the parent's, said as such (not an answer to its call, not its context).
    const warm = events.filter((e): e is UsageEvent => e.type === 'usage' && e.purpose === 'cache_warm')
    expect(warm).toHaveLength(1)
    expect(warm[0].agentId).toBe(mainId)
    expect(warm[0].usage.cacheWriteTokens).toBe(written(warmings(reqs)[0]))
    expect(warm[0].usage.costUsd).toBeGreaterThan(0)
  })

  it('warms nothing for one or two Agent calls, worktree agents, forks, named agents, or with cache sharing off', async () => {
    for (const [inputs, sharing] of [
      [calls(1), 'first'],
      [calls(2), 'first'],
      [calls(4), 'off'],
      [calls(4, { isolation: 'worktree' }), 'first'],
      [calls(4, { subagent_type: 'fork' }), 'first'],
      [calls(4).map((c, i) => ({ ...c, input: { ...c.input, name: `crew-${i}` } })), 'first']
    ] as const) {
      const { reqs, warmedWhileHeld } = await fanOut([...inputs], sharing, 1000)
      expect(warmedWhileHeld).toBe(false)
      expect(warmings(reqs)).toHaveLength(0)
      await closeCacheSession()
    }
  })

  it('a message whose calls are refused after it streamed costs only the warming: nothing runs', async () => {
    const inputs = calls(4, { subagent_type: 'general-purpose' })
    const script = scriptByAgent([
      {
        name: 'worker',
        match: /Worker task \d+/,
        turns: [reply.text('should not run')]
      },
      // The reply is cut by max_tokens in its last call: the turn fails and no call of it runs.
      mainAgent([{ ...reply.toolUses(inputs), stopReason: 'max_tokens' }])
    ])
    const current = await openCacheSession({ respond: script, sharing: 'first', prefix: 'fanout-warm-', session: WAIT_FOR_REPLY })
    const result = await current.session.run('Fan out.')
    expect(result.status).not.toBe('completed')
    const reqs = current.model.server.messageRequests()
    expect(reqs.filter(isWorker)).toHaveLength(0)
    expect(warmings(reqs).length).toBeLessThanOrEqual(1)
  })
})
