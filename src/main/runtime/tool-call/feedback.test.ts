// The person's words with an answer reach the model: a denial's tool_result is the one denial sentence and what
// they said, an approval's result carries what they said after the tool's output; both are recorded with the
// answer (permission_response), so a reopened or replayed session shows them, and a credential typed there is
// redacted like any text bound for the model.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, PermissionResponseEvent } from '../../../shared/events'
import { registerSecret } from '../../../shared/redact'
import { applyEvents } from '../../../shared/view/reducer'
import { emptyEventsState } from '../../../shared/view/session-state'
import { reply, scriptByAgent } from '../model/scripted'
import type { RecordedRequest } from '../model/scripted/types'
import { closeFixtures, makeFixture } from '../orchestration/testing/session-fixture'
import { personDenied } from './verdict'

afterEach(closeFixtures)

/** The text of the tool_result the model was sent for a call, from the requests the scripted server received. */
function toolResultSent(requests: RecordedRequest[], toolUseId: string): string | undefined {
  for (const r of requests)
    for (const m of r.messages)
      if (Array.isArray(m.content))
        for (const b of m.content)
          if (b.type === 'tool_result' && b.tool_use_id === toolUseId) return typeof b.content === 'string' ? b.content : JSON.stringify(b.content)
  return undefined
}

/** A session whose main agent runs two Bash calls that ask, answered deny then allow, each with its words. */
async function denyThenAllow(words: [string, string]) {
  const f = await makeFixture({
    respond: scriptByAgent({
      'lead agent in Fanout': [
        reply.toolUse('Bash', { command: 'touch denied.txt' }, { id: 'toolu_deny' }),
        reply.toolUse('Bash', { command: 'touch allowed.txt' }, { id: 'toolu_allow' }),
        reply.text('done')
      ]
    })
  })
  let asked = 0
  f.session.bus.subscribe((e) => {
    if (e.type !== 'permission_request') return
    const i = asked++
    queueMicrotask(() => f.session.respondPermission(e.requestId, i === 0 ? 'deny' : 'allow', words[i]))
  })
  await f.session.run('Make two files.')
  return f
}

const responses = (events: AgentEvent[]) => events.filter((e): e is PermissionResponseEvent => e.type === 'permission_response')

describe("the person's words with a permission answer", () => {
  it('deny with words: the model gets the denial sentence and the words; allow with words: the result and the words; both recorded', async () => {
    const secret = 'Zq8xW7vU6tS5-rR4qP3oN2m'
    registerSecret(secret)
    const f = await denyThenAllow([`Use the Makefile instead; the token is ${secret}`, 'Fine, but only this once'])
    const { events } = f
    expect(existsSync(join(f.cwd, 'denied.txt'))).toBe(false)
    expect(existsSync(join(f.cwd, 'allowed.txt'))).toBe(true)

    const sent = f.model.server.messageRequests()
    const denied = toolResultSent(sent, 'toolu_deny')
    expect(denied).toBe(personDenied('Bash', 'Use the Makefile instead; the token is [REDACTED]'))
    expect(denied).toContain('The user denied permission to use Bash for this call.')
    expect(denied).toContain('The user said: Use the Makefile instead')
    expect(denied).not.toContain(secret)
    const allowed = toolResultSent(sent, 'toolu_allow')
    expect(allowed).toMatch(/The user allowed this call and said: Fine, but only this once$/)

    // Recorded with the answer; the secret never reaches the record either.
    expect(responses(events).map((e) => [e.decision, e.feedback])).toEqual([
      ['deny', expect.stringContaining('Use the Makefile instead')],
      ['allow', 'Fine, but only this once']
    ])
    expect(JSON.stringify(events)).not.toContain(secret)
    // What a replay folds: the conversation says what the person said.
    const view = applyEvents(emptyEventsState(), events)
    const notices = Object.values(view.sessions)
      .flatMap((sv) => Object.values(sv.items).flat())
      .filter((i) => i.kind === 'notice')
      .map((i) => ('text' in i ? i.text : ''))
    expect(notices).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Denied Bash.*you said: “Use the Makefile instead/),
        'Allowed Bash — you said: “Fine, but only this once”'
      ])
    )
  })

  it('without words the answers read as before: the one denial sentence alone, the tool output untouched', async () => {
    const f = await denyThenAllow(['   ', ''])
    const sent = f.model.server.messageRequests()
    expect(toolResultSent(sent, 'toolu_deny')).toBe(personDenied('Bash'))
    expect(toolResultSent(sent, 'toolu_allow')).not.toContain('The user allowed')
    expect(responses(f.events).every((e) => e.feedback === undefined)).toBe(true)
  })
})
