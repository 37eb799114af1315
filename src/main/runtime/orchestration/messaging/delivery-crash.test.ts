// At-least-once delivery, exactly-once effect, across a crash (a copy of the data folder taken mid-run,
// whose writer is gone): a message received and not yet read, a report recorded and not yet received, a
// tool that finished whose turn was not written. The kill -9 versions of these run in test/crash.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/events'
import { reply, scriptByAgent, type ParsedRequest } from '../../model/scripted'
import { pendingDeliveries } from './delivery-ledger'
import { AgentSession } from '../session/session'
import { agentReached, closeFixtures, latch, makeFixture, waitForEvent, type Fixture } from '../testing/session-fixture'
import { heldUntil, mainAgent, scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1
const allText = (req: ParsedRequest) => JSON.stringify(req.messages)

// A crashed copy's first request still holds its prefix's cache lane in this process (a real restart is a new
// process): the resumed agent's request waits out the gate's limit (15 s), then goes.
const HELD_LANE_MS = 90_000

const reopen = async (f: Fixture, dataDir: string, sessionId: string) => (await f.openSession(sessionId, dataDir, { onError: () => undefined })).session

describe('delivery across a crash', () => {
  it('a message sent to a running background agent and not yet read reaches it after the restart, once (the lost message of #16)', async () => {
    const hold = latch()
    const bgWaiting = latch()
    const f = await makeFixture([
      scriptedAgent('bg', 'Review the parser', [
        reply.toolUse('Glob', { pattern: '*' }),
        async (req) => {
          if (!req.lastUserText.includes('Fanout stopped')) {
            bgWaiting.open()
            await hold.wait // before the crash: never answers
          }
          return reply.text(`got it ${count(allText(req), 'Also check the tests')} time(s)`)
        }
      ]),
      mainAgent(
        [
          reply.toolUse('Agent', { description: 'Review', prompt: 'Review the parser', run_in_background: true, name: 'reviewer' }),
          // Sent while the reviewer's model call is out: it waits in its inbox for the next turn.
          heldUntil(bgWaiting, reply.toolUse('SendMessage', { to: 'reviewer', message: 'Also check the tests' })),
          reply.text('It is reviewing.')
        ],
        (req) => reply.text(`main heard: ${/got it \d+ time\(s\)/.exec(req.lastUserText)?.[0] ?? 'nothing'}`)
      )
    ])
    const { session: s1, events: events1 } = await f.newSession()
    await s1.run('Start a reviewer.')
    const bg = s1.registry.find('reviewer')!
    await waitForEvent(s1, events1, (e) => e.type === 'message_received' && e.agentId === bg.id)
    const crashed = await f.crashCopy(s1)
    hold.open()

    const s2 = await reopen(f, crashed, s1.sessionId)
    const report = await s2.resumeInterrupted()
    expect(report.resumed).toContain(bg.id)
    await s2.idle()
    const after = f.model.server.messageRequests().filter((r) => r.firstUserText === 'Review the parser' && r.lastUserText.includes('Fanout stopped'))
    expect(after).toHaveLength(1)
    expect(count(allText(after[0]), 'Also check the tests')).toBe(1)
    expect(s2.lastResult?.result).toBe('main heard: got it 1 time(s)')
    // Consumed now: a second restart owes it nothing.
    const again = await f.crashCopy(s2)
    const s3 = await reopen(f, again, s1.sessionId)
    expect(s3.ledger.waiting.size).toBe(0)
    expect(s3.ledger.owedReports).toEqual([])
  })

  it('a report recorded in a finished run and never received is delivered after the restart, once', async () => {
    const f = await makeFixture([
      { name: 'bg', match: 'Count the files', turns: [reply.text('There are 3 files.')] },
      mainAgent(
        [reply.toolUse('Agent', { description: 'Count', prompt: 'Count the files', run_in_background: true }), reply.text('Counting in the background.')],
        (req) => reply.text(`main heard ${count(allText(req), 'There are 3 files.')} report(s)`)
      )
    ])
    const { session: s1 } = await f.newSession()
    await s1.run('Start a counter.')
    await s1.idle()
    // The crash came between the child's agent_end and the report's arrival: what a kill -9 there leaves.
    const crashed = await f.crashCopy(s1)
    const { readFileSync, writeFileSync } = await import('node:fs')
    const mainFile = join(crashed, 'sessions', s1.sessionId, 'agents', `${s1.mainAgentId}.jsonl`)
    const lines = readFileSync(mainFile, 'utf8').split('\n')
    const cut = lines.findIndex((l) => l.includes('"type":"message_received"'))
    writeFileSync(mainFile, lines.slice(0, cut).join('\n') + '\n')

    const s2 = await reopen(f, crashed, s1.sessionId)
    expect(s2.ledger.owedReports).toHaveLength(1)
    const result = await s2.run('What did it find?')
    expect(result.result).toBe('main heard 1 report(s)')
    const s3 = await reopen(f, await f.crashCopy(s2), s1.sessionId)
    expect(s3.ledger.owedReports).toEqual([])
  })

  it('a tool that finished before the crash is answered with its own result, not run again', async () => {
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          mainAgent([
            reply.toolUse('Write', { file_path: 'notes.txt', content: 'written once\n' }),
            (req) =>
              req.lastUserText.includes('Go on.')
                ? reply.text(
                    `after restart the call said: ${req.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b: { type: string }) => b.type === 'tool_result')?.content ?? 'nothing'}`
                  )
                : reply.text('Wrote it.')
          ])
        ])
      },
      { permissionMode: 'acceptEdits' }
    )
    const s1 = await f.reopen((base) => AgentSession.create({ ...base, ripgrep: false, managedSettingsFile: null, permissionMode: 'acceptEdits' }))
    await s1.run('Write the notes.')
    const crashed = await f.crashCopy(s1)
    // Cut the transcript after the Write's tool_end: the turn that carried its result was never written.
    const { readFileSync, writeFileSync } = await import('node:fs')
    const mainFile = join(crashed, 'sessions', s1.sessionId, 'agents', `${s1.mainAgentId}.jsonl`)
    const lines = readFileSync(mainFile, 'utf8').split('\n')
    const cut = lines.findIndex((l) => l.includes('"type":"tool_end"'))
    writeFileSync(mainFile, lines.slice(0, cut + 1).join('\n') + '\n')
    const s2 = await reopen(f, crashed, s1.sessionId)
    const result = await s2.run('Go on.')
    expect(result.result).toMatch(/^after restart the call said: .*notes\.txt/)
    expect(result.result).not.toMatch(/Fanout stopped/)
  })

  it(
    'an agent cut off before its first turn was written starts again on its own task, not on the restart note alone',
    async () => {
      const hold = latch()
      let restarted = false
      const f = await makeFixture([
        // Before the crash: never answers.
        scriptedAgent('counter', 'Count the markdown files', [heldUntil(hold, reply.text('There are 0 markdown files.'), { unless: () => restarted })]),
        mainAgent(
          [reply.toolUse('Agent', { description: 'Count', prompt: 'Count the markdown files', run_in_background: true }), reply.text('Counting.')],
          (req) => reply.text(`main heard ${count(allText(req), 'There are 0 markdown files.')} report(s)`)
        )
      ])
      const { session: s1, events: events1 } = await f.newSession()
      await s1.run('Start a counter.')
      const child = await agentReached(s1, events1, 'Count', 'turn_start')
      const crashed = await f.crashCopy(s1)
      // What a kill right after its agent_start leaves: no message of its conversation on disk.
      const { readFileSync, writeFileSync } = await import('node:fs')
      const file = join(crashed, 'sessions', s1.sessionId, 'agents', `${child.id}.jsonl`)
      writeFileSync(
        file,
        readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => !l.includes('"type":"message"'))
          .join('\n')
      )
      restarted = true
      const s2 = await reopen(f, crashed, s1.sessionId)
      const report = await s2.resumeInterrupted()
      expect(report.resumed).toContain(child.id)
      await s2.idle()
      const again = f.model.server.messageRequests().filter((r) => r.firstUserText === 'Count the markdown files')
      expect(again.length).toBeGreaterThanOrEqual(2) // before the crash, and once more after it
      expect(s2.lastResult?.result).toBe('main heard 1 report(s)')
      hold.open()
    },
    HELD_LANE_MS
  )

  it(
    'a message to a cut-off agent while the resume starts it loads it once: it never runs twice at once',
    async () => {
      const hold = latch()
      let restarted = false
      const f = await makeFixture([
        scriptedAgent('bg', 'Watch the build', [heldUntil(hold, reply.toolUse('Glob', { pattern: '*' }), { unless: () => restarted })], reply.text('watched')),
        mainAgent(
          [reply.toolUse('Agent', { description: 'Watch', prompt: 'Watch the build', run_in_background: true, name: 'watcher' }), reply.text('Watching.')],
          reply.text('ok')
        )
      ])
      const { session: s1, events: events1 } = await f.newSession()
      await s1.run('Start a watcher.')
      const bg = s1.registry.find('watcher')!
      await waitForEvent(s1, events1, (e) => e.type === 'turn_start' && e.agentId === bg.id)
      const crashed = await f.crashCopy(s1)
      restarted = true
      const s2 = await reopen(f, crashed, s1.sessionId)
      const events2: AgentEvent[] = []
      s2.bus.subscribe((e) => events2.push(e))
      // The resume loop and a message race to load the same dormant agent.
      await Promise.all([s2.resumeInterrupted(), s2.sendMessage('watcher', 'are you there?')])
      await s2.idle()
      let open = 0
      let overlapping = 0
      for (const e of events2.filter((x) => x.agentId === bg.id)) {
        if (e.type === 'agent_start' && open++) overlapping++
        if (e.type === 'agent_end') open = Math.max(0, open - 1)
      }
      expect(overlapping).toBe(0)
      hold.open()
    },
    HELD_LANE_MS
  )

  it('pendingDeliveries: received and not consumed, in order; the same id once; old records judged by their text', () => {
    const base = { agentId: 'a', parentAgentId: null, parentToolUseId: null, sessionId: 's', ts: 1 }
    const events: AgentEvent[] = [
      { ...base, type: 'message_received', from: 'user', text: 'one', deliveryId: 'd1' },
      { ...base, type: 'message_received', from: 'user', text: 'two', deliveryId: 'd2' },
      { ...base, type: 'message_received', from: 'user', text: 'two', deliveryId: 'd2' },
      { ...base, type: 'message_received', from: 'user', text: 'old and read' },
      { ...base, type: 'message_received', from: 'user', text: 'old, unread' },
      {
        ...base,
        type: 'message',
        message: {
          role: 'user',
          content: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'old and read' }
          ]
        },
        deliveries: ['d1']
      },
      { ...base, type: 'message_received', from: 'user', text: 'three', deliveryId: 'd3' }
    ]
    const { inbox, received } = pendingDeliveries(events)
    expect(inbox).toEqual([{ text: 'two', deliveryId: 'd2' }, { text: 'old, unread' }, { text: 'three', deliveryId: 'd3' }])
    expect([...received]).toEqual(['d1', 'd2', 'd3'])
  })
})
