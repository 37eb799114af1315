// Compact on a reopened session: every request built from restored state carries a full model id. The main
// agent was configured by alias ("sonnet"); after a restart its handle is rebuilt from disk before any run,
// and Compact (idle) built its summary request from it: the API refused the bare alias. The scripted server
// refuses an alias as the API does, so each path below fails if an alias reaches a request.
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_MODEL_ALIASES } from '../../model/aliases'
import { AgentSession } from '../session/session'
import { closeFixtures, makeFixture } from '../testing/session-fixture'
import { notingMainAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const answers = () => notingMainAgent('Summary: the person said hello twice.')

describe('compact after a restart', () => {
  it('sends the full model id, not the alias the session was configured with, for the summary and the next prompt', async () => {
    const f = await makeFixture({ respond: answers() }, { model: 'sonnet', permissionMode: 'bypassPermissions' })
    await f.session.run('Hello once')
    await f.session.run('Hello twice')
    await f.session.close()

    // A restart: the same session opened by a new process, configured by the same alias.
    const again = await f.reopen((base) => AgentSession.open({ ...base, sessionId: f.session.sessionId, model: 'sonnet' }))
    const before = f.model.server.messageRequests().length
    const outcome = await again.compact(undefined, undefined)
    expect(outcome).toMatchObject({ status: 'compacted' })
    await again.run('And once more')

    const sent = f.model.server.messageRequests().slice(before)
    expect(sent.find((r) => r.isSummaryRequest)?.model).toBe(DEFAULT_MODEL_ALIASES.sonnet)
    expect(sent.map((r) => r.model)).toEqual(sent.map(() => DEFAULT_MODEL_ALIASES.sonnet))
    expect(again.mainHandle().model).toBe(DEFAULT_MODEL_ALIASES.sonnet)
  })

  it('the scripted server refuses a bare alias as the API does', async () => {
    const f = await makeFixture({ respond: answers() })
    const res = await fetch(`${f.model.server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'scripted', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'sonnet', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
    })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('model: sonnet is an alias')
  })
})
