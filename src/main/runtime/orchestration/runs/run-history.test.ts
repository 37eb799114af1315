// The agent definitions' history: every subagent run is one record whose cost, tokens, turns and outcome
// are its transcript's agent_end, the records outlive the session (a restart reads them back and adds to
// them), `fanout agents stats` prints them, and a fan-out's estimate of a known definition lands in its
// recorded range.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { agentStats, estimateCall, historyRuns } from '../../../../shared/budget'
import type { AgentEndEvent, EstimateEvent } from '../../../../shared/events'
import { statsCommand } from '../../../cli/agents-stats'
import { reply } from '../../model/scripted'
import { readAgentHistory } from '../../store/agent-history'
import { readTranscript } from '../../store/transcript/reader'
import { closeFixtures, makeFixture } from '../testing/session-fixture'
import { mainAgent, scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const SCOUT = `---
name: scout
description: Looks around
tools: Glob
---
You are the scout.`

const scout = (n: number) => ({ description: `Scout ${n}`, prompt: `Look around, part ${n}.`, subagent_type: 'scout' })

describe('agent history', () => {
  it('records each run as its transcript says, survives a restart, prints in stats and estimates the next fan-out', async () => {
    const f = await makeFixture(
      [
        scriptedAgent('scout', 'You are the scout', [
          reply.toolUse('Glob', { pattern: '*' }, { usage: { input_tokens: 30_000, output_tokens: 500 } }),
          reply.text('Saw two files.', { usage: { input_tokens: 31_000, output_tokens: 200 } })
        ]),
        mainAgent([reply.toolUses([1, 2].map((n) => ({ name: 'Agent', input: scout(n) })))], (req) =>
          req.toolResults.length ? reply.text('done') : reply.toolUses([3, 4].map((n) => ({ name: 'Agent', input: scout(n) })))
        )
      ],
      { files: { '.claude/agents/scout.md': SCOUT } }
    )
    await f.session.run('Scout twice.')
    await f.session.idle()
    const sessionId = f.session.sessionId
    await f.session.close()

    const first = await readAgentHistory(f.dataDir)
    expect(first).toHaveLength(2)
    // Each record is the agent's transcript's agent_end.
    const transcripts = join(f.dataDir, 'sessions', sessionId)
    for (const r of first) {
      const file = readdirSync(transcripts, { recursive: true, encoding: 'utf8' }).find((p) => p.endsWith(`${r.agentId}.jsonl`))!
      const end = (await readTranscript(join(transcripts, file))).events.find((e): e is AgentEndEvent & { seq: number } => e.type === 'agent_end')!
      const u = end.usage
      expect(r).toMatchObject({
        agentType: 'scout',
        file: join(f.cwd, '.claude/agents/scout.md'),
        outcome: 'completed',
        costUsd: u.costUsd,
        tokens: u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens,
        turns: end.numTurns,
        durationMs: end.durationMs
      })
      expect(r.costUsd).toBeGreaterThan(0)
    }

    // A restart: a new session on the same data folder, whose fan-out is estimated from the recorded runs.
    const next = await f.newSession()
    await next.session.run('Scout twice more.')
    await next.session.idle()
    const estimate = next.events.find((e): e is EstimateEvent => e.type === 'estimate')!.estimate
    const costs = first.map((r) => r.costUsd)
    expect(estimate.agents).toHaveLength(2)
    for (const a of estimate.agents) {
      expect(a).toMatchObject({ agentType: 'scout', runs: 2 })
      expect(a.median).toBeGreaterThanOrEqual(Math.min(...costs) * 0.999)
      expect(a.median).toBeLessThanOrEqual(Math.max(...costs) * 1.001)
      expect(a.low).toBeLessThanOrEqual(a.median)
      expect(a.high).toBeGreaterThanOrEqual(a.median)
    }
    await next.session.close()

    const all = await readAgentHistory(f.dataDir)
    expect(all).toHaveLength(4)
    const stats = agentStats([...historyRuns(all).values()][0])
    expect(stats).toMatchObject({ agentType: 'scout', runs: 4, successRate: 1, outcomes: { completed: 4 } })
    expect(stats.totalCostUsd).toBeCloseTo(
      all.reduce((s, r) => s + r.costUsd, 0),
      10
    )

    let out = ''
    const code = await statsCommand([], { stdout: (t) => (out += t), stderr: () => undefined, env: { FANOUT_DATA_DIR: f.dataDir }, cwd: f.cwd })
    expect(code).toBe(0)
    expect(out).toContain('scout  .claude/agents/scout.md')
    expect(out).toContain('4 runs, 100% succeeded')
    expect(out).toContain('outcomes: completed 4')
  })

  it("a known definition's estimate lands within its recorded range, scaled by the prompt within bounds", () => {
    const runs = [0.02, 0.05, 0.03, 0.08, 0.04].map((costUsd, i) => ({
      ts: i,
      sessionId: 's',
      agentId: `a${i}`,
      agentType: 'scout',
      outcome: 'completed' as const,
      costUsd,
      tokens: 1,
      turns: 1,
      durationMs: 1,
      promptChars: 1000
    }))
    const same = estimateCall({ toolUseId: 't', agentType: 'scout', promptChars: 1000 }, runs)
    expect(same).toMatchObject({ low: 0.02, median: 0.04, high: 0.08, runs: 5 })
    const long = estimateCall({ toolUseId: 't', agentType: 'scout', promptChars: 100_000 }, runs)
    expect(long.median).toBeCloseTo(0.08)
    expect(long.high).toBeCloseTo(0.16)
    const unknown = estimateCall({ toolUseId: 't', agentType: 'new', promptChars: 100 }, [])
    expect(unknown.runs).toBe(0)
    expect(unknown.low).toBeLessThan(unknown.median)
  })
})
