// Cache-aware fan-out, end to end: a real session against the scripted server, whose simulated prompt cache
// reports what each request read and wrote. Siblings of one type read their shared prefix instead of each
// writing it; a subagent reads the tools its parent wrote; forks read their parent's cached conversation.
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/events'
import type { CacheSharing } from '../../model/cache-sharing'
import { reply, scriptByAgent, type RecordedRequest, type Respond } from '../../model/scripted'
import { closeCacheSession, openCacheSession, type CacheSession } from '../testing/cache-session'
import { mainAgent } from '../testing/scripted-agents'
import { git } from '../../worktrees/testing/temp-repo'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const N = 16
let current: CacheSession | undefined
afterEach(closeCacheSession)

async function run(respond: Respond, sharing: CacheSharing, prompt = 'Fan out.', watch?: (e: AgentEvent) => void): Promise<RecordedRequest[]> {
  current = await openCacheSession({ respond, sharing, prefix: 'fanout-cache-' })
  const { model, session } = current
  if (watch) session.bus.subscribe(watch)
  const result = await session.run(prompt)
  expect(result.status).toBe('completed')
  return model.server.messageRequests()
}

// Named agents, so that their prefix is not warmed while the calls stream (spawn/warm-spawn.ts, its own tests):
// these tests are of the gate itself, which serves every fan-out whose prefix was not warmed ahead.
const fanOut = scriptByAgent([
  { name: 'worker', match: /Worker task \d+/, turns: [reply.toolUse('Glob', { pattern: '*.md' }), reply.text('found them')] },
  mainAgent([
    reply.toolUses(
      Array.from({ length: N }, (_, i) => ({ name: 'Agent', input: { description: `Worker ${i}`, prompt: `Worker task ${i}`, name: `worker-${i}` } }))
    ),
    reply.text('done')
  ])
])

const isWorker = (r: RecordedRequest) => /Worker task \d+/.test(r.firstUserText)
const firstCalls = (reqs: RecordedRequest[]) => reqs.filter((r) => isWorker(r) && r.turn === 0 && r.maxTokens !== 0)
const written = (r: RecordedRequest) => r.cache!.write5m + r.cache!.write1h

/** Tokens of a worker's prefix: tools and system prompt (what the system breakpoint covers). */
function prefixTokens(reqs: RecordedRequest[]): number {
  const full = firstCalls(reqs)
    .map((r) => r.cache!.read)
    .sort((a, b) => b - a)
  return full[0]
}

