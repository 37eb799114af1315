// Agent calls that start while their reply still streams (loop/early-calls.ts, spawn/early-spawn.ts), end to
// end on the scripted server: a call starts as soon as it has streamed whole; a reply whose calls started is
// never asked again, whatever happens to its stream (a dropped connection, max_tokens in a later call, a stop),
// and the model is told what became of it. Whether a call started early is read from the order of events (its
// tool_run before or after its reply's `message`), not from timings.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, ChatMessage } from '../../../../shared/events'
import { reply, requestLogViolations, scriptByAgent, type RecordedRequest, type ScriptedReply } from '../../model/scripted'
import { createHttpFetch } from '../../model/http-fetch'
import { closeCacheSession, openCacheSession } from '../testing/cache-session'
import { mainAgent, scriptedAgent } from '../testing/scripted-agents'
import type { AgentSessionOptions } from '../session/session-options'

afterEach(closeCacheSession)

const isWorker = (r: RecordedRequest) => /Worker task \d+/.test(r.firstUserText)
const isMain = (r: RecordedRequest) => r.system.includes('lead agent in Fanout')
const workerNumber = (r: RecordedRequest) => Number(/Worker task (\d+)/.exec(r.firstUserText)?.[1])

const calls = (n: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: n }, (_, i) => ({ name: 'Agent', input: { description: `Worker ${i}`, prompt: `Worker task ${i}: list the files.`, ...extra } }))

/** The deltas of a reply's first `blocks` calls: a pause or a fault there comes right after they streamed whole. */
const deltasOf = (inputs: Array<{ input: unknown }>, blocks: number) =>
  inputs.slice(0, blocks).reduce((n, c) => n + Math.ceil(JSON.stringify(c.input).length / 7), 0)

const worker = scriptedAgent('worker', /Worker task \d+/, [
  reply.toolUse('Glob', { pattern: '*.md' }),
  (req) => reply.text(`REPORT ${req.firstUserText.slice(0, 13)}`)
])

async function fanOut(
  mainReply: ScriptedReply,
  opts: { session?: Partial<AgentSessionOptions>; workerScript?: typeof worker } & Pick<Parameters<typeof openCacheSession>[0], 'server' | 'fetch'> = {}
) {
  const current = await openCacheSession({
    respond: scriptByAgent([opts.workerScript ?? worker, mainAgent([mainReply], (req) => reply.text(`main saw ${req.toolResults.length} results`))]),
    sharing: 'first',
    prefix: 'fanout-early-',
    prepare: (root) => writeFileSync(join(root, 'README.md'), '# project\n'),
    session: opts.session,
    server: opts.server,
    fetch: opts.fetch
  })
  const events: AgentEvent[] = []
  current.session.bus.subscribe((e) => events.push(e))
  return { current, events, run: (prompt = 'Fan out.') => current.session.run(prompt) }
}

/** The main agent's calls that started (tool_run) before its reply was complete (its assistant `message`). */
function startedDuringReply(events: AgentEvent[], mainId: string): number {
  const replyAt = events.findIndex((e) => e.agentId === mainId && e.type === 'message' && e.message.role === 'assistant')
  return events.slice(0, replyAt === -1 ? events.length : replyAt).filter((e) => e.type === 'tool_run' && e.agentId === mainId).length
}

const blocksOf = (m: ChatMessage) => (typeof m.content === 'string' ? [] : m.content)

