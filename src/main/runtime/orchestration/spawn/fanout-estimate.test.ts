// A fan-out's estimate before it starts: an `estimate` event for the turn's Agent calls, and above the
// setting, one question to the person for the whole fan-out; refused, no agent starts and the model is told.
import { afterEach, describe, expect, it } from 'vitest'
import type { EstimateEvent, PermissionRequestEvent } from '../../../../shared/events'
import { reply } from '../../model/scripted'
import { closeFixtures, makeFixture, starts } from '../testing/session-fixture'
import { mainAgent, scriptedAgent } from '../testing/scripted-agents'

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
})
