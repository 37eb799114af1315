import { describe, expect, it } from 'vitest'
import { emptySession } from './view/session-state'
import { createRecordingHost } from './testing/recording-host'
import { CALL_NAMES, CONTRACT, IpcResultSchema, type CallName } from './ipc-contract'
import { HostCallError } from './host-call-error'
import { dispatchCall } from './ipc-dispatch'

describe('IPC contract', () => {
  it('has a request and response schema for every call', () => {
    for (const name of CALL_NAMES) {
      expect(CONTRACT[name].request, name).toBeDefined()
      expect(CONTRACT[name].response, name).toBeDefined()
    }
  })

  it('every host call is implemented by a RuntimeHost', () => {
    const host = createRecordingHost()
    for (const name of CALL_NAMES.filter((n) => n !== 'workspace.pickFolder')) {
      expect(typeof (host.handlers as Record<string, unknown>)[name], name).toBe('function')
    }
  })

  it('settings responses have no field that could carry the API key', () => {
    const shape = Object.keys((CONTRACT['settings.get'].response.shape.settings as any).shape)
    expect(shape).toContain('hasApiKey')
    expect(shape.filter((k) => /key/i.test(k))).toEqual(['hasApiKey', 'apiKeySource'])
  })
})

describe('dispatchCall', () => {
  it('passes a valid request to the host and returns its response', async () => {
    const host = createRecordingHost()
    const r = await dispatchCall(host, 'session.start', { prompt: '  Fix the bug  ', cwd: '/tmp/project', permissionMode: 'acceptEdits' })
    expect(r).toEqual({ ok: true, value: { sessionId: 'session-1' } })
    expect(host.calls).toEqual([{ call: 'session.start', request: { prompt: 'Fix the bug', cwd: '/tmp/project', permissionMode: 'acceptEdits' } }])
  })

  it.each<[CallName, unknown, RegExp]>([
    ['session.start', { prompt: '', cwd: '/tmp' }, /session\.start: prompt: prompt is empty/],
    ['session.start', { prompt: 'hi', cwd: 'relative/dir' }, /cwd: cwd must be an absolute path/],
    ['session.start', { prompt: 'hi', cwd: '/tmp', permissionMode: 'yolo' }, /permissionMode/],
    ['session.start', { prompt: 'hi', cwd: '/tmp', extra: 1 }, /Unrecognized key/i],
    ['sessions.open', { sessionId: '../../etc/passwd' }, /sessionId must be 1-200 letters/],
    ['permission.respond', { requestId: 'r1', decision: 'maybe' }, /decision/],
    ['settings.setApiKey', { apiKey: 'sk ant' }, /apiKey must not contain spaces/],
    ['settings.update', { baseUrl: 'file:///etc/passwd' }, /baseUrl: Enter an address that starts with http:\/\/ or https:\/\//],
    ['settings.update', { limits: { maxConcurrentAgents: 0 } }, /limits\.maxConcurrentAgents/],
    ['session.start', { prompt: 'hi', cwd: '/tmp/p', permissionMode: 'bubble' }, /permissionMode: The main agent has no parent/],
    ['workspace.get', 'not an object', /workspace\.get/]
  ])('rejects an invalid %s payload with a message naming the field', async (name, payload, message) => {
    const host = createRecordingHost()
    const r = await dispatchCall(host, name, payload)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('invalid_request')
      expect(r.error.message).toMatch(message)
    }
    expect(IpcResultSchema.safeParse(r).success).toBe(true)
    expect(host.calls).toEqual([])
  })

  it('sends the sentence for each refused field by its path, besides the message that says it all', async () => {
    const r = await dispatchCall(createRecordingHost(), 'settings.update', {
      limits: { maxDepth: 0, maxTurns: 'many' },
      modelAliases: { sonnet: 'opus' },
      extra: true
    })
    if (r.ok) throw new Error('accepted')
    expect(r.error.fields).toEqual({
      'limits.maxDepth': 'Enter a number from 1 to 32.',
      'limits.maxTurns': 'Enter a whole number, like 200.',
      'modelAliases.sonnet': 'Enter a full model id, like claude-sonnet-4-5; a single word is not one.'
    })
    // The key no field stands for is in the message only, as is everything else.
    expect(r.error.message).toMatch(/^settings\.update: .*request: Unrecognized key: "extra"/)
    for (const [path, sentence] of Object.entries(r.error.fields!)) expect(r.error.message).toContain(`${path}: ${sentence}`)
    expect(IpcResultSchema.safeParse(r).success).toBe(true)
    // An error about no field in particular has none.
    expect(await dispatchCall(createRecordingHost(), 'workspace.get', 'not an object')).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: expect.any(String) }
    })
  })

  it('passes on the field errors a host refuses with, and only sentences', async () => {
    const host = createRecordingHost()
    host.handlers['settings.update'] = async () => {
      throw new HostCallError('invalid_request', 'theme: not today', { theme: 'not today', bogus: 42 as unknown as string })
    }
    expect(await dispatchCall(host, 'settings.update', { theme: 'dark' })).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: 'theme: not today', fields: { theme: 'not today' } }
    })
  })

  it('rejects unknown calls, including prototype keys', async () => {
    const host = createRecordingHost()
    for (const name of ['session.delete', '__proto__', 'constructor', 42]) {
      const r = await dispatchCall(host, name, {})
      expect(r).toMatchObject({ ok: false, error: { code: 'unknown_call' } })
    }
  })

  it('keeps the code of a HostCallError and wraps other errors as internal', async () => {
    const host = createRecordingHost()
    expect(await dispatchCall(host, 'workspace.open', { cwd: '/does/not/exist' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: '/does/not/exist is not a folder.' }
    })
    host.handlers['agent.stop'] = async () => {
      throw new Error('disk full')
    }
    expect(await dispatchCall(host, 'agent.stop', { sessionId: 's', agentId: 'a' })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'agent.stop failed: disk full' }
    })
  })

  it('refuses a host answer that breaks the contract instead of passing it on', async () => {
    const host = createRecordingHost()
    host.handlers['settings.get'] = async () => ({ settings: { hasApiKey: 'yes' } }) as any
    const r = await dispatchCall(host, 'settings.get', {})
    expect(r).toMatchObject({ ok: false, error: { code: 'internal' } })
    if (!r.ok) expect(r.error.message).toMatch(/settings\.get: settings\.hasApiKey/)
  })

  it('answers unsupported for the folder picker unless the platform provides it', async () => {
    const host = createRecordingHost()
    expect(await dispatchCall(host, 'workspace.pickFolder', {})).toMatchObject({ ok: false, error: { code: 'unsupported' } })
    const picked = await dispatchCall(host, 'workspace.pickFolder', {}, { 'workspace.pickFolder': async () => ({ workspace: null }) })
    expect(picked).toEqual({ ok: true, value: { workspace: null } })
  })

  it('checks a replayed session state cheaply but refuses a malformed one', async () => {
    const host = createRecordingHost()
    const view = emptySession('s')
    const session = { sessionId: 's', title: 't', cwd: '/tmp', status: 'completed' as const, createdAt: 1, updatedAt: 2, costUsd: 0, agentCount: 1 }
    host.handlers['sessions.open'] = async () => ({ session, view, olderItems: {}, more: null })
    expect(await dispatchCall(host, 'sessions.open', { sessionId: 's' })).toMatchObject({ ok: true, value: { view } })
    host.handlers['sessions.open'] = async () => ({ session, view: { ...view, items: [] }, olderItems: {}, more: null }) as any
    expect(await dispatchCall(host, 'sessions.open', { sessionId: 's' })).toMatchObject({ ok: false, error: { code: 'internal' } })
    host.handlers['sessions.page'] = async () => ({ page: { items: { a: 'not a list' }, tools: {} }, more: null }) as any
    expect(await dispatchCall(host, 'sessions.page', { sessionId: 's', cursor: 'c' })).toMatchObject({ ok: false, error: { code: 'internal' } })
  })

  it('HostCallError is an Error with a code', () => {
    const e = new HostCallError('conflict', 'already running')
    expect(e).toBeInstanceOf(Error)
    expect(e.code).toBe('conflict')
  })
})
