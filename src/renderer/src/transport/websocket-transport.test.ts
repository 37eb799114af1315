// Browser mode's transport against a fake socket and clock: how it reconnects, when it gives up, and
// what a call made while disconnected says.
import { describe, expect, it } from 'vitest'
import { GIVE_UP_AFTER_MS, GONE_TEXT, RESTARTED_TEXT, closeReason, createWebSocketTransport, type WebSocketTransportDeps } from './websocket-transport'
import { WS_MAX_FRAME_BYTES } from '../../../shared/ipc-contract'
import { settingsFieldErrors } from '../../../shared/settings-fields'
import { CallError, type ConnectionState } from './types'

class FakeSocket {
  static all: FakeSocket[] = []
  onopen: (() => void) | null = null
  onclose: ((ev?: { code: number }) => void) | null = null
  onmessage: ((ev: { data: string }) => void) | null = null
  sent: string[] = []
  constructor(
    readonly url: string,
    readonly protocols: string[]
  ) {
    FakeSocket.all.push(this)
  }
  send(data: string) {
    this.sent.push(data)
  }
  open() {
    this.onopen?.()
  }
  drop(code = 1006) {
    this.onclose?.({ code })
  }
}

/** A transport on a fake socket and clock; `step()` runs the next retry timer, as time passes. */
function setUp(serverAnswers: boolean) {
  FakeSocket.all = []
  let now = 0
  const timers: Array<{ at: number; fn: () => void }> = []
  const deps: WebSocketTransportDeps = {
    WebSocket: FakeSocket as unknown as WebSocketTransportDeps['WebSocket'],
    serverAnswers: async () => serverAnswers,
    now: () => now,
    setTimeout: (fn, ms) => timers.push({ at: now + ms, fn })
  }
  const api = createWebSocketTransport('tok-1234567890abcdef', 'ws://127.0.0.1:1/ws', deps)
  const states: Array<[ConnectionState, string | undefined]> = []
  api.onConnection((s, d) => states.push([s, d]))
  const settle = () => new Promise((r) => setTimeout(r, 0))
  return {
    api,
    states,
    last: () => FakeSocket.all.at(-1)!,
    /** Runs the earliest waiting retry; false when none waits (the transport gave up). */
    async step(): Promise<boolean> {
      await settle()
      timers.sort((a, b) => a.at - b.at)
      const t = timers.shift()
      if (!t) return false
      now = Math.max(now, t.at)
      t.fn()
      return true
    },
    settle
  }
}

describe('websocket transport', () => {
  it('says what could not be done, in plain words, while it reconnects', async () => {
    const t = setUp(false)
    t.last().open()
    t.last().drop()
    expect(t.states.at(-1)![0]).toBe('closed')
    await expect(t.api.call('session.sendPrompt', { sessionId: 's', prompt: 'hello?' })).rejects.toThrow(
      'Could not send your message: not connected to Fanout. It is reconnecting; try again in a moment.'
    )
    await expect(t.api.call('agent.stop', { sessionId: 's', agentId: 'a' })).rejects.toThrow(/^Could not stop the agent: not connected/)
  })

  it('rejects a refused call with the sentence for each field, besides its message', async () => {
    const t = setUp(false)
    t.last().open()
    const call = t.api.call('settings.update', { limits: { maxDepth: 0 } })
    const { id } = JSON.parse(t.last().sent[0]) as { id: number }
    const error = {
      code: 'invalid_request',
      message: 'settings.update: limits.maxDepth: Enter a number from 1 to 32.',
      fields: { 'limits.maxDepth': 'Enter a number from 1 to 32.' }
    }
    t.last().onmessage?.({ data: JSON.stringify({ kind: 'result', id, result: { ok: false, error } }) })
    const err = await call.catch((e: unknown) => e)
    expect(err).toBeInstanceOf(CallError)
    expect(err).toMatchObject({ code: 'invalid_request', message: error.message, fields: error.fields })
    expect(settingsFieldErrors(err as CallError)).toEqual({ fields: { maxDepth: 'Enter a number from 1 to 32.' }, rest: [] })
  })

  it('reconnects when the same server comes back', async () => {
    const t = setUp(false)
    t.last().open()
    t.last().drop()
    await t.step()
    t.last().open()
    expect(t.states.at(-1)).toEqual(['open', undefined])
  })

  it('stops and says Fanout was restarted once the server answers but refuses the page', async () => {
    const t = setUp(true)
    t.last().open()
    t.last().drop() // the restart
    for (let i = 0; i < 5 && (await t.step()); i++) t.last().drop() // each new handshake is refused
    await t.settle()
    expect(t.states.at(-1)).toEqual(['unauthorized', RESTARTED_TEXT])
    expect(FakeSocket.all.length).toBeLessThanOrEqual(3)
    expect(await t.step()).toBe(false) // no more tries
  })

  it('gives up after a bounded time when nothing answers any more', async () => {
    const t = setUp(false)
    t.last().open()
    t.last().drop()
    let tries = 0
    while (await t.step()) {
      t.last().drop()
      if (++tries > 100) throw new Error('still reconnecting')
    }
    expect(t.states.at(-1)).toEqual(['gone', GONE_TEXT])
    expect(GONE_TEXT).toContain(`${GIVE_UP_AFTER_MS / 1000} seconds`)
    expect(tries).toBeLessThan(20)
  })
})

describe('what a page may send', () => {
  it('refuses a call larger than a frame may be, with a sentence, without sending it', async () => {
    const t = setUp(true)
    t.last().open()
    const huge = 'é'.repeat(WS_MAX_FRAME_BYTES / 2 + 10) // fewer characters than bytes: counted in UTF-8
    await expect(t.api.call('session.sendPrompt', { sessionId: 's1', prompt: huge })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/^Could not send your message: it is 8 MiB, and browser mode sends at most 8 MiB at once\. Shorten it\.$/)
    })
    expect(t.last().sent).toEqual([])
  })

  it('says why the server closed the connection when its close code tells', async () => {
    const t = setUp(true)
    t.last().open()
    const waiting = t.api.call('session.sendPrompt', { sessionId: 's1', prompt: 'x' })
    t.last().drop(1009)
    await expect(waiting).rejects.toMatchObject({
      code: 'disconnected',
      message:
        'Fanout refused a message larger than 8 MiB and closed the connection while trying to send your message; once it is back, check whether that happened.'
    })
    expect(t.states.at(-1)).toEqual(['closed', 'Fanout refused a message larger than 8 MiB and closed the connection. Reconnecting…'])
    expect(closeReason(1007)).toMatch(/not valid text/)
    expect(closeReason(1006)).toBeNull()
  })
})
