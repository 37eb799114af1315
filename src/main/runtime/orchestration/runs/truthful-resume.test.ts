// What the model is told after a crash is true, and what it was told stays told: the note about cut-off
// subagents is built after the restart and says which run again, and a cut-off call's answer is decided
// once and recorded, so a second resume sends the same history (no report twice, no rewritten tool result).
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatMessage } from '../../../../shared/events'
import { markWriterDead } from '../../store/test-fixtures'
import { reply, requestLogViolations } from '../../model/scripted'
import { RESUME_NOTE_START } from '../../../../shared/run-opening'
import { agentReached, closeFixtures, type Fixture, latch, makeFixture, starts, waitForEvent } from '../testing/session-fixture'
import { heldUntil, mainAgent, scriptedAgent } from '../testing/scripted-agents'
import { waitUntil } from '../../tools/test-kit'
import type { AgentHandle } from './agent-registry'

afterEach(closeFixtures)

const REPORT = 'MAPPED: parse() has 3 callers'
const count = (text: string, part: string) => text.split(part).length - 1

/** The subagent the crash cuts off: before the crash it never answers (held until the end); restarted, it reports. */
const mapperScript = (hold: ReturnType<typeof latch>) =>
  scriptedAgent('mapper', 'Map the callers', [
    reply.toolUse('Glob', { pattern: '*' }),
    async (req) => {
      if (req.lastUserText.includes(RESUME_NOTE_START)) return reply.text(REPORT)
      await hold.wait
      return reply.text('unreachable')
    }
  ])

