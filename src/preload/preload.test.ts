// The preload against a stand-in `electron`: what the page gets is one call(name, request) on the one call
// channel and the two pushes, frozen; no ipcRenderer, no call names (main checks the name and the request).
import { describe, expect, it, vi } from 'vitest'
import { CALL_CHANNEL, PUSH_CHANNELS } from '../shared/ipc-channels'

const fake = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoked: [] as unknown[][],
  listening: new Map<string, (event: unknown, payload: unknown) => void>()
}))

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => fake.exposed.set(key, api) },
  ipcRenderer: {
    invoke: async (...args: unknown[]) => (fake.invoked.push(args), { ok: true, value: {} }),
    on: (channel: string, fn: (event: unknown, payload: unknown) => void) => fake.listening.set(channel, fn),
    removeListener: (channel: string) => fake.listening.delete(channel)
  }
}))

describe('preload', () => {
  it('exposes only call, onEvents and onNotice, frozen; every call goes on the one channel as (name, request)', async () => {
    await import('./index')
    const api = fake.exposed.get('fanout') as { call(name: unknown, request?: unknown): Promise<unknown>; onEvents(fn: (p: unknown) => void): () => void }
    expect([...fake.exposed.keys()]).toEqual(['fanout'])
    expect(Object.keys(api).sort()).toEqual(['call', 'onEvents', 'onNotice'])
    expect(Object.isFrozen(api)).toBe(true)
    await api.call('agent.stop', { sessionId: 's', agentId: 'a' })
    await api.call('not.a.call')
    expect(fake.invoked).toEqual([
      [CALL_CHANNEL, 'agent.stop', { sessionId: 's', agentId: 'a' }],
      [CALL_CHANNEL, 'not.a.call', {}]
    ])
    const seen: unknown[] = []
    const off = api.onEvents((p) => seen.push(p))
    fake.listening.get(PUSH_CHANNELS.events)!({ sender: 'ipc' }, [{ type: 'x' }])
    expect(seen).toEqual([[{ type: 'x' }]])
    off()
    expect(fake.listening.has(PUSH_CHANNELS.events)).toBe(false)
  })
})
