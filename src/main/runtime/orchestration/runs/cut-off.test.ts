// After a crash, a follow-up prompt to a reopened session: the main agent learns which of its subagents
// were cut off (they will never report), once, and the person does not see that note as their words.
import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/events'
import { applyEvents } from '../../../../shared/view/reducer'
import { emptyEventsState } from '../../../../shared/view/session-state'
import { reply, scriptByAgent } from '../../model/scripted'
import { markWriterDead } from '../../store/test-fixtures'
import { AgentSession } from '../session/session'
import { closeFixtures, latch, makeFixture, waitForEvent } from '../testing/session-fixture'

afterEach(closeFixtures)

describe('subagents a crash cut off', () => {
  it('are named to the main agent with the next prompt, as not running, and only once', async () => {
    const hold = latch()
    const f = await makeFixture({
      respond: scriptByAgent([
        {
          name: 'mapper',
          match: 'Map the callers',
          turns: [
            async () => {
              await hold.wait // never answers: the crash comes first
              return reply.text('unreachable')
            }
          ]
        },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [reply.toolUse('Agent', { description: 'Map callers', prompt: 'Map the callers', run_in_background: true }), reply.text('It is mapping in the background.')],
          then: (req) => reply.text(`seen: ${req.lastUserText}`)
        }
      ])
    })
    const s1 = await f.reopen((base) => AgentSession.create({ ...base, ripgrep: false, managedSettingsFile: null }))
    const events1: AgentEvent[] = []
    s1.bus.subscribe((e) => events1.push(e))
    await s1.run('Map the parser callers.')
    const mapper = s1.registry.all().find((h) => h.description === 'Map callers')!
    await waitForEvent(s1, events1, (e) => e.type === 'turn_start' && e.agentId === mapper.id)
    await s1.flush()
    // The crash: a copy of what is on disk, whose writer is gone.
    const crashed = join(f.root, 'crashed-data')
    cpSync(f.dataDir, crashed, { recursive: true })
    await markWriterDead(crashed, s1.sessionId)
    hold.open()

    const s2 = await f.reopen((base) => AgentSession.open({ client: base.client, home: base.home, dataDir: crashed, sessionId: s1.sessionId, ripgrep: false, managedSettingsFile: null }))
    const events2: AgentEvent[] = []
    s2.bus.subscribe((e) => events2.push(e))
    const first = await s2.run('What did it find?')
    expect(first.result).toContain('What did it find?')
    expect(first.result).toContain(`${mapper.id} (general-purpose: Map callers)`)
    expect(first.result).toMatch(/cut off and are not running now, so no report will come from them/)
    // The prompt stays the run's label and the person's words; the note is not shown as theirs.
    const start = events2.find((e) => e.type === 'agent_start' && e.parentAgentId === null)!
    expect(start).toMatchObject({ description: 'What did it find?' })
    const view = applyEvents(emptyEventsState(), events2).sessions[s2.sessionId]
    const said = view.items[s2.mainAgentId].filter((i) => i.kind === 'user').map((i) => (i.kind === 'user' ? i.text : ''))
    expect(said).toEqual(['What did it find?'])

    const second = await s2.run('Anything else?')
    expect(second.result).toBe('seen: Anything else?')
  })
})