describe('cache-aware fan-out', () => {
  it('first: one sibling writes the shared prefix, the other fifteen read it; the first reads the tools its parent wrote', async () => {
    // The first sibling's response is held until all sixteen have begun their first turn: meanwhile none
    // of the others may reach the server.
    let started = 0
    let allStarted!: () => void
    const ready = new Promise<void>((r) => (allStarted = r))
    let arrivedWhileHeld = -1
    const reqs = await run(
      async (req, ctx) => {
        if (/Worker task/.test(req.firstUserText) && req.turn === 0 && arrivedWhileHeld === -1) {
          arrivedWhileHeld = 0
          await ready
          for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r))
          arrivedWhileHeld = ctx.requests.filter((r) => /Worker task/.test(r.firstUserText) && r.turn === 0).length
        }
        return fanOut(req, ctx)
      },
      'first',
      'Fan out.',
      (e) => {
        if (e.type === 'turn_start' && e.turn === 1 && e.parentAgentId && ++started === N) allStarted()
      }
    )
    expect(arrivedWhileHeld).toBe(1)
    const firsts = firstCalls(reqs)
    expect(firsts).toHaveLength(N)
    const prefix = prefixTokens(reqs)
    expect(prefix).toBeGreaterThan(3000)
    const readers = firsts.filter((r) => r.cache!.read === prefix)
    expect(readers).toHaveLength(N - 1)
    const [writer] = firsts.filter((r) => r.cache!.read < prefix)
    // The main agent wrote the tools every agent shares; the first sibling read them and wrote its system prompt.
    expect(writer.cache!.read).toBeGreaterThan(2500)
    expect(written(writer)).toBeLessThan(prefix - writer.cache!.read + 50)
    for (const r of readers) expect(written(r)).toBeLessThan(50) // only its task
    // Every sibling's second call reads its own first turn.
    for (const r of reqs.filter((q) => isWorker(q) && q.turn === 1)) expect(r.cache!.read).toBeGreaterThan(prefix)
  })

  it('worktree agents read the tools their parent wrote: no tool names the folder an agent works in', async () => {
    // Each agent in its own worktree has its own working directory, said in its system prompt (<env>); the
    // tools before it are the very same text for all of them, so each reads them instead of writing them again.
    const W = 4
    current = await openCacheSession({
      respond: scriptByAgent([
        { name: 'worker', match: /Worker task \d+/, turns: [reply.toolUse('Glob', { pattern: '*.md' }), reply.text('found them')] },
        mainAgent([
          reply.toolUses(
            Array.from({ length: W }, (_, i) => ({ name: 'Agent', input: { description: `Worker ${i}`, prompt: `Worker task ${i}`, isolation: 'worktree' } }))
          ),
          reply.text('done')
        ])
      ]),
      sharing: 'first',
      prefix: 'fanout-cache-wt-',
      prepare: (root) => {
        git(root, 'init', '--quiet', '--initial-branch=main')
        writeFileSync(join(root, 'notes.md'), 'notes\n')
        git(root, 'add', '-A')
        git(root, '-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', 'commit', '--quiet', '-m', 'start')
      }
    })
    const result = await current.session.run('Fan out.')
    expect(result.status).toBe('completed')
    const reqs = current.model.server.messageRequests()
    const firsts = firstCalls(reqs)
    expect(firsts).toHaveLength(W)
    const mainTools = reqs[0].cache!.write5m
    for (const r of firsts) {
      // Its own folder, in its own system prompt.
      expect(r.system).toMatch(/worktree/)
      expect(r.cache!.read).toBeGreaterThan(2500)
      expect(r.cache!.read).toBeLessThan(mainTools)
    }
    expect(new Set(firsts.map((r) => r.system)).size).toBe(W)
  })

  it('off: all sixteen start at once and each writes the prefix', async () => {
    // Each first call is answered only once all sixteen have arrived: proof that none waited for another.
    let arrived = 0
    let all!: () => void
    const together = new Promise<void>((r) => (all = r))
    const reqs = await run(async (req, ctx) => {
      if (/Worker task/.test(req.firstUserText) && req.turn === 0 && ++arrived === N) all()
      if (/Worker task/.test(req.firstUserText) && req.turn === 0) await together
      return fanOut(req, ctx)
    }, 'off')
    const firsts = firstCalls(reqs)
    const prefix = Math.max(...firsts.map((r) => r.cache!.read + written(r)))
    expect(firsts.filter((r) => written(r) > prefix / 20)).toHaveLength(N)
  })

  it('prewarm: one max_tokens 0 request writes the prefix and all sixteen read it', async () => {
    const reqs = await run(fanOut, 'prewarm')
    const warmups = reqs.filter((r) => r.maxTokens === 0)
    // One for the main agent's prefix, one for the workers'.
    expect(warmups).toHaveLength(2)
    expect(warmups.every((r) => !r.stream && r.firstUserText === 'warmup')).toBe(true)
    const firsts = firstCalls(reqs)
    const prefix = prefixTokens(reqs)
    expect(firsts.every((r) => r.cache!.read === prefix)).toBe(true)
  })

  it('forks read their parent’s cached conversation; the first writes the spawning turn, the others read it too', async () => {
    const forks = 4
    const respond = scriptByAgent([
      { name: 'fork', match: (req) => req.lastUserText.includes('Entered sub-agent context'), turns: [], then: reply.text('fork done') },
      {
        name: 'main',
        match: 'lead agent in Fanout',
        turns: [
          reply.toolUse('Glob', { pattern: '**/*' }),
          reply.text(`Noted. ${'A long answer that makes the conversation worth caching. '.repeat(60)}`),
          ...[] // the person's second prompt opens turn 3
        ],
        then: (req) =>
          req.toolResults.length
            ? reply.text('all forks reported')
            : reply.toolUses(
                Array.from({ length: forks }, (_, i) => ({
                  name: 'Agent',
                  input: { description: `Fork ${i}`, prompt: `Side task ${i}`, subagent_type: 'fork' }
                }))
              )
      }
    ])
    await run(respond, 'first', 'Look around.')
    const result = await current!.session.run('Now split the work.')
    expect(result.status).toBe('completed')
    const reqs = current!.model.server.messageRequests()
    const parentLast = reqs
      .filter((r) => r.system.includes('lead agent in Fanout') && !r.toolResults.length && r.lastUserText.includes('Now split the work.'))
      .pop()!
    const parentConversation = parentLast.cache!.read + written(parentLast)
    const forkFirsts = reqs.filter((r) => r.lastUserText.includes('Entered sub-agent context'))
    expect(forkFirsts).toHaveLength(forks)
    for (const r of forkFirsts) expect(r.cache!.read).toBeGreaterThanOrEqual(parentConversation)
    // The spawning turn (the parent's reply with the four Agent calls) is written once, by the first fork.
    const reads = forkFirsts.map((r) => r.cache!.read).sort((a, b) => a - b)
    expect(reads[0]).toBe(parentConversation)
    expect(reads.slice(1).every((x) => x === reads[1] && x > parentConversation)).toBe(true)
    const spawningTurn = reads[1] - parentConversation
    const leader = forkFirsts.find((f) => f.cache!.read === parentConversation)!
    for (const r of forkFirsts.filter((f) => f !== leader)) expect(written(r)).toBe(written(leader) - spawningTurn) // only its own task
  })
})
