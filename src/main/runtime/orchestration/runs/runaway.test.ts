// Runaway guards: every agent run ends, with a status and a reason, when it would otherwise go on forever
// or spend without bound: the turn ceiling every agent gets, the same failing call repeated, the session's
// budget in tokens and in dollars.
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEndEvent } from '../../../../shared/events'
import { reply, scriptByAgent } from '../../model/scripted'
import { closeFixtures, ends, makeFixture } from '../testing/session-fixture'
import { mainAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const endOf = (events: Parameters<typeof ends>[0], agentType: string): AgentEndEvent => {
  const startOf = events.find((e) => e.type === 'agent_start' && e.agentType === agentType)!
  return ends(events).find((e) => e.agentId === startOf.agentId)!
}

describe('runaway guards', () => {
  it('a subagent without maxTurns stops at the turn limit every agent gets; its parent hears why', async () => {
    const f = await makeFixture(
      [
        // Waits for a message that never comes, forever: what ran 2,500 turns before.
        {
          name: 'waiter',
          match: 'Wait for the go signal',
          turns: [],
          then: reply.toolUse('TodoWrite', { todos: [{ content: 'wait for the go signal', status: 'in_progress', activeForm: 'Waiting' }] })
        },
        mainAgent([reply.toolUse('Agent', { description: 'Wait', prompt: 'Wait for the go signal', subagent_type: 'general-purpose' })], (req) =>
          reply.text(`child said: ${req.toolResults[0]?.content.slice(0, 60) ?? ''}`)
        )
      ],
      { limits: { maxTurns: 7 } }
    )
    await f.session.run('Start the waiter.')
    await f.session.idle()
    const end = endOf(f.events, 'general-purpose')
    expect(end).toMatchObject({
      status: 'max_turns',
      limit: 'max_turns',
      numTurns: 7,
      error: 'Stopped at the limit of 7 turns (the limit every agent gets, set in Settings → Limits) before finishing.'
    })
    expect(f.events.some((e) => e.type === 'error' && e.agentId === end.agentId && e.message === end.error)).toBe(true)
    expect(f.model.server.messageRequests().filter((r) => r.firstUserText === 'Wait for the go signal')).toHaveLength(7)
  })

  it('the same failing call repeated ends the run as failed for making no progress (a tool that does not exist)', async () => {
    const f = await makeFixture([
      { name: 'stuck', match: 'Use the frobnicator', turns: [], then: (req) => reply.toolUse('Frobnicate', { attempt: req.turn }) },
      mainAgent([reply.toolUse('Agent', { description: 'Frobnicate', prompt: 'Use the frobnicator', subagent_type: 'general-purpose' })], reply.text('done'))
    ])
    const result = await f.session.run('Go.')
    await f.session.idle()
    expect(result.status).toBe('completed')
    const end = endOf(f.events, 'general-purpose')
    expect(end.status).toBe('failed')
    expect(end.limit).toBe('no_progress')
    expect(end.error).toMatch(
      /^Stopped for making no progress: the same failing Frobnicate call 5 turns in a row \(Frobnicate: No tool named "Frobnicate" is available to this agent\./
    )
    expect(end.numTurns).toBe(5)
    // The report the parent got says the same.
    const report = f.model.server.messageRequests().find((r) => r.firstUserText === 'Go.' && r.turn === 1)!
    expect(report.toolResults[0].content).toContain('Stopped for making no progress')
  })

  it('a failing call that changes, or one that succeeds now and then, is progress', async () => {
    const f = await makeFixture([
      {
        name: 'main',
        match: 'lead agent in Fanout',
        turns: Array.from({ length: 12 }, (_, i) =>
          i % 3 === 2 ? reply.toolUse('Glob', { pattern: '*' }) : reply.toolUse('Read', { file_path: `nope-${i % 3}.txt` })
        ),
        then: reply.text('finished')
      }
    ])
    const result = await f.session.run('Look around.')
    expect(result).toMatchObject({ status: 'completed', result: 'finished' })
  })

  it('the session budget in tokens ends every agent at its next call, with the reason', async () => {
    const usage = { input_tokens: 4000, output_tokens: 1000 }
    const f = await makeFixture(
      [
        { name: 'worker', match: 'Count the files', turns: [], then: reply.toolUse('Glob', { pattern: '*' }, { usage }) },
        mainAgent(
          [reply.toolUse('Agent', { description: 'Count', prompt: 'Count the files', subagent_type: 'general-purpose' }, { usage })],
          reply.text('done', { usage })
        )
      ],
      { limits: { budgetTokens: 20_000 } }
    )
    const result = await f.session.run('Count.')
    await f.session.idle()
    const end = endOf(f.events, 'general-purpose')
    expect(end).toMatchObject({ status: 'failed', limit: 'budget' })
    expect(end.error).toMatch(/^Stopped at the session's budget: the session has used 20,000 tokens of its budget of 20,000\. No further model calls are made/)
    expect(result).toMatchObject({ status: 'failed', limit: 'budget' })
    // 4 calls of 5,000 tokens reach it: main's first, then the worker's three; nothing is called past it.
    expect(f.model.server.messageRequests()).toHaveLength(4)
  })

  it('the session budget in dollars likewise', async () => {
    const f = await makeFixture(
      { respond: scriptByAgent([mainAgent([], reply.toolUse('Glob', { pattern: '*' }, { usage: { input_tokens: 100_000, output_tokens: 10_000 } }))]) },
      { limits: { budgetUsd: 0.5 } }
    )
    const result = await f.session.run('Spend.')
    expect(result).toMatchObject({ status: 'failed', limit: 'budget' })
    expect(result.error).toMatch(/the session has spent \$0\.\d{4} of its \$0\.50 budget/)
  })
})
