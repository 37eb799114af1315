// Effort through a session: what reaches the Messages API (as the scripted server recorded it) for a
// definition's effort, an Agent call's override, the session's own, and models without these settings.
import { afterEach, describe, expect, it } from 'vitest'
import { closeFixtures, makeFixture } from '../orchestration/testing/session-fixture'
import { reply, scriptByAgent } from './scripted'

afterEach(closeFixtures)

const MAIN = 'lead agent in Fanout'
const agent = (name: string, fields: string) => `---\nname: ${name}\ndescription: ${name}\n${fields}\n---\nYou are ${name}.`

describe('effort in requests', () => {
  it("a definition's effort, an Agent call's override, inheritance from the parent, and models that take none", async () => {
    const calls = [
      { description: 'deep', prompt: 'deep task', subagent_type: 'deep' },
      { description: 'deep, quick', prompt: 'deep task, quickly', subagent_type: 'deep', effort: 'low' },
      { description: 'plain', prompt: 'plain task', subagent_type: 'plain' },
      { description: 'old', prompt: 'old task', subagent_type: 'old' },
      { description: 'budget', prompt: 'budget task', subagent_type: 'budget' }
    ]
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: /You are (deep|plain|old|budget)\./, turns: [reply.text('ok')] },
          { match: MAIN, turns: [reply.toolUses(calls.map((input) => ({ name: 'Agent', input }))), reply.text('done')] }
        ])
      },
      {
        effort: 'medium',
        files: {
          '.claude/agents/deep.md': agent('deep', 'effort: high'),
          '.claude/agents/plain.md': agent('plain', 'model: opus'),
          '.claude/agents/old.md': agent('old', 'model: claude-3-5-haiku-20241022\neffort: max'),
          '.claude/agents/budget.md': agent('budget', 'model: claude-sonnet-4-5-20250929\neffort: 8000')
        }
      }
    )
    await f.session.run('go')
    const body = (task: string) => f.model.server.requests.find((r) => r.firstUserText === task)!.body
    const settings = (b: any) => ({ output_config: b.output_config, thinking: b.thinking })
    const main = f.model.server.requests.find((r) => r.system.includes(MAIN))!.body
    expect(main.model).toBe('claude-sonnet-5-5')
    expect(settings(main)).toEqual({ output_config: { effort: 'medium' }, thinking: { type: 'adaptive' } })
    expect(settings(body('deep task'))).toEqual({ output_config: { effort: 'high' }, thinking: { type: 'adaptive' } })
    expect(settings(body('deep task, quickly'))).toEqual({ output_config: { effort: 'low' }, thinking: { type: 'adaptive' } })
    // No effort of its own: the parent's (the session's medium).
    expect(body('plain task').model).toBe('claude-opus-5-5')
    expect(settings(body('plain task'))).toEqual({ output_config: { effort: 'medium' }, thinking: { type: 'adaptive' } })
    // A model without effort or thinking: nothing is sent, and the agent runs.
    expect(settings(body('old task'))).toEqual({ output_config: undefined, thinking: undefined })
    expect(settings(body('budget task'))).toEqual({ output_config: undefined, thinking: { type: 'enabled', budget_tokens: 8000 } })
  })

  it("no effort anywhere: each model's default, as Claude Code sends it", async () => {
    const f = await makeFixture({ respond: scriptByAgent([{ match: MAIN, turns: [reply.text('hi')] }]) })
    await f.session.run('hello')
    const b = f.model.server.requests[0].body
    expect(b.model).toBe('claude-sonnet-5-5')
    expect({ output_config: b.output_config, thinking: b.thinking, max_tokens: b.max_tokens }).toEqual({
      output_config: { effort: 'medium' },
      thinking: { type: 'adaptive' },
      max_tokens: 128_000
    })
  })

  it('effortLevel and alwaysThinkingEnabled in .claude/settings.json apply to the session; the session option wins over them', async () => {
    const settings = JSON.stringify({ effortLevel: 'high', alwaysThinkingEnabled: false })
    const fromFile = await makeFixture(
      { respond: scriptByAgent([{ match: MAIN, turns: [reply.text('hi')] }]) },
      { model: 'claude-sonnet-4-5', files: { '.claude/settings.json': settings } }
    )
    await fromFile.session.run('hello')
    const a = fromFile.model.server.requests[0].body
    // Sonnet 4.5 has no effort parameter; thinking is off as the file says.
    expect({ output_config: a.output_config, thinking: a.thinking }).toEqual({ output_config: undefined, thinking: { type: 'disabled' } })
    const own = await makeFixture(
      { respond: scriptByAgent([{ match: MAIN, turns: [reply.text('hi')] }]) },
      { effort: 'low', defaultEffort: 'max', files: { '.claude/settings.json': settings } }
    )
    await own.session.run('hello')
    expect(own.model.server.requests[0].body.output_config).toEqual({ effort: 'low' })
    const fallback = await makeFixture({ respond: scriptByAgent([{ match: MAIN, turns: [reply.text('hi')] }]) }, { defaultEffort: 'max' })
    await fallback.session.run('hello')
    expect(fallback.model.server.requests[0].body.output_config).toEqual({ effort: 'max' })
    const bad = await makeFixture(
      { respond: scriptByAgent([{ match: MAIN, turns: [reply.text('hi')] }]) },
      { files: { '.claude/settings.json': JSON.stringify({ effortLevel: 'extreme' }) } }
    )
    expect(bad.session.settingsNotes).toEqual([
      expect.stringMatching(/settings\.json: effortLevel must be low, medium, high, xhigh or max, not "extreme"; it was ignored$/)
    ])
  })

  it('a reopened session keeps the effort it began with; reopening with another one changes it', async () => {
    const f = await makeFixture({ respond: scriptByAgent([{ match: MAIN, turns: [reply.text('one')], then: reply.text('more') }]) }, { effort: 'xhigh' })
    await f.session.run('first')
    await f.session.idle()
    await f.session.close()
    const { AgentSession } = await import('../orchestration/session/session')
    const reopened = await f.reopen((base) =>
      AgentSession.open({ ...base, sessionId: f.session.sessionId, managedSettingsFile: null, onError: () => undefined })
    )
    await reopened.run('second')
    expect(f.model.server.messageRequests().at(-1)!.body.output_config).toEqual({ effort: 'xhigh' })
    await reopened.close()
    const changed = await f.reopen((base) =>
      AgentSession.open({ ...base, sessionId: f.session.sessionId, managedSettingsFile: null, onError: () => undefined, effort: 'low' })
    )
    await changed.run('third')
    expect(f.model.server.messageRequests().at(-1)!.body.output_config).toEqual({ effort: 'low' })
  })

  it('the Agent tool refuses an effort it does not know, with an error the model can act on', async () => {
    const f = await makeFixture({
      respond: scriptByAgent([
        { match: MAIN, turns: [reply.toolUse('Agent', { description: 'x', prompt: 'x', effort: 'extreme' }), (req) => reply.text(req.toolResults[0].content)] }
      ])
    })
    const result = await f.session.run('go')
    expect(result.result).toMatch(/^Invalid input for Agent:\n- effort: /)
  })
})