describe('a resume tells the truth', () => {
  it('after a kill and `continue`, a background subagent the restart runs again is named as running, and its report comes once', async () => {
    const hold = latch()
    const f = await makeFixture([
      mapperScript(hold),
      mainAgent(
        [reply.toolUse('Agent', { description: 'Map callers', prompt: 'Map the callers', run_in_background: true }), reply.text('It is mapping.')],
        (req) => reply.text(`main saw: ${req.lastUserText.slice(0, 40)}`)
      )
    ])
    const { session: s1, events: events1 } = await f.newSession()
    await s1.run('Map the parser callers.')
    const mapper = await agentReached(s1, events1, 'Map callers', 'tool_end')
    const crashed = await f.crashCopy(s1)
    // The killed process is gone: it sends nothing more (its held call is let go only at the end).
    s1.stop()

    const { session: s2 } = await f.openSession(s1.sessionId, crashed)
    const report = await s2.resumeInterrupted()
    expect(report.resumed).toEqual([mapper.id])
    await s2.run('continue')
    await s2.idle()
    const main = f.model.server.messageRequests().filter((r) => r.system.includes('lead agent in Fanout'))
    const continued = main.find((r) => r.lastUserText.startsWith('continue\n'))!
    // The note names it as running again, never as "not running, no report will come".
    expect(continued.lastUserText).toMatch(new RegExp(`Restarted and running again in the background[^]*- ${mapper.id} \\(general-purpose: Map callers\\)`))
    expect(continued.lastUserText).not.toContain('Not running')
    // Its report reaches the main agent once, over all its requests' final history.
    expect(count(JSON.stringify(main[main.length - 1].messages), REPORT)).toBe(1)
    expect(requestLogViolations(f.model.server.messageRequests())).toEqual([])
    hold.open()
  })

  it('a cut-off agent a message resumes while the restart is still loading the others runs once, and reports once', async () => {
    // The crash suite's mid-worktree-commit flake: a restarted watcher reported at once, the main agent woke and sent
    // another cut-off watcher a message (which resumed it, and it finished) while the restart loop was still loading
    // agents; the loop then reached that watcher and ran it again, and the main agent heard its report twice.
    const hold = latch()
    let restarted = false
    const watcher = (name: string) =>
      scriptedAgent(name, `Task ${name}`, [reply.toolUse('Glob', { pattern: '*' })], heldUntil(hold, reply.text(`REPORT ${name}`), { unless: () => restarted }))
    const f = await makeFixture([
      watcher('first'),
      watcher('second'),
      mainAgent(
        [
          reply.toolUses(['first', 'second'].map((n) => ({ name: 'Agent', input: { description: n, prompt: `Task ${n}`, run_in_background: true } }))),
          reply.text('Both started.')
        ],
        (req) => reply.text(`main saw: ${req.lastUserText.slice(0, 40)}`)
      )
    ])
    const { session: s1, events: events1 } = await f.newSession()
    await s1.run('Start both.')
    const cutOff = [await agentReached(s1, events1, 'first', 'tool_end'), await agentReached(s1, events1, 'second', 'tool_end')].map((h) => h.id)
    const crashed = await f.crashCopy(s1)
    s1.stop()

    restarted = true
    const { session: s2, events: events2 } = await f.openSession(s1.sessionId, crashed)
    // The restart's first load (whichever agent it is) waits while the main agent messages the other one, which is
    // resumed by it and finishes.
    const services = (s2 as unknown as { services: { findAgent(id: string): Promise<AgentHandle | undefined> } }).services
    const load = services.findAgent.bind(services)
    let messaged = ''
    services.findAgent = async (id) => {
      if (!messaged && cutOff.includes(id)) {
        messaged = cutOff.find((other) => other !== id)!
        expect((await s2.sendMessage(messaged, 'Also say hello', s2.mainAgentId)).delivery).toBe('resumed')
        await (await load(messaged))?.run
      }
      return load(id)
    }
    const report = await s2.resumeInterrupted()
    await s2.idle()
    expect(messaged).not.toBe('')
    expect(report.resumed).toEqual(cutOff.filter((id) => id !== messaged))
    // One run since the restart (the message's), one report to the main agent.
    expect(starts(events2).filter((e) => e.agentId === messaged)).toHaveLength(1)
    expect(events2.filter((e) => e.type === 'message_received' && e.agentId === s2.mainAgentId && e.from === messaged)).toHaveLength(1)
    hold.open()
  })

  it('a cut-off call is answered once: a second resume sends the same history, and the report is not folded into it', async () => {
    const hold = latch()
    const f = await makeFixture([
      mapperScript(hold),
      // A foreground call: the crash cuts off the main agent inside it.
      mainAgent([reply.toolUse('Agent', { description: 'Map callers', prompt: 'Map the callers' })], (req) =>
        reply.text(`main saw: ${req.lastUserText.slice(0, 40)}`)
      )
    ])
    const { session: s1, events: events1 } = await f.newSession()
    void s1.run('Map the parser callers.')
    await waitForEvent(s1, events1, (e) => e.type === 'tool_end' && e.name === 'Glob')
    const mapper = s1.registry.all().find((h) => h.description === 'Map callers')!
    const crashed = await f.crashCopy(s1)
    // The killed process is gone: it sends nothing more (its held call is let go only at the end).
    s1.stop()

    // First resume: the main agent's cut-off Agent call is answered (it goes on, its report will come),
    // the mapper runs again and reports.
    const { session: s2 } = await f.openSession(s1.sessionId, crashed)
    const report = await s2.resumeInterrupted()
    expect(report.resumed.sort()).toEqual([mapper.id, s1.mainAgentId].sort())
    await s2.idle()
    await s2.close()
    const firstResume = f.model.server.messageRequests().length

    // Second resume: the mapper has finished since; the answer recorded at the first resume stands.
    const { session: s3 } = await f.openSession(s1.sessionId, crashed)
    await s3.run('And now?')
    await s3.idle()
    const requests = f.model.server.messageRequests()
    const main = requests.filter((r) => r.system.includes('lead agent in Fanout'))
    const last = main[main.length - 1]
    expect(requests.length).toBeGreaterThan(firstResume)
    expect(last.lastUserText).toContain('And now?')
    const answer = last.messages[2].content.find((b: { type: string }) => b.type === 'tool_result')
    expect(answer.content).toMatch(/was cut off when Fanout stopped/)
    expect(count(JSON.stringify(last.messages), REPORT)).toBe(1)
    // Every request: no tool_use id twice, each answered once, and no agent's history rewritten between requests.
    expect(requestLogViolations(requests)).toEqual([])
    hold.open()
  })

  it('a tool call a kill cut off, then a kill during the resume: the second resume sends the history the first one sent', async () => {
    // The kill as a kill -9 can leave it: the mapper's transcript ends with its Glob call, no result written.
    const hold = latch()
    let sessionId = ''
    let second: string | null = null
    let copying = false
    const f: Fixture = await makeFixture([
      scriptedAgent('mapper', 'Map the callers', [
        reply.toolUse('Glob', { pattern: '*' }),
        async (req) => {
          if (!req.lastUserText.includes(RESUME_NOTE_START)) {
            await hold.wait
            return reply.text('unreachable')
          }
          // The first resume's request is with the model: a second kill -9 now (its note is on disk before it is sent).
          if (!copying) {
            // `second` is published only once the copy looks crashed: the test opens it as soon as it is set.
            copying = true
            const copy = join(f.root, 'killed-again')
            cpSync(resumed, copy, { recursive: true })
            await markWriterDead(copy, sessionId)
            second = copy
            await hold.wait
            return reply.text('unreachable')
          }
          return reply.text(REPORT)
        }
      ]),
      mainAgent(
        [reply.toolUse('Agent', { description: 'Map callers', prompt: 'Map the callers', run_in_background: true }), reply.text('It is mapping.')],
        (req) => reply.text(`main saw: ${req.lastUserText.slice(0, 40)}`)
      )
    ])
    const { session: s1, events: events1 } = await f.newSession()
    sessionId = s1.sessionId
    await s1.run('Map the parser callers.')
    const mapper = await agentReached(s1, events1, 'Map callers', 'tool_end')
    const resumed = await f.crashCopy(s1)
    s1.stop()
    const file = join(resumed, 'sessions', sessionId, 'agents', `${mapper.id}.jsonl`)
    const lines = readFileSync(file, 'utf8').split('\n')
    const call = lines.findIndex((l) => l.includes('"type":"message"') && l.includes('"tool_use"'))
    expect(call, 'the Glob call is in the transcript').toBeGreaterThan(0)
    writeFileSync(file, `${lines.slice(0, call + 1).join('\n')}\n`)

    // What the killed process sent after the kill point (the held Glob result) is no part of what the resumes are checked against.
    const afterKill = f.model.server.messageRequests().length
    const { session: s2 } = await f.openSession(sessionId, resumed)
    expect((await s2.resumeInterrupted()).resumed).toEqual([mapper.id])
    await waitUntil(() => second !== null, 'the first resume to reach the model')
    s2.stop()
    for (const a of s2.registry.all()) s2.stop(a.id, false)

    const { session: s3 } = await f.openSession(sessionId, second!)
    expect((await s3.resumeInterrupted()).resumed).toEqual([mapper.id])
    await s3.idle()
    const resumes = f.model.server.messageRequests().slice(afterKill)
    const [first, again] = resumes.filter((r) => r.firstUserText.startsWith('Map the callers')).map((r) => plainOf(r.messages) as ChatMessage[])
    // The call is answered as cut off, and the note follows in the same turn: one user message, as sent and as
    // rebuilt. The model never answered it, so the second resume's note joins that turn after what it said.
    expect(first.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(again.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(again.slice(0, 2)).toEqual(first.slice(0, 2))
    const said = first[2].content as unknown[]
    expect((again[2].content as unknown[]).slice(0, said.length)).toEqual(said)
    expect(count(JSON.stringify(again[2]), RESUME_NOTE_START)).toBe(2)
    expect(requestLogViolations(resumes)).toEqual([])
    hold.open()
  })

  it('a kill while the reply still streams, after a call in it started: the resume holds the reply so far, the call answered, its agent run once', async () => {
    const hold = latch()
    const calls = [
      { name: 'Agent', input: { description: 'Map callers', prompt: 'Map the callers' } },
      { name: 'Agent', input: { description: 'Second task', prompt: 'Never streamed whole' } }
    ]
    const f = await makeFixture([
      mapperScript(hold),
      scriptedAgent('second', 'Never streamed whole', [reply.text('second ran')]),
      // The reply is held after its first call has streamed whole (and started) until the end of the test.
      mainAgent([{ ...reply.toolUses(calls), pause: { afterDeltas: Math.ceil(JSON.stringify(calls[0].input).length / 7) + 1, until: hold.wait } }], (req) =>
        reply.text(`main saw: ${req.lastUserText.slice(0, 40)}`)
      )
    ])
    const { session: s1, events: events1 } = await f.newSession()
    void s1.run('Map the parser callers.')
    await waitForEvent(s1, events1, (e) => e.type === 'tool_end' && e.name === 'Glob')
    const mapper = s1.registry.all().find((h) => h.description === 'Map callers')!
    // The reply has not ended: its call started while it streamed.
    expect(events1.some((e) => e.agentId === s1.mainAgentId && e.type === 'message' && e.message.role === 'assistant')).toBe(false)
    const crashed = await f.crashCopy(s1)
    s1.stop()

    const { session: s2 } = await f.openSession(s1.sessionId, crashed)
    const report = await s2.resumeInterrupted()
    expect(report.resumed.sort()).toEqual([mapper.id, s1.mainAgentId].sort())
    await s2.idle()
    const requests = f.model.server.messageRequests()
    const main = requests.filter((r) => r.system.includes('lead agent in Fanout'))
    const resumed = main.find((r) => r.turn === 1)!
    // The reply as far as it had streamed: the call that started, not the one still streaming.
    const replyBlocks = resumed.messages[1].content as Array<{ type: string; id?: string; input?: { prompt?: string } }>
    expect(replyBlocks.filter((b) => b.type === 'tool_use').map((b) => b.input?.prompt)).toEqual(['Map the callers'])
    const answer = (resumed.messages[2].content as Array<{ type: string; content?: string }>).find((b) => b.type === 'tool_result')!
    expect(answer.content).toMatch(/that this call started was cut off when Fanout stopped[^]*Do not start it again/)
    // The mapper ran again once and reported once; the call that never streamed whole started nothing.
    expect(requests.filter((r) => r.firstUserText.includes('Never streamed whole'))).toHaveLength(0)
    expect(count(JSON.stringify(main[main.length - 1].messages), REPORT)).toBe(1)
    expect(requestLogViolations(requests)).toEqual([])
    hold.open()
  })

  it('a kill while the model holds a request leaves its messages on disk: the resume sends them as they were, and extends them', async () => {
    // The data folder as a kill -9 leaves it the moment the model has the second request (nothing flushed after).
    let killed: { dir: string; onDisk: unknown[]; sent: unknown[] } | null = null
    let sessionId = ''
    const f: Fixture = await makeFixture(
      [
        mainAgent(
          [
            reply.toolUse('Glob', { pattern: '*' }), // read-only: nothing is written ahead of it
            (req) => {
              if (!killed) {
                const dir = join(f.root, 'killed')
                cpSync(f.dataDir, dir, { recursive: true })
                // Not there at all is a kill that leaves nothing of what was sent.
                const agents = join(dir, 'sessions', sessionId, 'agents')
                const main = (existsSync(agents) ? readdirSync(agents) : []).find((n) => n.startsWith('main-') && n.endsWith('.jsonl'))
                const onDisk = (main ? readFileSync(join(agents, main), 'utf8') : '')
                  .split('\n')
                  .filter((l) => l.includes('"type":"message"'))
                  .map((l) => (JSON.parse(l) as { message: ChatMessage }).message)
                killed = { dir, onDisk: plainOf(onDisk), sent: plainOf(req.messages) }
              }
              return reply.text('One file.')
            }
          ],
          (req) => reply.text(`main saw: ${req.lastUserText.slice(0, 40)}`)
        )
      ],
      { files: { 'a.txt': 'a' } }
    )
    const { session: s1 } = await f.newSession()
    sessionId = s1.sessionId
    await s1.run('List the files.')
    await s1.idle()
    expect(killed, 'the model got a second request').not.toBeNull()
    const at = killed as unknown as { dir: string; onDisk: unknown[]; sent: unknown[] }
    // Everything the model was sent was in the transcript before it was sent.
    expect(at.onDisk).toEqual(at.sent)
    await s1.close()

    await markWriterDead(at.dir, s1.sessionId)
    const { session: s2 } = await f.openSession(s1.sessionId, at.dir)
    await s2.resumeInterrupted()
    await s2.run('And now?')
    await s2.idle()
    const requests = f.model.server.messageRequests()
    const main = requests.filter((r) => r.system.includes('lead agent in Fanout'))
    expect(main[main.length - 1].lastUserText).toContain('And now?')
    // The Glob's result the model saw before the kill is the one it sees after: no "interrupted" in its place.
    expect(JSON.stringify(main[main.length - 1].messages)).not.toContain('did not finish')
    expect(requestLogViolations(requests)).toEqual([])
  })
})

/** Messages as compared across requests: without cache breakpoints (not part of a message). */
function plainOf(value: unknown): unknown[] {
  return JSON.parse(JSON.stringify(value, (k, v) => (k === 'cache_control' ? undefined : v)))
}
