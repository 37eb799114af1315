// Attack suite, the IPC contract fuzzed over both transports — the browser-mode WebSocket and the Electron
// IPC handlers (against a stand-in for electron's ipcMain, the binary cannot run here) — with a real host
// and a session running: frames of every shape the WebSocket can carry, every call with payloads of every
// wrong shape, unknown and prototype-named calls. Each is answered (a result or an error frame that says
// what is wrong), never thrown; afterwards the session still runs and good calls still work.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import type { LocalRuntimeHost } from '../../src/main/runtime/host'
import type { WebServer } from '../../src/main/web/server'
import { CALL_CHANNEL, CALL_NAMES, IpcResultSchema, WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../src/shared/ipc-contract'
import { startRunningHost, type RunningHost } from './consent-kit'

vi.mock('electron', () => ({ protocol: { registerSchemesAsPrivileged: () => undefined, handle: () => undefined } }))

let running: RunningHost
let host: LocalRuntimeHost
let web: WebServer
let project: string

beforeAll(async () => {
  running = await startRunningHost()
  ;({ host, web, project } = running)
}, 60_000)

afterAll(() => running.close())

const deepJson = (n: number): string => `${'{"a":'.repeat(n)}"bottom"${'}'.repeat(n)}`
const deep = (n: number): unknown => {
  let v: unknown = 'bottom'
  for (let i = 0; i < n; i++) v = { a: v }
  return v
}

const DEEP = deep(5000)

/** Payloads no call accepts: each must come back as invalid_request, naming what is wrong. */
const NEVER_VALID: Array<[string, unknown]> = [
  ['an array', []],
  ['a string', 'payload'],
  ['a number', 42],
  ['true', true],
  ['an unknown key', { junk: 1 }],
  ['a __proto__ key', JSON.parse('{"__proto__": {"polluted": true}, "x": 1}')],
  ['a constructor key', { constructor: { prototype: { polluted: true } } }],
  ['5,000 levels of nesting', DEEP],
  ['a 1 MB key', { ['k'.repeat(1_000_000)]: 1 }]
]

/** Field values of wrong shapes, for the calls that take those fields. */
const BAD_FIELDS: Array<[string, Record<string, unknown>]> = [
  ['cwd as a number', { cwd: 1 }],
  ['a relative cwd', { cwd: 'relative/path' }],
  ['a cwd of 10,000 characters', { cwd: `/${'x'.repeat(10_000)}` }],
  ['a sessionId that walks up', { sessionId: '../../etc/passwd' }],
  ['a sessionId with a NUL', { sessionId: 'abc\u0000def' }],
  ['a prompt over the limit', { prompt: 'x'.repeat(500_001), cwd: '/tmp' }],
  ['an empty prompt', { prompt: '   ', cwd: '/tmp' }],
  ['a requestId with markup', { requestId: '"><script>alert(1)</script>', decision: 'allow' }],
  ['a decision that is not one', { requestId: 'r1', decision: 'always' }],
  ['a trust hash that is not one', { cwd: '/tmp', decision: 'trust', hash: 'x' }]
]

const WEIRD_CALLS = ['', ' ', 'toString', '__proto__', 'constructor', 'hasOwnProperty', 'session.start.x', 'SESSION.START', 'x'.repeat(99)]

interface Answer {
  ok: boolean
  error?: { code: string; message: string }
}

/**
 * Every call with every never-valid payload (invalid_request, or unsupported where the transport lacks the call) and
 * with every bad field (refused), over one transport: the WebSocket and the Electron IPC must refuse alike.
 */
function fuzzEveryCall(send: (name: string, payload: unknown) => Promise<unknown>) {
  it.each(CALL_NAMES.flatMap((name) => NEVER_VALID.map(([what, payload]) => [name, what, payload] as const)))(
    '%s with %s: invalid_request',
    async (name, what, payload) => {
      const a = checkAnswer(await send(name, payload), `${name} with ${what}`)
      expect(a.ok).toBe(false)
      expect(['invalid_request', 'unsupported']).toContain(a.error!.code)
    }
  )

  it.each(CALL_NAMES.flatMap((name) => BAD_FIELDS.map(([what, payload]) => [name, what, payload] as const)))(
    '%s with %s: refused, never run',
    async (name, what, payload) => {
      expect(checkAnswer(await send(name, payload), `${name} with ${what}`).ok).toBe(false)
    }
  )
}

function checkAnswer(answer: unknown, what: string): Answer {
  const parsed = IpcResultSchema.safeParse(answer)
  if (!parsed.success) throw new Error(`${what}: not an IPC result: ${JSON.stringify(answer).slice(0, 200)}`)
  const a = parsed.data as Answer
  if (!a.ok) expect(a.error!.message.length, what).toBeGreaterThan(5)
  return a
}

async function sessionStillRuns(): Promise<void> {
  expect(await running.stillRunning()).toBe(true)
}

describe('attack suite: the IPC contract fuzzed over the browser-mode WebSocket', () => {
  let ws: WebSocket
  const waiting = new Map<number, (v: unknown) => void>()
  const errors: string[] = []
  let answers = 0
  let nextId = 1

  beforeAll(async () => {
    ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws`, [WS_PROTOCOL, WS_TOKEN_PREFIX + web.token], { origin: `http://127.0.0.1:${web.port}`, maxPayload: 0 })
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString())
      if (m.kind === 'result' || m.kind === 'error') answers++
      if (m.kind === 'result') waiting.get(m.id)?.(m.result)
      if (m.kind === 'error') errors.push(m.message)
    })
    await new Promise((r) => ws.once('open', r))
  })
  afterAll(() => ws.close())

  const call = (name: unknown, payload: unknown): Promise<unknown> => {
    const id = nextId++
    // Built as text: a payload nested too deep for this process's JSON.stringify still reaches the server whole.
    const body = payload === DEEP ? deepJson(5000) : JSON.stringify(payload)
    return new Promise((resolve) => {
      waiting.set(id, resolve)
      ws.send(`{"id":${id},"call":${JSON.stringify(name)},"payload":${body}}`)
    })
  }

  const FRAMES: Array<[string, string]> = [
    ['an empty frame', ''],
    ['whitespace', '   \n\t'],
    ['half an object', '{"id": 1, "call": '],
    ['null', 'null'],
    ['true', 'true'],
    ['a number', '12'],
    ['a string', '"workspace.get"'],
    ['an array', '[1, "workspace.get", {}]'],
    ['an empty object', '{}'],
    ['no id', '{"call": "workspace.get", "payload": {}}'],
    ['a string id', '{"id": "1", "call": "workspace.get", "payload": {}}'],
    ['a negative id', '{"id": -1, "call": "workspace.get", "payload": {}}'],
    ['a fractional id', '{"id": 1.5, "call": "workspace.get", "payload": {}}'],
    ['an id of 1e400', '{"id": 1e400, "call": "workspace.get", "payload": {}}'],
    ['a call that is a number', '{"id": 3, "call": 7, "payload": {}}'],
    ['a call name of 10,000 characters', JSON.stringify({ id: 4, call: 'c'.repeat(10_000), payload: {} })],
    ['an extra key', '{"id": 5, "call": "workspace.get", "payload": {}, "admin": true}'],
    ['a __proto__ key', '{"id": 6, "call": "workspace.get", "payload": {}, "__proto__": {"x": 1}}'],
    ['200,000 levels of nesting', `${'['.repeat(200_000)}${']'.repeat(200_000)}`],
    ['a lone surrogate', '{"id": 7, "call": "\\ud800", "payload": {}}'],
    ['a BOM before the JSON', '\ufeff{"id": 8, "call": "workspace.get", "payload": {}}'],
    ['NUL bytes', '\u0000\u0000']
  ]

  it.each(FRAMES)('%s: answered with an error that says what is wrong', async (_name, text) => {
    const before = answers
    const marker = nextId++
    const answered = new Promise((resolve) => waiting.set(marker, resolve))
    ws.send(text)
    // A good call right after: its answer proves the bad frame was handled (in order) and the connection lives.
    ws.send(JSON.stringify({ id: marker, call: 'workspace.get', payload: {} }))
    expect(checkAnswer(await answered, 'the follow-up call').ok).toBe(true)
    // One answer for the bad frame (an error frame, or an error result for its id), one for the good call.
    expect(answers - before, 'the bad frame got an answer').toBe(2)
  })

  fuzzEveryCall(call)

  it.each(WEIRD_CALLS)('the call %j: unknown_call', async (name) => {
    const a = checkAnswer(await call(name, {}), `call ${name}`)
    expect(a).toMatchObject({ ok: false, error: { code: 'unknown_call' } })
  })

  it('afterwards the session still runs and good calls are answered', async () => {
    await sessionStillRuns()
    expect(checkAnswer(await call('sessions.list', { cwd: project }), 'sessions.list').ok).toBe(true)
  })
})

