// A 64-way fan-out with default settings: one wave where the API allows it, and, against an account that
// serves only a few requests at once (429 beyond, with retry-after and rate-limit headers), a slower run
// in which every agent still completes and those held back show as queued.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEndEvent, AgentEvent } from '../../../../shared/events'
import { reply, scriptByAgent, startScriptedModel, type ScriptedModel } from '../../model/scripted'
import type { ScriptedServerOptions } from '../../model/scripted'
import { AgentSession } from '../session/session'
import { mainAgent } from '../testing/scripted-agents'

const N = 64

let model: ScriptedModel | null = null
afterEach(async () => {
  await model?.close()
  model = null
})

async function fanOut(server: Omit<ScriptedServerOptions, 'respond'>) {
  // The client's default retries (8), as a user runs it; the test kit's 3 is for failure tests.
  model = await startScriptedModel(
    {
      latencyMs: 20,
      ...server,
      respond: scriptByAgent([
        // Each worker's answer takes a while, so that all 64 are at work together whenever their calls start.
        { name: 'worker', match: /Task number \d+/, turns: [reply.text('ok', { delayMs: 600 })] },
        mainAgent([
          reply.toolUses(Array.from({ length: N }, (_, n) => ({ name: 'Agent', input: { description: `Task ${n}`, prompt: `Task number ${n}` } }))),
          reply.text('all done')
        ])
      ])
    },
    { maxRetries: 8 }
  )
  const cwd = mkdtempSync(join(tmpdir(), 'fanout-wide-'))
  const home = mkdtempSync(join(tmpdir(), 'fanout-home-'))
  // No limits passed: the session's defaults, as a user gets them.
  const s = await AgentSession.create({ client: model.client, cwd, home, ripgrep: false })
  const events: AgentEvent[] = []
  s.bus.subscribe((e) => events.push(e))
  const result = await s.run('go')
  const children = (e: AgentEvent) => e.parentAgentId === s.mainAgentId
  const ends = events.filter((e): e is AgentEndEvent => e.type === 'agent_end' && children(e))
  let running = 0
  let peak = 0
  for (const e of events.filter(children)) {
    if (e.type === 'agent_start') peak = Math.max(peak, ++running)
    if (e.type === 'agent_end') running--
  }
  const queued = events.filter((e) => children(e) && e.type === 'status' && e.status === 'queued')
  return { result, ends, peak, queued, events, server: model.server }
}

describe('a 64-way fan-out', () => {
  it('starts all 64 subagents in one wave with default settings', async () => {
    const run = await fanOut({})
    expect(run.result.status).toBe('completed')
    expect(run.peak).toBe(N)
    expect(run.queued).toEqual([])
    expect(run.ends.filter((e) => e.status === 'completed')).toHaveLength(N)
  }, 120_000)

  it('finishes with every agent completed against an account that serves 4 requests at once; the held-back ones show as queued', async () => {
    const run = await fanOut({ rateLimit: { concurrent: 4, retryAfterMs: 20 } })
    expect(run.result.status).toBe('completed')
    expect(run.result.result).toBe('all done')
    expect(run.ends.map((e) => e.status)).toEqual(Array(N).fill('completed'))
    // The account did refuse some, and never served more than it allows.
    expect(run.server.rateLimited.refused).toBeGreaterThan(0)
    expect(run.server.rateLimited.peakConcurrent).toBeLessThanOrEqual(4)
    // Agents the limiter held back said so, and went back to running when their request went.
    expect(run.queued.length).toBeGreaterThan(0)
    expect(run.queued.every((e) => e.type === 'status' && /API|in flight/.test(e.detail ?? ''))).toBe(true)
    const held = run.queued[0].agentId
    const after = run.events.filter((e) => e.agentId === held && e.type === 'status').map((e) => (e.type === 'status' ? e.status : ''))
    expect(after.at(-1)).toBe('running')
  }, 120_000)
})