describe('Agent calls that start while the reply streams', () => {
  it('each call starts as it arrives: the first worker asks the model while the reply is held after its first call, and every result comes back in call order', async () => {
    const inputs = calls(4)
    let sawWorkerWhileHeld = false
    const seen: { requests?: () => RecordedRequest[] } = {}
    const until = (async () => {
      for (let waited = 0; waited < 5000; waited += 10) {
        if (seen.requests?.().some(isWorker)) return void (sawWorkerWhileHeld = true)
        await new Promise((r) => setTimeout(r, 10))
      }
    })()
    const { current, events, run } = await fanOut({ ...reply.toolUses(inputs), pause: { afterDeltas: deltasOf(inputs, 1) + 1, until } })
    seen.requests = () => current.model.server.messageRequests()
    const result = await run()
    expect(result.status).toBe('completed')
    expect(sawWorkerWhileHeld).toBe(true)
    expect(startedDuringReply(events, current.session.mainAgentId)).toBe(4)
    const reqs = current.model.server.messageRequests()
    const last = reqs.filter(isMain).at(-1)!
    // One result per call, in the order of the calls, each its own worker's report.
    expect(last.toolResults.map((t) => t.content)).toEqual(inputs.map((_, i) => expect.stringContaining(`REPORT Worker task ${i}`)))
    // The reply was recorded as it went (reply_blocks), then whole; the conversation holds it once.
    const heads = events.filter((e) => e.type === 'reply_blocks' && e.agentId === current.session.mainAgentId)
    expect(heads.length).toBe(4)
    expect(requestLogViolations(reqs)).toEqual([])
  })

  it('sixteen siblings that start as they arrive share their prefix with no warming: the first writes it, the other fifteen read it', async () => {
    const { current, events, run } = await fanOut(reply.toolUses(calls(16)))
    const result = await run()
    expect(result.status).toBe('completed')
    expect(startedDuringReply(events, current.session.mainAgentId)).toBe(16)
    const reqs = current.model.server.messageRequests()
    expect(reqs.filter((r) => r.maxTokens === 0)).toHaveLength(0)
    const firsts = reqs.filter((r) => isWorker(r) && r.turn === 0)
    expect(firsts).toHaveLength(16)
    // The tools every agent shares were written by the main agent; the workers' own system prompt by the first of them.
    const writers = firsts.filter((r) => r.cache!.write5m + r.cache!.write1h > 100)
    expect(writers).toHaveLength(1)
    const prefix = Math.max(...firsts.map((r) => r.cache!.read))
    expect(prefix).toBeGreaterThan(writers[0].cache!.read)
    expect(firsts.filter((r) => r.cache!.read === prefix)).toHaveLength(15)
  })

  it('a reply whose stream drops after calls started is not asked again: the calls that arrived run, and the model is told its reply was cut short', async () => {
    const inputs = calls(4)
    const { current, events, run } = await fanOut(reply.dropAfter(deltasOf(inputs, 2) + 1, reply.toolUses(inputs)))
    const result = await run()
    expect(result.status).toBe('completed')
    const reqs = current.model.server.messageRequests()
    // One request for the fan-out turn: no retry made a second reply beside the first one's agents.
    expect(reqs.filter((r) => isMain(r) && r.turn === 0)).toHaveLength(1)
    expect(
      reqs
        .filter(isWorker)
        .map(workerNumber)
        .filter((n, i, all) => all.indexOf(n) === i)
        .sort()
    ).toEqual([0, 1])
    const next = reqs.filter(isMain).at(-1)!
    expect(next.toolResults.map((t) => t.content)).toEqual([expect.stringContaining('REPORT Worker task 0'), expect.stringContaining('REPORT Worker task 1')])
    expect(next.lastUserText).toMatch(/Your previous reply was cut short \([^)]+\): the tool calls in it above ran/)
    // The person is told too, as a notice (the run goes on).
    const notice = events.find((e) => e.type === 'error' && e.agentId === current.session.mainAgentId && /cut short/.test(e.message))
    expect(notice).toMatchObject({ retrying: false, notice: true })
    expect(requestLogViolations(reqs)).toEqual([])
  })

  it('max_tokens in the middle of a later call: the calls before it ran, the cut one is answered as not run, and the reply is not asked again', async () => {
    const inputs = calls(3)
    const { current, run } = await fanOut(reply.cutByMaxTokens(reply.toolUses(inputs)))
    const result = await run()
    expect(result.status).toBe('completed')
    const reqs = current.model.server.messageRequests()
    expect(reqs.filter((r) => isMain(r) && r.turn === 0)).toHaveLength(1)
    const next = reqs.filter(isMain).at(-1)!
    expect(next.toolResults).toHaveLength(3)
    expect(next.toolResults[0].content).toContain('REPORT Worker task 0')
    expect(next.toolResults[1].content).toContain('REPORT Worker task 1')
    expect(next.toolResults[2]).toMatchObject({ isError: true })
    expect(next.toolResults[2].content).toMatch(/Agent was not run: your reply reached its output limit \(max_tokens [\d,]+\) in the middle of this call/)
    expect(reqs.filter(isWorker).map(workerNumber)).not.toContain(2)
    expect(requestLogViolations(reqs)).toEqual([])
  })

  it('a stop while the reply streams stops the workers it started; the reply keeps their calls, each answered', async () => {
    const inputs = calls(3)
    let stop = () => {}
    const until = new Promise<void>((resolve) => (stop = resolve))
    const held = scriptedAgent('worker', /Worker task \d+/, [
      async () => {
        // The worker is at the model: the person stops the session now.
        stop()
        return new Promise<ScriptedReply>(() => {})
      }
    ])
    const { current, events, run } = await fanOut({ ...reply.toolUses(inputs), pause: { afterDeltas: deltasOf(inputs, 1) + 1, until } }, { workerScript: held })
    const running = run()
    await until
    current.session.stop()
    const result = await running
    expect(result.status).toBe('stopped')
    const main = current.session.registry.get(current.session.mainAgentId)!
    const replyMessage = main.messages.findLast((m) => m.role === 'assistant')!
    const kept = blocksOf(replyMessage).filter((b) => b.type === 'tool_use')
    expect(kept).toHaveLength(1)
    const answers = blocksOf(main.messages.at(-1)!).filter((b) => b.type === 'tool_result')
    expect(answers.map((b) => (b as { tool_use_id: string }).tool_use_id)).toEqual(kept.map((b) => (b as { id: string }).id))
    const workers = current.session.registry.all().filter((h) => h.id !== main.id)
    expect(workers).toHaveLength(1)
    expect(workers[0].status).toBe('stopped')
    expect(events.some((e) => e.type === 'agent_end' && e.agentId === workers[0].id)).toBe(true)
  })

  it('waits for the reply’s end where the calls need it: when fan-outs need approval, forks, and agents whose prefix is under the cache minimum', async () => {
    const cases: Array<[string, ReturnType<typeof calls>, Partial<AgentSessionOptions>?]> = [
      ['approval above an amount', calls(3), { limits: { maxConcurrent: 100, approveFanoutAboveUsd: 1000 } }],
      ['forks', calls(3, { subagent_type: 'fork' })],
      ['Explore on Haiku (prefix under 4,096 tokens)', calls(3, { subagent_type: 'Explore', model: 'haiku' })]
    ]
    for (const [what, inputs, session] of cases) {
      const { current, events, run } = await fanOut(reply.toolUses(inputs), session ? { session } : {})
      const result = await run()
      expect(result.status, what).toBe('completed')
      expect(startedDuringReply(events, current.session.mainAgentId), what).toBe(0)
      expect(current.session.registry.all().length, what).toBe(4)
      await closeCacheSession()
    }
  })
})