describe('attack suite: the IPC contract fuzzed over the Electron IPC handlers', () => {
  const handlers = new Map<string, (event: unknown, name: unknown, payload: unknown) => Promise<unknown>>()
  const contents = { id: 1 }
  const trusted = { sender: contents, senderFrame: { parent: null, url: 'fanout://app/index.html' } }

  beforeAll(async () => {
    const { registerIpc } = await import('../../src/main/ipc/register-ipc')
    const ipcMain = {
      handle: (channel: string, fn: (event: unknown, name: unknown, payload: unknown) => Promise<unknown>) => handlers.set(channel, fn),
      removeHandler: (c: string) => handlers.delete(c)
    }
    registerIpc({ ipcMain: ipcMain as never, host, contents: () => contents as never })
  })

  // Every call travels on one channel as (name, request), as the preload sends it.
  const invoke = (name: unknown, payload: unknown, event: unknown = trusted) => handlers.get(CALL_CHANNEL)!(event, name, payload)

  it.each([...WEIRD_CALLS, 42, null, { toString: () => 'session.start' }, ['session.start']])('the call %j over IPC: unknown_call, never run', async (name) => {
    expect(await invoke(name, { prompt: 'rm -rf /', cwd: '/tmp' })).toMatchObject({ ok: false, error: { code: 'unknown_call' } })
  })

  fuzzEveryCall(invoke)

  it.each([
    ['another webContents', { sender: { id: 2 }, senderFrame: { parent: null, url: 'fanout://app/index.html' } }],
    ['a subframe of our window', { sender: contents, senderFrame: { parent: {}, url: 'fanout://app/index.html' } }],
    ['our window showing another page', { sender: contents, senderFrame: { parent: null, url: 'https://evil.example/' } }],
    ['no frame', { sender: contents, senderFrame: null }]
  ])('a call from %s: forbidden', async (_what, event) => {
    expect(await invoke('workspace.get', {}, event)).toMatchObject({ ok: false, error: { code: 'forbidden' } })
  })

  it('afterwards the session still runs and good calls are answered', async () => {
    await sessionStillRuns()
    expect(checkAnswer(await invoke('workspace.get', {}), 'workspace.get').ok).toBe(true)
  })
})
