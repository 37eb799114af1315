// The UI bench's start burst: paced, the main agent's reply brings its Agent calls one after another, each
// subagent started once its call has streamed whole (as the runtime starts them); instant, everything at once.
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../src/shared/events'
import type { RuntimeHost } from '../src/shared/host'
import { StreamHost } from '../bench/ui-stream-host'

const inner = { handlers: {}, close: async () => {} } as unknown as RuntimeHost

async function start(reply?: { firstTokenMs: number; callsPerSecond: number }) {
  const host = new StreamHost(inner, { agents: 8, deltasPerSecond: 10, ...(reply ? { reply } : {}) })
  const seen: Array<{ e: AgentEvent; at: number }> = []
  host.onEvents((batch) => batch.forEach((e) => seen.push({ e, at: performance.now() })))
  const t0 = performance.now()
  await host.handlers['session.start']({ prompt: 'Bench', cwd: '/tmp' } as never)
  return { host, seen, t0 }
}

const done = (seen: Array<{ e: AgentEvent }>, n: number) => seen.filter((s) => s.e.type === 'agent_start' && s.e.parentAgentId).length === n
const waitFor = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10))
  expect(ok()).toBe(true)
}

describe('the UI bench host', () => {
  it('paced: the reply comes after its first-token wait and starts each subagent after its call, one call at a time', async () => {
    const { host, seen, t0 } = await start({ firstTokenMs: 60, callsPerSecond: 50 })
    await waitFor(() => done(seen, 8))
    const types = seen.map(({ e }) => `${e.type}${'toolUseId' in e ? `:${e.toolUseId}` : ''}${e.parentAgentId ? `@${e.parentToolUseId}` : ''}`)
    // The session's first events, then the wait on the model.
    expect(types.slice(0, 4)).toEqual(['agent_start', 'message', 'turn_start', 'model_request'])
    const firstReply = seen.findIndex(({ e }) => e.type === 'text_delta')
    expect(seen[firstReply].at - t0).toBeGreaterThanOrEqual(55)
    for (let i = 0; i < 8; i++) {
      const call = types.indexOf(`tool_start:toolu_${i}`)
      const run = types.indexOf(`tool_run:toolu_${i}`)
      const child = types.indexOf(`agent_start@toolu_${i}`)
      expect(call).toBeGreaterThan(firstReply)
      expect(types.slice(call + 1, run).every((t) => t === `tool_input_delta:toolu_${i}`)).toBe(true)
      expect(child).toBeGreaterThan(run)
      if (i < 7) expect(types.indexOf(`tool_start:toolu_${i + 1}`)).toBeGreaterThan(child)
    }
    // Spread at the pace asked: 7 intervals of 20 ms between the first and the last start.
    const starts = seen.filter(({ e }) => e.type === 'agent_start' && e.parentAgentId).map((s) => s.at)
    expect(starts[7] - starts[0]).toBeGreaterThanOrEqual(130)
    expect(host.burstAt).toBeGreaterThan(0)
    await host.close()
  })

  it('paced: each subagent’s reply begins its first-token wait after its own start, so the replies are spread as the starts are', async () => {
    const { host, seen } = await start({ firstTokenMs: 60, callsPerSecond: 25 })
    // As the bench does: the stream's end is set once every subagent has started.
    await waitFor(() => done(seen, 8))
    const run = await host.stream(0.3)
    const startAt = (id: string) => seen.find(({ e }) => e.type === 'agent_start' && e.agentId === id)!.at
    const firstAt = (id: string) => seen.find(({ e }) => e.type === 'text_delta' && e.agentId === id)!.at
    for (const id of host.childIds) {
      expect(firstAt(id) - startAt(id)).toBeGreaterThanOrEqual(55)
      expect(run.sent[id].length).toBeGreaterThan(0)
    }
    // Started 40 ms apart, the replies begin ~40 ms apart, not together.
    const first = host.childIds.map(firstAt)
    expect(first[7] - first[0]).toBeGreaterThanOrEqual(250)
    await host.close()
  })

  it('instant: every call and every subagent start with the session’s first events', async () => {
    const { host, seen } = await start()
    await waitFor(() => done(seen, 8))
    const starts = seen.filter(({ e }) => e.type === 'agent_start').map((s) => s.at)
    expect(starts).toHaveLength(9)
    expect(starts[8] - starts[0]).toBeLessThan(20)
    expect(seen.some(({ e }) => e.type === 'tool_input_delta')).toBe(false)
    // Their replies wait for the bench's go, then begin together, staggered across one interval (100 ms here).
    await new Promise((r) => setTimeout(r, 150))
    expect(seen.some(({ e }) => e.type === 'text_delta' && e.parentAgentId)).toBe(false)
    const run = await host.stream(0.25)
    const first = host.childIds.map((id) => seen.find(({ e }) => e.type === 'text_delta' && e.agentId === id)!.at)
    expect(Math.max(...first) - Math.min(...first)).toBeLessThan(100 + 40)
    expect(Object.values(run.sent).every((s) => s.length > 0)).toBe(true)
    await host.close()
  })
})