describe('connections for calls that start as they arrive', () => {
  it('a reply streaming eight Agent calls, each started as it arrives, opens about a connection a worker, not two: nearly every connection opened carries a request', async () => {
    // A model's pace: the reply streams its calls over a second or so, and each worker's requests take a while, so
    // the workers that started hold their connections while the next calls stream.
    const { current, events, run } = await fanOut(reply.toolUses(calls(8)), {
      server: { outputTokensPerSecond: 300, latencyMs: 120 },
      fetch: createHttpFetch()
    })
    const result = await run()
    expect(result.status).toBe('completed')
    expect(startedDuringReply(events, current.session.mainAgentId)).toBe(8)
    const { opened, used } = current.model.server.connections()
    // Opened ahead while the reply streamed: one for each call still to start and one for the call that just
    // started. Counting the started calls as still to come opened two a call, half of them never used.
    expect(opened - used).toBeLessThanOrEqual(2)
    expect(opened).toBeLessThanOrEqual(8 + 3)
  })

  it('the first call that starts at once finds a connection opened while it streamed, not one it opens itself', async () => {
    const { current, run } = await fanOut(reply.toolUses(calls(2)), { server: { outputTokensPerSecond: 100 }, fetch: createHttpFetch() })
    expect((await run()).status).toBe('completed')
    const first = current.model.server.messageRequests().find((r) => isWorker(r) && workerNumber(r) === 0)!
    // Its call took ~250 ms to stream; a connection made for its request would be younger than a few ms.
    expect(first.receivedAt - first.connectedAt).toBeGreaterThan(100)
  })

  it('calls held to the reply’s end: a connection opened ahead that the pool closed for idling is not opened again, so one a call at most', async () => {
    // Explore on Haiku: a prefix under the cache minimum, so the calls wait for the reply's end. The pool closes a
    // connection idle for 100 ms: the reply streams for longer than that, as one of 64 calls streams past 4 s.
    const { current, events, run } = await fanOut(reply.toolUses(calls(16, { subagent_type: 'Explore', model: 'haiku' })), {
      server: { outputTokensPerSecond: 300, latencyMs: 120 },
      fetch: createHttpFetch({ idleSocketMs: 100 })
    })
    const result = await run()
    expect(result.status).toBe('completed')
    expect(startedDuringReply(events, current.session.mainAgentId)).toBe(0)
    // Opened ahead: one a call and one spare at most, never used once the pool closed them. Opening each one
    // closed again made it 81 connections for 17 requests here, 64 of them never used; at 64 calls, thousands.
    const { opened, used } = current.model.server.connections()
    expect(opened - used).toBeLessThanOrEqual(16 + 1)
  })
})
