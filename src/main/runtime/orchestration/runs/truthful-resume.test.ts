// What the model is told after a crash is true, and what it was told stays told: the note about cut-off
// subagents is built after the restart and says which run again, and a cut-off call's answer is decided
// once and recorded, so a second resume sends the same history (no report twice, no rewritten tool result).
import { afterEach, describe, expect, it } from 'vitest'
import { reply, requestLogViolations } from '../../model/scripted'
import { RESUME_NOTE_START } from '../../../../shared/run-opening'
import { agentReached, closeFixtures, latch, makeFixture, waitForEvent } from '../testing/session-fixture'
import { mainAgent, scriptedAgent } from '../testing/scripted-agents'

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
})
