// Budgets on a node of the tree: an Agent call's `budget` (or its definition's `budget:`) stops that agent
// and every agent under it within one request of the limit, keeps their work (files, worktree branch), warns
// first, and tells the parent in the tool result which budget stopped it, what was spent and what it can do.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEndEvent, AgentEvent, BudgetEvent, UsageEvent } from '../../../../shared/events'
import { reply } from '../../model/scripted'
import { closeFixtures, ends, makeFixture, starts, tempRepo } from '../testing/session-fixture'
import { mainAgent, scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const SPEND = { usage: { input_tokens: 50_000, output_tokens: 0 } }

const DIGGER = `---
name: digger
description: Digs through the repository
isolation: worktree
budget: {usd: 5}
---
You are the digger.`

const HELPER = `---
name: helper
description: Helps the digger
tools: Glob, Read
---
You are the helper.`

const subtreeOf = (events: AgentEvent[], type: string) => starts(events).find((s) => s.agentType === type)!.agentId

describe('subtree budgets', () => {
  it('a $ budget on an Agent call stops its whole subtree within one request, keeps the work and tells the parent', async () => {
    const r = tempRepo()
    r.write('README.md', 'hello\n')
    r.commitAll('start')
    let parentHeard = ''
    const f = await makeFixture(
      [
        scriptedAgent('digger', 'You are the digger', [
          reply.toolUse('Write', { file_path: 'found.txt', content: 'what the digger found\n' }, SPEND),
          reply.toolUse('Agent', { description: 'Help dig', prompt: 'Glob everything, forever.', subagent_type: 'helper' }, SPEND),
          reply.text('The digger is done.', SPEND)
        ]),
        // Never finishes by itself: only the budget ends it.
        scriptedAgent('helper', 'You are the helper', [], reply.toolUse('Glob', { pattern: '*' }, SPEND)),
        mainAgent(
          [
            reply.toolUse('Agent', {
              description: 'Dig',
              prompt: 'Dig through the repository.',
              subagent_type: 'digger',
              // The call's budget wins over the definition's $5.
              budget: { usd: 0.5 }
            })
          ],
          (req) => {
            parentHeard = req.toolResults[0]?.content ?? ''
            return reply.text('noted')
          }
        )
      ],
      { cwd: r.root, permissionMode: 'acceptEdits', files: { '.claude/agents/digger.md': DIGGER, '.claude/agents/helper.md': HELPER } }
    )
    const result = await f.session.run('Dig.')
    await f.session.idle()
    expect(result.status).toBe('completed')

    const digger = subtreeOf(f.events, 'digger')
    const helper = subtreeOf(f.events, 'helper')
    expect(starts(f.events).find((s) => s.agentId === digger)?.budget).toEqual({ usd: 0.5, from: 'call' })
    const spent = f.events.filter((e): e is UsageEvent => e.type === 'usage' && (e.agentId === digger || e.agentId === helper))
    const costs = spent.map((e) => e.usage.costUsd)
    const total = costs.reduce((a, b) => a + b, 0)
    // Reached, and within one request of it: without the last request of the subtree it was still under.
    expect(total).toBeGreaterThanOrEqual(0.5)
    expect(total - Math.max(...costs)).toBeLessThan(0.5)

    const endOf = (id: string) => ends(f.events).find((e): e is AgentEndEvent => e.agentId === id)!
    expect(endOf(helper)).toMatchObject({ status: 'failed', limit: 'budget' })
    expect(endOf(digger)).toMatchObject({ status: 'failed', limit: 'budget' })
    expect(endOf(helper).error).toMatch(/agent .* \(digger\) and its subagents, this one among them, spent/)

    // Warned first, then reached, on the budget's holder.
    const budgetEvents = f.events.filter((e): e is BudgetEvent => e.type === 'budget' && e.agentId === digger)
    expect(budgetEvents.map((e) => e.level)).toEqual(['warning', 'reached'])
    expect(budgetEvents[1]).toMatchObject({ limit: { usd: 0.5 }, from: 'call' })

    // The work is kept: the worktree and its branch with the digger's file.
    const wt = endOf(digger).worktree!
    expect(wt.kept).toBe(true)
    expect(existsSync(join(wt.path, 'found.txt'))).toBe(true)
    expect(readFileSync(join(wt.path, 'found.txt'), 'utf8')).toBe('what the digger found\n')

    // The parent is told which budget, what was spent, and what it can do.
    expect(parentHeard).toContain('The digger agent stopped at a budget.')
    expect(parentHeard).toContain('Stopped at its budget of $0.50 (the budget its Agent call gave it)')
    expect(parentHeard).toMatch(/spent \$0\.\d{4} and [\d,]+ tokens/)
    expect(parentHeard).toContain(`resume: '${digger}'`)
    expect(parentHeard).toContain(`branch ${wt.branch}`)
  })

  it("a definition's budget applies when the call gives none, in tokens too", async () => {
    const TOKENS = DIGGER.replace('budget: {usd: 5}', 'budget:\n  tokens: 120000').replace('isolation: worktree\n', '')
    const f = await makeFixture(
      [
        scriptedAgent('digger', 'You are the digger', [], reply.toolUse('Glob', { pattern: '*' }, SPEND)),
        mainAgent([reply.toolUse('Agent', { description: 'Dig', prompt: 'Dig.', subagent_type: 'digger' })], reply.text('noted'))
      ],
      { files: { '.claude/agents/digger.md': TOKENS } }
    )
    await f.session.run('Dig.')
    await f.session.idle()
    const digger = subtreeOf(f.events, 'digger')
    expect(starts(f.events).find((s) => s.agentId === digger)?.budget).toEqual({ tokens: 120_000, from: 'definition' })
    const end = ends(f.events).find((e) => e.agentId === digger)!
    expect(end).toMatchObject({ status: 'failed', limit: 'budget' })
    expect(end.error).toContain("Stopped at its budget of 120,000 tokens (its definition's `budget:`)")
    // 50,000 tokens a request: the third reaches 120,000 and a fourth is never made.
    expect(f.events.filter((e) => e.type === 'usage' && e.agentId === digger)).toHaveLength(3)
  })
})
