// SendMessage end to end: to a running agent (next turn), to a finished one (resumed), to one not started
// yet (durable mailbox), and under load: thousands of messages among dozens of agents, each delivered once.
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, ChatMessage, ToolEndEvent } from '../../../../shared/events'
import { reply, scriptByAgent, type ParsedRequest } from '../../model/scripted'
import { peekMessages } from '../../store'
import { closeFixtures, latch, makeFixture, starts, waitForEvent } from '../testing/session-fixture'
import { heldUntil, mainAgent, scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const toolEnds = (events: AgentEvent[], name: string) => events.filter((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === name)

describe('SendMessage', () => {
  it('the tool refuses a name no agent has, naming the agents there are; nothing waits in a mailbox', async () => {
    const f = await makeFixture([
      { name: 'helper', match: 'Help out', turns: [reply.text('helped')] },
      mainAgent([
        reply.toolUse('Agent', { description: 'Help', prompt: 'Help out.', name: 'helper' }),
        reply.toolUse('SendMessage', { to: 'helpr', message: 'One more thing.' }),
        (req) => reply.text(req.toolResults[0].content)
      ])
    ])
    const result = await f.session.run('go')
    const [sent] = toolEnds(f.events, 'SendMessage')
    expect(sent.isError).toBe(true)
    expect(result.result).toMatch(
      /^There is no agent 'helpr' in this session, so the message was not sent\. Agents you can message: 'helper' \(general-purpose, a[0-9a-f]{16}\)\./
    )
    expect(await peekMessages(f.dataDir, f.session.sessionId, 'helpr')).toEqual([])
  })

  it('a running agent reads a message at its next turn; a finished one is resumed with it', async () => {
    const turnOne = latch()
    const f = await makeFixture([
      scriptedAgent('painter', 'Paint the fence', [
        heldUntil(turnOne, reply.toolUse('Glob', { pattern: '*' })),
        (req) =>
          reply.text(req.lastUserText.includes('<agent-message from="user">\nUse blue paint.\n</agent-message>') ? 'Painted it blue.' : 'Painted it white.'),
        (req) =>
          reply.text(
            req.lastUserText.includes('Add a second coat.') && JSON.stringify(req.messages).includes('Painted it blue.')
              ? 'Second coat done.'
              : 'lost my history'
          )
      ]),
      mainAgent([
        reply.toolUse('Agent', { description: 'Paint', prompt: 'Paint the fence.', name: 'painter' }),
        (req) => reply.text(req.toolResults[0].content.split('\n')[0])
      ])
    ])
    const { session: s, events } = f
    const run = s.run('Get the fence painted.')
    await waitForEvent(s, events, (e) => e.type === 'agent_start' && e.agentType === 'general-purpose')
    expect(await s.sendMessage('painter', 'Use blue paint.')).toMatchObject({ delivery: 'inbox' })
    turnOne.open()
    expect((await run).result).toBe('Painted it blue.')
    const painter = s.registry.find('painter')!
    expect(events.filter((e) => e.type === 'message_received' && e.agentId === painter.id)).toEqual([
      expect.objectContaining({ from: 'user', text: '<agent-message from="user">\nUse blue paint.\n</agent-message>' })
    ])

    expect(await s.sendMessage(painter.id, 'Add a second coat.')).toEqual({ delivery: 'resumed', agentId: painter.id })
    await s.idle()
    expect(painter.lastResult?.result).toBe('Second coat done.')
    expect(starts(events).filter((e) => e.agentId === painter.id)).toHaveLength(2)
    // A message from the person produces no report to the parent: the person sees the run itself.
    expect(starts(events).filter((e) => e.agentId === s.mainAgentId)).toHaveLength(1)
  })

  it('a message that arrives as an agent finishes is not lost: it starts the agent again', async () => {
    const f = await makeFixture([
      {
        name: 'sprinter',
        match: 'Run fast',
        turns: [reply.text('Finished the sprint.'), (req) => reply.text(req.lastUserText.includes('One more lap.') ? 'Ran one more lap.' : '?')]
      },
      mainAgent([reply.toolUse('Agent', { description: 'Sprint', prompt: 'Run fast.', name: 'sprinter' }), reply.text('ok'), reply.text('noted the extra lap')])
    ])
    const { session: s, events } = f
    const deliveries: Promise<{ delivery: string }>[] = []
    s.bus.subscribe((e) => {
      // agent_end: the loop has read its inbox for the last time, but the run has not ended yet.
      if (e.type === 'agent_end' && e.agentId !== s.mainAgentId && deliveries.length === 0) deliveries.push(s.sendMessage('sprinter', 'One more lap.'))
    })
    await s.run('go')
    await s.idle()
    expect((await deliveries[0]).delivery).toBe('inbox')
    const sprinter = s.registry.find('sprinter')!
    expect(starts(events).filter((e) => e.agentId === sprinter.id)).toHaveLength(2)
    expect(sprinter.lastResult?.result).toBe('Ran one more lap.')
    // Nobody awaited that second run, so its report went to the parent as a notification.
    expect(events.some((e) => e.type === 'message_received' && e.agentId === s.mainAgentId && e.text.includes('Ran one more lap.'))).toBe(true)
  })

  it('an agent messaging a finished agent resumes it, and the reply comes back as a task notification', async () => {
    const f = await makeFixture([
      {
        name: 'counter',
        match: 'Count to three',
        turns: [reply.text('1, 2, 3.'), (req) => reply.text(req.lastUserText.includes('Now count to five') ? '1, 2, 3, 4, 5.' : '?')]
      },
      mainAgent([
        reply.toolUse('Agent', { description: 'Count', prompt: 'Count to three.', name: 'counter' }),
        reply.toolUse('SendMessage', { to: 'counter', message: 'Now count to five.', summary: 'count further' }),
        (req) => reply.text(req.lastUserText.includes('<task-notification>') ? 'had it already' : 'sent'),
        (req) => reply.text(req.lastUserText.includes('1, 2, 3, 4, 5.') ? 'counter reached five' : 'no reply')
      ])
    ])
    await f.session.run('go')
    await f.session.idle()
    const sent = toolEnds(f.events, 'SendMessage')[0]
    expect(sent.isError).toBe(false)
    expect(sent.output).toMatch(/^counter was not running, so it was resumed with your message\./)
    expect(['counter reached five', 'had it already']).toContain(f.session.lastResult?.result)
    const mainRequests = f.model.server.messageRequests().filter((r) => r.system.includes('lead agent in Fanout'))
    expect(mainRequests.some((r) => r.lastUserText.includes('<task-notification>') && r.lastUserText.includes('1, 2, 3, 4, 5.'))).toBe(true)
  })

  it('a message to an agent that does not exist yet waits in its durable mailbox and is read when it starts', async () => {
    const f = await makeFixture(
      [
        {
          name: 'late',
          match: 'Start late',
          turns: [(req) => reply.text(req.firstUserText.includes('Bring snacks.') ? 'I saw the note: snacks.' : 'no note')]
        },
        mainAgent([
          reply.toolUse('Agent', { description: 'Late one', prompt: 'Start late.', name: 'latecomer' }),
          (req) => reply.text(req.toolResults[0].content.split('\n')[0])
        ])
      ],
      { dataDir: undefined }
    )
    // Without a data folder there is nowhere durable to keep it: a clear error, nothing silently dropped.
    await expect(f.session.sendMessage('latecomer', 'Bring snacks.')).rejects.toThrow("There is no agent 'latecomer' in this session.")
    const { session: s } = await f.newSession()
    expect(await s.sendMessage('latecomer', 'Bring snacks.', 'user', 'snacks')).toEqual({ delivery: 'mailbox', agentId: null })
    expect(await peekMessages(f.dataDir, s.sessionId, 'latecomer')).toEqual([
      expect.objectContaining({ from: 'user', text: 'Bring snacks.', summary: 'snacks' })
    ])
    const result = await s.run('go')
    expect(result.result).toBe('I saw the note: snacks.')
    expect(await peekMessages(f.dataDir, s.sessionId, 'latecomer')).toEqual([])
  })

  it('delivers thousands of messages among dozens of agents exactly once', async () => {
    const WORKERS = 24
    const LATE = 4
    const TURNS = 4
    const PER_TURN = 10
    const USER_PER_WORKER = 40
    const USER_PER_LATE = 25
    const sent: Array<{ to: string; text: string }> = []
    // Deterministic spread of recipients: worker i sends its k-th message of turn t to worker (i + 1 + 7t + 3k) mod N.
    const target = (i: number, t: number, k: number) => `w${(i + 1 + 7 * t + 3 * k) % WORKERS === i ? (i + 1) % WORKERS : (i + 1 + 7 * t + 3 * k) % WORKERS}`
    const workerTurn = (req: ParsedRequest) => {
      const i = Number(/You are worker w(\d+)/.exec(req.firstUserText)![1])
      const t = req.turn
      if (t >= TURNS) return reply.text(`w${i} done`)
      const calls = Array.from({ length: PER_TURN }, (_, k) => ({ name: 'SendMessage', input: { to: target(i, t, k), message: `m-w${i}-${t}-${k}` } }))
      if (t === TURNS - 1) calls.push({ name: 'SendMessage', input: { to: 'main', message: `m-w${i}-to-main` } })
      return reply.toolUses(calls)
    }
    const f = await makeFixture(
      {
        respond: scriptByAgent(
          [
            { name: 'late', match: /You are late agent/, turns: [reply.text('late done')] },
            mainAgent([
              reply.toolUses(
                Array.from({ length: WORKERS }, (_, i) => ({
                  name: 'Agent',
                  input: { description: `Worker ${i}`, prompt: `You are worker w${i}.`, name: `w${i}` }
                }))
              ),
              reply.toolUses(
                Array.from({ length: LATE }, (_, i) => ({
                  name: 'Agent',
                  input: { description: `Late ${i}`, prompt: `You are late agent l${i}.`, name: `late${i}` }
                }))
              )
            ])
          ],
          // Workers answer by turn number, whichever run they are in; everyone else (main woken by reports) just acknowledges.
          { fallback: (req) => (/You are worker w\d+/.test(req.firstUserText) ? workerTurn(req) : reply.text('ok')) }
        )
      },
      { limits: { maxConcurrent: 64 } }
    )
    const { session: s, events } = f
    // Messages to the late agents before they exist: the durable mailbox.
    for (let l = 0; l < LATE; l++)
      for (let n = 0; n < USER_PER_LATE; n++) {
        const text = `u-late${l}-${n}`
        sent.push({ to: `late${l}`, text })
        expect((await s.sendMessage(`late${l}`, text)).delivery).toBe('mailbox')
      }

    // The person keeps writing to every worker while they run, finish and get resumed.
    let userSending: Promise<unknown> = Promise.resolve()
    const started = new Set<string>()
    s.bus.subscribe((e) => {
      if (e.type !== 'agent_start' || !/^w\d+$/.test(e.name ?? '') || started.has(e.name!)) return
      started.add(e.name!)
      const name = e.name!
      userSending = Promise.all([
        userSending,
        (async () => {
          for (let n = 0; n < USER_PER_WORKER; n++) {
            const text = `u-${name}-${n}`
            sent.push({ to: name, text })
            await s.sendMessage(name, text)
            if (n % 5 === 0) await new Promise((r) => setImmediate(r))
          }
        })()
      ])
    })
    await s.run('Start the workers.')
    await userSending
    await s.idle()
    // A second wave to agents that have all finished: in each burst, the first message resumes the agent and
    // the rest, sent in the same tick, queue for the run it started.
    const bursts = await Promise.all(
      Array.from({ length: WORKERS }, (_, i) =>
        Promise.all(
          Array.from({ length: 5 }, (_, n) => {
            const text = `burst-w${i}-${n}`
            sent.push({ to: `w${i}`, text })
            return s.sendMessage(`w${i}`, text).then((o) => o.delivery)
          })
        )
      )
    )
    for (const burst of bursts) expect(burst).toEqual(['resumed', 'inbox', 'inbox', 'inbox', 'inbox'])
    await s.idle()

    const messageTools = toolEnds(events, 'SendMessage')
    expect(messageTools.filter((e) => e.isError)).toEqual([])
    for (const e of messageTools) {
      const input = events.find((x): x is Extract<AgentEvent, { type: 'tool_run' }> => x.type === 'tool_run' && x.toolUseId === e.toolUseId)!.input as {
        to: string
        message: string
      }
      sent.push({ to: input.to, text: input.message })
    }
    expect(sent.length).toBeGreaterThan(2000)

    expect(
      s.registry
        .all()
        .filter((h) => h.inbox.length)
        .map((h) => h.name)
    ).toEqual([])
    // Every message appears exactly once, in its recipient's conversation, and nowhere else.
    const seen = new Map<string, string[]>()
    for (const h of s.registry.all()) {
      const who = h.id === s.mainAgentId ? 'main' : h.name!
      for (const text of messageTexts(h.messages)) seen.set(text, [...(seen.get(text) ?? []), who])
    }
    const wrong = sent.filter((m) => (seen.get(m.text) ?? []).join(',') !== m.to)
    expect(wrong.slice(0, 5)).toEqual([])
    expect([...seen.values()].reduce((n, list) => n + list.length, 0)).toBe(sent.length)
  }, 120_000)
})

/** The bodies of the <agent-message> blocks in a conversation. */
function messageTexts(messages: ChatMessage[]): string[] {
  const out: string[] = []
  for (const m of messages) {
    if (m.role !== 'user') continue
    const blocks = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content
    for (const b of blocks) {
      if (b.type !== 'text') continue
      for (const match of b.text.matchAll(/<agent-message from="[^"]*"(?: summary="[^"]*")?>\n([\s\S]*?)\n<\/agent-message>/g)) out.push(match[1])
    }
  }
  return out
}
