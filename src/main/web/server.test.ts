import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import type { AgentEvent } from '../../shared/events'
import { IpcResultSchema, WS_PATH, WS_PROTOCOL, WS_TOKEN_PREFIX, type WsServerMessage } from '../../shared/ipc-contract'
import { createRecordingHost, type RecordingHost } from '../../shared/testing/recording-host'
import { startWebServer, type WebServer } from './server'

let dir: string
let host: RecordingHost
let server: WebServer

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fanout-web-'))
  mkdirSync(join(dir, 'renderer/assets'), { recursive: true })
  writeFileSync(join(dir, 'renderer/index.html'), '<!doctype html><title>Fanout</title>')
  writeFileSync(join(dir, 'renderer/assets/app.js'), 'console.log(1)')
  writeFileSync(join(dir, 'secret.txt'), 'do not serve')
  host = createRecordingHost(dir)
  server = await startWebServer({ host, rendererDir: join(dir, 'renderer') })
})

afterEach(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

function get(path: string, hostHeader = `127.0.0.1:${server.port}`): Promise<{ status: number; headers: Record<string, any>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { host: hostHeader } }, (res) => {
      let body = ''
      res.on('data', (d) => (body += d))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

interface Opened {
  ws: WebSocket
  messages: WsServerMessage[]
  call(call: string, payload: unknown): Promise<any>
  next(pred: (m: WsServerMessage) => boolean): Promise<WsServerMessage>
}

function connect(opts: { token?: string | null; origin?: string | null; hostHeader?: string } = {}): Promise<Opened> {
  const token = opts.token === undefined ? server.token : opts.token
  const protocols = token === null ? [WS_PROTOCOL] : [WS_PROTOCOL, WS_TOKEN_PREFIX + token]
  const origin = opts.origin === undefined ? `http://127.0.0.1:${server.port}` : opts.origin
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}${WS_PATH}`, protocols, {
    ...(origin ? { origin } : {}),
    headers: opts.hostHeader ? { host: opts.hostHeader } : {}
  })
  const messages: WsServerMessage[] = []
  const waiters: Array<{ pred: (m: WsServerMessage) => boolean; resolve: (m: WsServerMessage) => void }> = []
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as WsServerMessage
    messages.push(m)
    for (const w of [...waiters])
      if (w.pred(m)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(m)
      }
  })
  let nextId = 1
  const opened: Opened = {
    ws,
    messages,
    next: (pred) => {
      const found = messages.find(pred)
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ pred, resolve }))
    },
    async call(call, payload) {
      const id = nextId++
      ws.send(JSON.stringify({ id, call, payload }))
      const m = await opened.next((x) => x.kind === 'result' && x.id === id)
      return (m as Extract<WsServerMessage, { kind: 'result' }>).result
    }
  }
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve(opened))
    ws.on('unexpected-response', (_req, res) => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })))
    ws.on('error', reject)
  })
}

const ev = (e: Partial<AgentEvent> & { type: string }): AgentEvent =>
  ({ agentId: 'a1', parentAgentId: null, parentToolUseId: null, sessionId: 's1', ts: 1, ...e }) as AgentEvent

describe('browser-mode HTTP', () => {
  it('prints a loopback URL with the token in the fragment', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#token=${server.token}`)
    expect(server.token).toMatch(/^[0-9a-f]{64}$/)
  })

  it('serves the renderer with a strict CSP and hardening headers', async () => {
    const r = await get('/')
    expect(r.status).toBe(200)
    expect(r.body).toContain('<title>Fanout</title>')
    const csp = r.headers['content-security-policy'] as string
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${server.port}`)
    expect(csp).not.toContain('unsafe')
    expect(r.headers['x-content-type-options']).toBe('nosniff')
    // Cross-origin isolated: its own process, and full-precision clocks for the UI's frame figures.
    expect(r.headers['cross-origin-opener-policy']).toBe('same-origin')
    expect(r.headers['cross-origin-embedder-policy']).toBe('require-corp')
    expect(r.headers['cache-control']).toBe('no-store')
    expect((await get('/assets/app.js')).headers['content-type']).toMatch(/javascript/)
  })

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const r = await get('/', `evil.example:${server.port}`)
    expect(r.status).toBe(421)
    expect(r.body).not.toContain('Fanout')
  })

  it('never serves files outside the renderer folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/../../secret.txt']) {
      const r = await get(path)
      expect(r.status, path).toBe(404)
      expect(r.body).not.toContain('do not serve')
    }
  })
})

describe('browser-mode WebSocket', () => {
  it('checks review calls against the contract like every other call', async () => {
    const c = await connect()
    expect(await c.call('review.file', { cwd: dir, agentId: 'a1', path: '../outside' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: expect.stringContaining('path') }
    })
    expect(await c.call('review.merge', { cwd: dir, agentIds: ['a1'], strategy: 'squash' })).toMatchObject({ ok: true, value: { outcome: { merged: [] } } })
    expect(host.calls).toEqual([{ call: 'review.merge', request: { cwd: dir, agentIds: ['a1'], strategy: 'squash' } }])
    c.ws.close()
  })

  it('refuses a connection without the token, or with a wrong one', async () => {
    await expect(connect({ token: null })).rejects.toMatchObject({ status: 401 })
    await expect(connect({ token: 'f'.repeat(64) })).rejects.toMatchObject({ status: 401 })
    await expect(connect({ token: server.token.slice(0, 10) })).rejects.toMatchObject({ status: 401 })
    expect(host.calls).toEqual([])
  })

  it('refuses another origin or no origin, even with the token', async () => {
    await expect(connect({ origin: 'http://evil.example' })).rejects.toMatchObject({ status: 403 })
    await expect(connect({ origin: 'http://127.0.0.1:1' })).rejects.toMatchObject({ status: 403 })
    await expect(connect({ origin: null })).rejects.toMatchObject({ status: 403 })
  })

  it('refuses a rebound Host name on the socket', async () => {
    await expect(connect({ hostHeader: `attacker.example:${server.port}`, origin: `http://attacker.example:${server.port}` })).rejects.toMatchObject({
      status: 421
    })
  })

  it('with the token, serves contract calls and validates their payloads', async () => {
    const c = await connect()
    expect(await c.call('workspace.get', {})).toEqual({ ok: true, value: { workspace: { cwd: dir, name: dir.split('/').pop(), isGitRepo: true } } })
    const bad = await c.call('session.start', { prompt: 'hi', cwd: 'not/absolute' })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
    expect(bad.error.message).toContain('cwd must be an absolute path')
    expect(await c.call('no.such.call', {})).toMatchObject({ ok: false, error: { code: 'unknown_call' } })
    c.ws.send('not json')
    expect(await c.next((m) => m.kind === 'error')).toMatchObject({ message: expect.stringContaining('not valid JSON') })
    c.ws.close()
  })

  it('answers a refused settings change with the sentence for each field by its path, and the whole message', async () => {
    const c = await connect()
    const r = await c.call('settings.update', { limits: { maxDepth: 0 }, defaultModel: 'gpt' })
    expect(IpcResultSchema.parse(r)).toEqual(r) // crosses to the page as the contract says
    expect(r.error.fields).toEqual({ 'limits.maxDepth': 'Enter a number from 1 to 32.', defaultModel: expect.stringContaining('is not an alias') })
    expect(r.error.message).toBe(`settings.update: defaultModel: ${r.error.fields.defaultModel}; limits.maxDepth: Enter a number from 1 to 32.`)
    expect(host.calls).toEqual([])
    c.ws.close()
  })

  it('never sends the API key back out', async () => {
    const c = await connect()
    const key = 'sk-ant-test-0123456789abcdef'
    expect(await c.call('settings.setApiKey', { apiKey: key })).toMatchObject({ ok: true, value: { settings: { hasApiKey: true } } })
    await c.call('settings.get', {})
    expect(host.storedKey).toBe(key)
    expect(JSON.stringify(c.messages)).not.toContain(key)
    c.ws.close()
  })

  it('pushes runtime events in batches with text merged, and notices', async () => {
    const c = await connect()
    await c.call('workspace.get', {}) // the socket is subscribed once it answers
    host.emit([ev({ type: 'text_delta', text: 'Hel' } as any), ev({ type: 'text_delta', text: 'lo' } as any)])
    host.emit([ev({ type: 'status', status: 'waiting_permission' } as any)])
    const batch = (await c.next((m) => m.kind === 'events')) as Extract<WsServerMessage, { kind: 'events' }>
    expect(batch.events.map((e) => e.type)).toEqual(['text_delta', 'status'])
    expect((batch.events[0] as any).text).toBe('Hello')
    host.notify({ type: 'workspace_changed', workspace: { cwd: '/x', name: 'x', isGitRepo: false } })
    expect(await c.next((m) => m.kind === 'notice')).toMatchObject({ notice: { type: 'workspace_changed' } })
    c.ws.close()
  })

  it('close() ends live connections', async () => {
    const c = await connect()
    const closed = new Promise((r) => c.ws.on('close', r))
    await server.close()
    await closed
    server = await startWebServer({ host, rendererDir: join(dir, 'renderer') }) // for afterEach
  })
})
