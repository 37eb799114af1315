// Background agents end to end: the real SDK over HTTP to the scripted server, real tools on real files.
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, ToolEndEvent } from '../../../../shared/events'
import { BACKGROUND_ALLOWED } from '../../definitions'
import { reply } from '../../model/scripted'
import { isFinished } from '../runs/agent-registry'
import { closeFixtures, ends, latch, makeFixture, starts, waitForEvent } from '../testing/session-fixture'
import { heldUntil, mainAgent, scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const toolEnds = (events: AgentEvent[], name: string) => events.filter((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === name)
const launchedOf = (e: ToolEndEvent) => e.details as { status: string; agentId: string; outputFile: string }

const WORKER = `---
name: bg-worker
description: Counts files in the background
background: true
---
You are the background worker.`

describe('background agents', () => {
  it('a definition with background: true returns at once; the report wakes the idle main agent as a task notification', async () => {
    const release = latch()
    const f = await makeFixture(
      [
        scriptedAgent('worker', 'You are the background worker', [
          reply.toolUse('Glob', { pattern: '**/*.txt' }, { text: 'Counting the text files.' }),
          heldUntil(release, (req) => reply.text(`Found ${req.toolResults[0].content.trim().split('\n').length} text files.`))
        ]),
        mainAgent([
          reply.toolUse('Agent', { description: 'Count files', prompt: 'Count the text files.', subagent_type: 'bg-worker' }),
          reply.text('The worker is counting; I will report when it is done.'),
          (req) => reply.text(`Done: ${/Found \d+ text files/.exec(req.lastUserText)?.[0] ?? 'no report'}`)
        ])
      ],
      { files: { 'a.txt': 'a', 'b.txt': 'b', 'sub/c.txt': 'c', '.claude/agents/bg-worker.md': WORKER } }
    )
    const { session: s, events, model } = f
    const first = await s.run('Count the files, in the background.')
    // The parent's turn ended while the worker still runs.
    expect(first.result).toBe('The worker is counting; I will report when it is done.')
    const launch = toolEnds(events, 'Agent')[0]
    expect(launch.isError).toBe(false)
    const details = launchedOf(launch)
    expect(details).toEqual({
      status: 'async_launched',
      agentId: expect.stringMatching(/^a[0-9a-f]{16}$/),
      outputFile: expect.stringContaining(details.agentId)
    })
    expect(JSON.parse(launch.output.split('\n')[0])).toEqual(details)
    expect(isFinished(s.registry.get(details.agentId)!.status)).toBe(false)

    release.open()
    await s.idle()
    // The notification woke the main agent, which answered from the report.
    expect(s.lastResult?.result).toBe('Done: Found 3 text files')
    const mainStarts = starts(events).filter((e) => e.agentId === s.mainAgentId)
    expect(mainStarts).toHaveLength(2)
    expect(mainStarts[1].prompt).toMatch(
      new RegExp(
        `<task-notification>\\n<task-id>${details.agentId}</task-id>[\\s\\S]*<status>completed</status>[\\s\\S]*Found 3 text files[\\s\\S]*</task-notification>`
      )
    )
    expect(events.some((e) => e.type === 'message_received' && e.agentId === s.mainAgentId && e.from === details.agentId)).toBe(true)
    // Background agents get only the background allowlist: no Agent, no SendMessage.
    const workerRequest = model.server.messageRequests().find((r) => r.system.includes('You are the background worker'))!
    expect(workerRequest.toolNames.length).toBeGreaterThan(0)
    for (const name of workerRequest.toolNames) expect(BACKGROUND_ALLOWED.has(name)).toBe(true)
    expect(starts(events).find((e) => e.agentId === details.agentId)?.background).toBe(true)
    // The output file was written as it ran and ends with the status.
    await s.flush()
    const log = readFileSync(details.outputFile, 'utf8')
    expect(log).toContain('Counting the text files.')
    expect(log).toContain('[Glob {"pattern":"**/*.txt"}]')
    expect(log).toContain('Found 3 text files.')
    expect(log.trimEnd().endsWith('[agent completed]')).toBe(true)
  })

  it('a report that arrives while the parent works is injected at its next turn, without a second run', async () => {
    const f = await makeFixture([
      { name: 'worker', match: 'Quick background job', turns: [reply.text('Background result: 42.')] },
      mainAgent([
        reply.toolUse('Agent', { description: 'Quick job', prompt: 'Quick background job', run_in_background: true }),
        async () => {
          // Hold this turn until the report has reached the main agent's inbox.
          await waitForEvent(f.session, f.events, (e) => e.type === 'message_received' && e.agentId === f.session.mainAgentId)
          return reply.toolUse('Glob', { pattern: '*' })
        },
        (req) => reply.text(req.lastUserText.includes('Background result: 42.') ? 'saw the report' : 'no report')
      ])
    ])
    const result = await f.session.run('go')
    await f.session.idle()
    expect(result.result).toBe('saw the report')
    expect(starts(f.events).filter((e) => e.agentId === f.session.mainAgentId)).toHaveLength(1)
    expect(f.session.lastResult).toBe(result)
  })

  it('TaskOutput reports progress without blocking, then waits for the result; the report also arrives as a notification', async () => {
    const release = latch()
    let agentId = ''
    const f = await makeFixture([
      scriptedAgent('worker', 'Slow background job', [heldUntil(release, reply.text('Slow job finished: all green.'))]),
      mainAgent([
        reply.toolUse('Agent', { description: 'Slow job', prompt: 'Slow background job', run_in_background: true }),
        (req) => {
          agentId = JSON.parse(req.toolResults[0].content.split('\n')[0]).agentId
          return reply.toolUse('TaskOutput', { agentId, block: false })
        },
        () => {
          release.open()
          return reply.toolUse('TaskOutput', { task_id: agentId, timeout: 20_000 })
        },
        reply.text('finished')
      ])
    ])
    await f.session.run('go')
    await f.session.idle()
    const outputs = toolEnds(f.events, 'TaskOutput')
    expect(outputs[0].output).toMatch(new RegExp(`^Agent ${agentId} is still (running|queued)`))
    expect(outputs[1].output).toMatch(new RegExp(`^Agent ${agentId} has finished \\(status: completed\\)\\.\\n\\nSlow job finished: all green\\.`))
    // The notification was still delivered (at the main agent's next turn), and did not start another run.
    const mainRequests = f.model.server.messageRequests().filter((r) => r.system.includes('lead agent in Fanout'))
    expect(mainRequests[mainRequests.length - 1].lastUserText).toContain('<task-notification>')
    expect(starts(f.events).filter((e) => e.agentId === f.session.mainAgentId)).toHaveLength(1)
  })

  it('TaskStop stops a background agent; the parent gets its output and no notification', async () => {
    const hold = latch()
    const f = await makeFixture([
      scriptedAgent('worker', 'Endless background job', [
        reply.toolUse('Glob', { pattern: '*' }, { text: 'Started the endless job.' }),
        heldUntil(hold, reply.text('never'))
      ]),
      mainAgent([
        reply.toolUse('Agent', { description: 'Endless job', prompt: 'Endless background job', run_in_background: true }),
        async (req) => {
          const agentId = JSON.parse(req.toolResults[0].content.split('\n')[0]).agentId
          await waitForEvent(f.session, f.events, (e) => e.type === 'tool_end' && e.agentId === agentId)
          return reply.toolUse('TaskStop', { agentId })
        },
        reply.text('stopped it')
      ])
    ])
    await f.session.run('go')
    await f.session.idle()
    hold.open()
    const stop = toolEnds(f.events, 'TaskStop')[0]
    expect(stop.output).toMatch(/^Stopped agent a[0-9a-f]{16}\. Its output so far \(the latest part\):[\s\S]*Started the endless job\./)
    const workerEnd = ends(f.events).find((e) => e.agentId !== f.session.mainAgentId)!
    expect(workerEnd.status).toBe('stopped')
    expect(f.events.some((e) => e.type === 'message_received')).toBe(false)
    expect(starts(f.events).filter((e) => e.agentId === f.session.mainAgentId)).toHaveLength(1)
  })

  it('a background agent that stalls is marked failed, its last output kept, and the parent is told', async () => {
    const hold = latch()
    const f = await makeFixture(
      [
        scriptedAgent('worker', 'Stalling job', [
          reply.toolUse('Glob', { pattern: '*' }, { text: 'Looked at the folder first.' }),
          heldUntil(hold, reply.text('too late'))
        ]),
        mainAgent([
          reply.toolUse('Agent', { description: 'Stalling job', prompt: 'Stalling job', run_in_background: true }),
          reply.text('waiting'),
          (req) => reply.text(req.lastUserText.includes('<status>failed</status>') ? 'the worker stalled' : 'unexpected')
        ])
      ],
      // Quiet for longer than any gap between its events a loaded machine makes before the hold (0.3 s was
      // within reach: the worker then stalled before its first output).
      { backgroundStallMs: 3000 }
    )
    await f.session.run('go')
    await f.session.idle()
    hold.open()
    const workerEnd = ends(f.events).find((e) => e.agentId !== f.session.mainAgentId)!
    expect(workerEnd.status).toBe('failed')
    expect(workerEnd.error).toMatch(/no activity for 3 s/)
    expect(workerEnd.result).toBe('Looked at the folder first.')
    expect(f.session.lastResult?.result).toBe('the worker stalled')
    const notification = starts(f.events).filter((e) => e.agentId === f.session.mainAgentId)[1].prompt
    expect(notification).toContain('Looked at the folder first.')
    expect(existsSync(f.session.registry.get(workerEnd.agentId)!.outputFile!)).toBe(true)
  })

  it("a background agent is not stopped as stalled when the wall clock jumps (a laptop's sleep, a clock set forward)", async () => {
    const hold = latch()
    const f = await makeFixture(
      [
        scriptedAgent('worker', 'Slow job', [heldUntil(hold, reply.text('Slow job done.'))]),
        mainAgent([
          reply.toolUse('Agent', { description: 'Slow job', prompt: 'Slow job', run_in_background: true }),
          reply.text('waiting'),
          (req) => reply.text(req.lastUserText.includes('Slow job done.') ? 'the worker finished' : 'unexpected')
        ])
      ],
      { backgroundStallMs: 3000 }
    )
    await f.session.run('go')
    // The machine's clock is set an hour forward while the worker waits on the model for 1.5 s: the stall watch
    // looks several times meanwhile, and the worker was quiet for 1.5 s, not an hour.
    const realNow = Date.now
    const jumped = realNow() + 3600_000
    const base = realNow()
    Date.now = () => jumped + (realNow.call(Date) - base)
    try {
      await new Promise((r) => setTimeout(r, 1500))
      hold.open()
      await f.session.idle()
    } finally {
      Date.now = realNow
    }
    const workerEnd = ends(f.events).find((e) => e.agentId !== f.session.mainAgentId)!
    expect(workerEnd.status).toBe('completed')
    expect(workerEnd.error).toBeUndefined()
    expect(f.session.lastResult?.result).toBe('the worker finished')
  })

  it('a report for a subagent that has already finished goes to the nearest agent still running (here the main agent)', async () => {
    const release = latch()
    const f = await makeFixture([
      scriptedAgent('grandchild', 'Deep background job', [heldUntil(release, reply.text('Deep job result: 99.'))]),
      scriptedAgent('child', 'Delegate the deep job', [
        reply.toolUse('Agent', { description: 'Deep job', prompt: 'Deep background job', run_in_background: true }),
        reply.text('Delegated; not waiting.')
      ]),
      mainAgent([
        reply.toolUse('Agent', { description: 'Delegate', prompt: 'Delegate the deep job.' }),
        () => {
          release.open()
          return reply.text('child returned')
        },
        (req) =>
          reply.text(
            /meant for agent a[0-9a-f]{16}, which is no longer running[\s\S]*Deep job result: 99\./.test(req.lastUserText)
              ? 'got the forwarded report'
              : 'no report'
          )
      ])
    ])
    await f.session.run('go')
    await f.session.idle()
    expect(f.session.lastResult?.result).toBe('got the forwarded report')
    const child = starts(f.events).find((e) => e.parentAgentId === f.session.mainAgentId)!
    const grandchild = starts(f.events).find((e) => e.parentAgentId === child.agentId)!
    expect(grandchild.background).toBe(true)
    expect(f.events.some((e) => e.type === 'message_received' && e.agentId === f.session.mainAgentId && e.from === grandchild.agentId)).toBe(true)
    expect(f.events.some((e) => e.type === 'message_received' && e.agentId === child.agentId)).toBe(false)
  })
})
