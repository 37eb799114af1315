// A fan-out's estimate before it starts: an `estimate` event for the turn's Agent calls, and above the
// setting, one question to the person for the whole fan-out; refused, no agent starts and the model is told.
import { appendFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EstimateEvent, PermissionRequestEvent } from '../../../../shared/events'
import { reply } from '../../model/scripted'
import { closeFixtures, makeFixture, starts } from '../testing/session-fixture'
import { mainAgent, scriptedAgent } from '../testing/scripted-agents'
import { AGENT_HISTORY_FILE } from '../../store/agent-history'
import { checkFanout, estimateFanout, readHistoryAhead, type EstimateHost } from './fanout-estimate'
import type { AgentHandle } from '../runs/agent-registry'

afterEach(closeFixtures)

const calls = (n: number) =>
  reply.toolUses(
    Array.from({ length: n }, (_, i) => ({
      name: 'Agent',
      input: { description: `Part ${i + 1}`, prompt: `Do part ${i + 1}.`, subagent_type: 'general-purpose' }
    }))
  )

describe('fan-out estimate', () => {
  it('asks once before 16 agents whose estimate is above the setting; a denial starts none and says why', async () => {
    let heard: string[] = []
    const f = await makeFixture(
      [
        scriptedAgent('worker', 'Do part', [], reply.text('did it')),
        mainAgent([calls(16)], (req) => {
          heard = req.toolResults.map((r) => r.content)
          return reply.text('ok')
        })
      ],
      { limits: { approveFanoutAboveUsd: 0.5 } }
    )
    f.session.subscribe((e) => {
      if (e.type === 'permission_request') queueMicrotask(() => f.session.respondPermission(e.requestId, 'deny'))
    })
    await f.session.run('Split it 16 ways.')
    await f.session.idle()
    const estimate = f.events.find((e): e is EstimateEvent => e.type === 'estimate')!.estimate
    expect(estimate.agents).toHaveLength(16)
    expect(estimate.approveAbove).toBe(0.5)
    expect(estimate.low).toBeLessThan(estimate.median)
    expect(estimate.high).toBeGreaterThan(0.5)
    const asked = f.events.filter((e): e is PermissionRequestEvent => e.type === 'permission_request')
    expect(asked).toHaveLength(1)
    expect(asked[0].reason).toMatch(/^Start 16 agents: about \$\d+\.\d\d \(\$\d+\.\d+–\$\d+\.\d\d\), no recorded runs/)
    expect(asked[0].input).toMatchObject({ estimate: { approveAbove: 0.5 } })
    expect(starts(f.events).filter((s) => s.depth === 1)).toHaveLength(0)
    expect(heard).toHaveLength(16)
    expect(heard[0]).toMatch(/^Subagent not started: this turn's 16 agents: .* the person did not approve it/)
  })

  it("the person's words go with the answer: in each refusal with a denial, beside the reports with an approval", async () => {
    for (const [choice, words] of [
      ['deny', 'Two agents are enough'],
      ['allow', 'Keep each report short']
    ] as const) {
      let heard: string[] = []
      let said = ''
      const f = await makeFixture(
        [
          scriptedAgent('worker', 'Do part', [], reply.text('did it')),
          mainAgent([calls(16)], (req) => {
            heard = req.toolResults.map((r) => r.content)
            said = req.lastUserText
            return reply.text('ok')
          })
        ],
        { limits: { approveFanoutAboveUsd: 0.5 } }
      )
      f.session.subscribe((e) => {
        if (e.type === 'permission_request') queueMicrotask(() => f.session.respondPermission(e.requestId, choice, words))
      })
      await f.session.run('Split it 16 ways.')
      await f.session.idle()
      expect(heard).toHaveLength(16)
      if (choice === 'deny') {
        expect(starts(f.events).filter((s) => s.depth === 1)).toHaveLength(0)
        expect(heard[0]).toMatch(/the person did not approve it\. .*\nThe user said: Two agents are enough$/s)
      } else {
        expect(starts(f.events).filter((s) => s.depth === 1)).toHaveLength(16)
        expect(heard.every((r) => r.includes('did it'))).toBe(true)
        expect(said).toContain('The user approved this fan-out and said: Keep each report short')
      }
    }
  })

  it('below the setting (or without one) the estimate is said and nothing is asked', async () => {
    const f = await makeFixture([scriptedAgent('worker', 'Do part', [], reply.text('did it')), mainAgent([calls(2)], reply.text('ok'))])
    await f.session.run('Split it.')
    await f.session.idle()
    expect(f.events.filter((e) => e.type === 'estimate')).toHaveLength(1)
    expect(f.events.some((e) => e.type === 'permission_request')).toBe(false)
    expect(starts(f.events).filter((s) => s.depth === 1)).toHaveLength(2)
  })

  it("is said before a call that waited for the reply's end starts; after the agents that started while it streamed", async () => {
    const said: EstimateEvent[] = []
    const host = {
      definitions: { agents: () => new Map() },
      gate: { limits: { approveFanoutAboveUsd: 0 } },
      emit: (e: EstimateEvent) => said.push(e),
      sessionId: 's1',
      permissions: {}
    } as unknown as EstimateHost
    const main = { id: 'main' } as AgentHandle
    const agentCall = (id: string) => ({ id, name: 'Agent', input: { description: id, prompt: `Do ${id}.`, subagent_type: 'general-purpose' } })
    const turn = [agentCall('a'), agentCall('b'), { id: 'r', name: 'Read', input: { file_path: 'x' } }]
    // One agent waits for the reply's end: it starts only after the estimate is said.
    await expect(checkFanout(host, main, turn, new Set(['a']))).resolves.toBeNull()
    expect(said.map((e) => e.estimate.agents.map((a) => a.toolUseId))).toEqual([['a', 'b']])
    // Both started already (early-spawn.ts): nothing waits on it, and it is said once their first requests are out.
    said.length = 0
    await expect(checkFanout(host, main, turn, new Set(['a', 'b']))).resolves.toBeNull()
    expect(said).toHaveLength(0)
    await new Promise((resolve) => setImmediate(resolve))
    await vi.waitFor(() => expect(said.map((e) => e.estimate.agents.map((a) => a.toolUseId))).toEqual([['a', 'b']]))
  })
})

describe('the history an estimate reads', () => {
  const record = (i: number, costUsd: number) => ({
    ts: 1_795_000_000_000 + i,
    sessionId: 's',
    agentId: `a${i}`,
    agentType: 'general-purpose',
    outcome: 'completed',
    costUsd,
    tokens: 1000,
    turns: 2,
    durationMs: 1000
  })
  // Runs recorded (appended, as every run's end does): n of them at `costUsd` each.
  const recorded = (dataDir: string, n: number, costUsd: number) =>
    appendFileSync(join(dataDir, AGENT_HISTORY_FILE), Array.from({ length: n }, (_, i) => `${JSON.stringify(record(i, costUsd))}\n`).join(''))
  const host = (dataDir: string) =>
    ({ dataDir, definitions: { agents: () => new Map() }, gate: { limits: { approveFanoutAboveUsd: 0 } } }) as unknown as EstimateHost
  const agentCall = [{ id: 't1', name: 'Agent', input: { description: 'Part', prompt: 'Do the part.', subagent_type: 'general-purpose' } }]

  afterEach(() => vi.useRealTimers())

  it("is read while the reply's calls stream (not after its last one), once; the next reply reads it afresh", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fanout-history-ahead-'))
    recorded(dataDir, 6, 1)
    // A heavy user's history is megabytes: read at the reply's end, it held the last call's agent back (68 vs 26 ms of
    // a 16-way fan-out's overhead with 10,000 recorded runs).
    expect(await readHistoryAhead(dataDir)).toHaveLength(6)
    // Twelve more runs recorded since: the estimate at this reply's end is the one read ahead...
    recorded(dataDir, 12, 9)
    expect((await estimateFanout(host(dataDir), agentCall))!.median).toBeCloseTo(1, 1)
    // ...and the next reply's, with no read begun ahead, reads the file as it is now.
    expect((await estimateFanout(host(dataDir), agentCall))!.median).toBeCloseTo(9, 1)
  })

  it('a read begun ahead more than 30 s before the estimate is not used', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fanout-history-stale-'))
    recorded(dataDir, 6, 1)
    await readHistoryAhead(dataDir)
    recorded(dataDir, 12, 9)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 31_000)
    expect((await estimateFanout(host(dataDir), agentCall))!.median).toBeCloseTo(9, 1)
  })
})
