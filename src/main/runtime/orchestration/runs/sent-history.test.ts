// The runtime's own guard against rewriting history: an agent's request must extend what it sent before (see
// SentHistory), so a bug that changes an answered message fails the run with what is wrong, and nothing is
// sent; a compaction starts the history over. Tests check the same over the scripted server's log.
import { afterEach, describe, expect, it } from 'vitest'
import { clearSecrets, registerSecret } from '../../../../shared/redact'
import { reply, requestLogViolations, scriptByAgent, type ParsedRequest } from '../../model/scripted'
import { AgentSession } from '../session/session'
import { closeFixtures, makeFixture } from '../testing/session-fixture'
import { mainAgent, notingMainAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const answers = () => notingMainAgent('Summary: the person said a few things.')

describe('history already sent is never rewritten', () => {
  it('a request that would change an answered message is not sent: the run fails saying so', async () => {
    const f = await makeFixture({ respond: answers() }, { permissionMode: 'bypassPermissions' })
    await f.session.run('First thing')
    await f.session.run('Second thing')
    const sent = f.model.server.messageRequests().length
    // A bug of ours, played: the model's first answer changed in the conversation the next request is built from.
    const handle = f.session.mainHandle()
    handle.messages[1] = { role: 'assistant', content: [{ type: 'text', text: 'Something the model never said' }] }
    const result = await f.session.run('Third thing')
    expect(result.status).toBe('failed')
    expect(result.error).toMatch(/rewrites what this agent already sent the model, so it was not sent .*message 1 differs/)
    expect(f.model.server.messageRequests()).toHaveLength(sent)
    expect(requestLogViolations(f.model.server.messageRequests())).toEqual([])
  })

  it('redaction is no rewrite: a secret the model said is [REDACTED] in what the session records, and the next run goes on', async () => {
    const secret = 'k3y-Vq8ZtR2wLm5Xp9Jc4Hn7'
    registerSecret(secret)
    try {
      const f = await makeFixture(
        {
          respond: scriptByAgent([
            mainAgent([], (req: ParsedRequest) =>
              req.turn === 0 ? reply.toolUse('Glob', { pattern: `${secret}/*.none` }) : reply.text(`done with ${req.turn} turns`)
            )
          ])
        },
        { permissionMode: 'bypassPermissions' }
      )
      expect((await f.session.run('First thing')).status).toBe('completed')
      const second = await f.session.run('Second thing')
      expect(second.status).toBe('completed')
      expect(f.model.server.messageRequests()).toHaveLength(3)
      expect(requestLogViolations(f.model.server.messageRequests())).toEqual([])
    } finally {
      clearSecrets()
    }
  })

  it('after a restart, the first request must extend what the transcript says the model was sent', async () => {
    const f = await makeFixture({ respond: answers() }, { permissionMode: 'bypassPermissions' })
    await f.session.run('First thing')
    await f.session.run('Second thing')
    await f.session.close()
    const again = await f.reopen((base) => AgentSession.open({ ...base, sessionId: f.session.sessionId }))
    const sent = f.model.server.messageRequests().length
    again.mainHandle().messages[1] = { role: 'assistant', content: [{ type: 'text', text: 'Something the model never said' }] }
    const result = await again.run('Third thing')
    expect(result.status).toBe('failed')
    expect(result.error).toMatch(/rewrites what this agent already sent the model.*message 1 differs/)
    expect(f.model.server.messageRequests()).toHaveLength(sent)
  })

  it('after a compaction the conversation starts over, and requests go out again', async () => {
    const f = await makeFixture({ respond: answers() }, { permissionMode: 'bypassPermissions' })
    await f.session.run('First thing')
    await f.session.run('Second thing')
    expect(await f.session.compact(undefined, undefined)).toMatchObject({ status: 'compacted' })
    const result = await f.session.run('Third thing')
    expect(result.status, result.error).toBe('completed')
    const last = f.model.server.messageRequests().at(-1)!
    expect(JSON.stringify(last.messages)).toContain('Summary: the person said a few things.')
    expect(requestLogViolations(f.model.server.messageRequests())).toEqual([])
  })
})
