// Routing of concurrent agents by the scenario DSL, through the real client.
import { afterEach, describe, expect, it } from 'vitest'
import { byAttempt, reply, scriptByAgent, startScriptedModel, type ScriptedModel } from './index'

let model: ScriptedModel | undefined
afterEach(() => model?.close())

const call = (system: string, messages: Array<{ role: 'user' | 'assistant'; content: string }>) =>
  model!.client.stream({ model: 'claude-haiku-5-5', system, messages }).then((r) => r.content)

describe('scriptByAgent', () => {
  it('routes concurrent agents by system prompt or task, turn by turn', async () => {
    model = await startScriptedModel({
      respond: scriptByAgent({
        'You are Explore': [reply.text('explore turn 1'), reply.text('explore turn 2')],
        planner: { match: /plan the (\w+)/, turns: [(req) => reply.text(`planning ${/plan the (\w+)/.exec(req.firstUserText)![1]}`)] }
      })
    })
    const results = await Promise.all([
      call('You are Explore.', [{ role: 'user', content: 'look around' }]),
      call('You are helpful.', [{ role: 'user', content: 'please plan the release' }]),
      call('You are Explore.', [
        { role: 'user', content: 'look around' },
        { role: 'assistant', content: 'explore turn 1' },
        { role: 'user', content: 'more' }
      ])
    ])
    expect(results).toEqual([
      [{ type: 'text', text: 'explore turn 1' }],
      [{ type: 'text', text: 'planning release' }],
      [{ type: 'text', text: 'explore turn 2' }]
    ])
  })

  it('answers by attempt, so a retried request gets its next reply', async () => {
    model = await startScriptedModel({ respond: scriptByAgent({ x: [byAttempt(reply.overloaded(), reply.text('second try'))] }) })
    expect(await call('x', [{ role: 'user', content: 'go' }])).toEqual([{ type: 'text', text: 'second try' }])
    expect(model.server.messageRequests()).toHaveLength(2)
  })

  it('keeps counting attempts when requests are not recorded (demo mode)', async () => {
    model = await startScriptedModel({ recordRequests: false, respond: scriptByAgent({ x: [byAttempt(reply.serverError(503), reply.text('ok'))] }) })
    expect(await call('x', [{ role: 'user', content: 'go' }])).toEqual([{ type: 'text', text: 'ok' }])
    expect(model.server.requests).toHaveLength(0)
  })

  it('answers turns past the script with its `then` turn, and without one says which script ran out', async () => {
    const followUp = [
      { role: 'user' as const, content: 'go' },
      { role: 'assistant' as const, content: 'first' },
      { role: 'user' as const, content: 'and now?' }
    ]
    model = await startScriptedModel({
      respond: scriptByAgent([
        { name: 'x', match: 'x', turns: [reply.text('first')], then: (req) => reply.text(`later: ${req.lastUserText}`) },
        { name: 'y', match: 'y', turns: [reply.text('only')] }
      ])
    })
    expect(await call('x', followUp)).toEqual([{ type: 'text', text: 'later: and now?' }])
    await expect(call('y', followUp)).rejects.toThrow('scripted server: agent y has no reply for turn 2 (its script has 1)')
  })

  it('names the request no script matched', async () => {
    model = await startScriptedModel({ respond: scriptByAgent({ 'You are Explore': [reply.text('x')] }) })
    await expect(call('You are Plan.', [{ role: 'user', content: 'do it' }])).rejects.toThrow(
      'Invalid request (400): scripted server: no script matches this request (system: "You are Plan.", first user message: "do it")'
    )
  })
})
