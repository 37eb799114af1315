// The person's answer through the IPC contract (Electron and browser mode share it): words for the agent are
// checked like every other field before any host sees them.
import { describe, expect, it } from 'vitest'
import { dispatchCall } from './ipc-dispatch'
import { FEEDBACK_MAX_CHARS } from './permission-answer'
import { createRecordingHost } from './testing/recording-host'

describe('permission.respond with words for the agent', () => {
  it('passes an answer with words (trimmed) and one without to the host', async () => {
    const host = createRecordingHost()
    expect(await dispatchCall(host, 'permission.respond', { requestId: 'r1', decision: 'deny', feedback: '  use make instead \n' })).toMatchObject({ ok: true })
    expect(await dispatchCall(host, 'permission.respond', { requestId: 'r2', decision: 'allow_always' })).toMatchObject({ ok: true })
    expect(host.calls).toEqual([
      { call: 'permission.respond', request: { requestId: 'r1', decision: 'deny', feedback: 'use make instead' } },
      { call: 'permission.respond', request: { requestId: 'r2', decision: 'allow_always' } }
    ])
  })

  it.each([
    [{ requestId: 'r1', decision: 'deny', feedback: 'x'.repeat(FEEDBACK_MAX_CHARS + 1) }, /feedback is longer than 2,000 characters/],
    [{ requestId: 'r1', decision: 'deny', feedback: 42 }, /feedback must be a string/],
    [{ requestId: 'r1', decision: 'maybe', feedback: 'hm' }, /decision/],
    [{ requestId: 'r1', decision: 'allow', feedback: 'ok', extra: true }, /Unrecognized key/i]
  ])('refuses %#: a request the contract does not allow never reaches the host', async (payload, message) => {
    const host = createRecordingHost()
    const r = await dispatchCall(host, 'permission.respond', payload)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(message)
    expect(host.calls).toEqual([])
  })

  it('takes words exactly at the limit', async () => {
    const host = createRecordingHost()
    expect(await dispatchCall(host, 'permission.respond', { requestId: 'r1', decision: 'allow', feedback: 'y'.repeat(FEEDBACK_MAX_CHARS) })).toMatchObject({
      ok: true
    })
  })
})
