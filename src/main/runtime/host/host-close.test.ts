// Closing the host (the app quits, a window's host goes) while a session is only starting: its prompt was being
// made ready when close began. Nothing of it may run after close: no agent starts, no request reaches the
// model, no event is dropped on a closed recorder, and nobody is told of an error that never happened.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { folders, host } from '../../../../test/support/host'
import { dispatchCall } from '../../../shared/ipc-dispatch'
import { createModelClient } from '../model/client'
import { reply, scriptByAgent } from '../model/scripted'
import { AgentSession, SessionClosedError } from '../orchestration'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

afterEach(() => {
  vi.restoreAllMocks()
})

describe('closing the host as a session starts', () => {
  it.each(['session.start', 'demo.start'] as const)('%s then close at once: nothing runs after close, nothing is dropped or reported', async (call) => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { h, events, notices, server, dirs } = await host(scriptByAgent([{ match: () => true, turns: [reply.text('hi')] }]))
    const started = await dispatchCall(h, call, call === 'session.start' ? { prompt: 'Say hi.', cwd: dirs.cwd } : { cwd: dirs.cwd })
    expect(started).toMatchObject({ ok: true })
    await h.close()
    const seen = { events: events.length, requests: server!.requests.length, notices: notices.length }
    // Whatever the session would still have done after close has had time to happen.
    await sleep(300)
    expect({ events: events.length, requests: server!.requests.length, notices: notices.length }).toEqual(seen)
    expect(printed.mock.calls.map((c) => String(c[0])).filter((line) => /recorder is closed|dropped/.test(line))).toEqual([])
    // An agent that did start before close was stopped and ended; none is left without its end.
    const starts = events.filter((e) => e.type === 'agent_start').map((e) => e.agentId)
    const ends = events.filter((e) => e.type === 'agent_end').map((e) => e.agentId)
    expect(ends.sort()).toEqual(starts.sort())
    expect(events.filter((e) => e.type === 'error')).toEqual([])
  })

  it('a closed session refuses to run, retry, compact, message or resume, and sends nothing', async () => {
    const dirs = folders()
    const { server } = await host(scriptByAgent([{ match: () => true, turns: [reply.text('hi')] }]), dirs)
    const session = await AgentSession.create({
      cwd: dirs.cwd,
      dataDir: dirs.dataDir,
      home: dirs.home,
      ripgrep: false,
      managedSettingsFile: null,
      client: createModelClient({ apiKey: 'k', baseURL: server!.url, maxRetries: 0, env: {} })
    })
    await session.close()
    await expect(session.run('Say hi.')).rejects.toBeInstanceOf(SessionClosedError)
    await expect(session.run('Say hi.')).rejects.toThrow(/is closed: nothing more runs in it/)
    await expect(session.retry('main')).rejects.toBeInstanceOf(SessionClosedError)
    await expect(session.compact()).rejects.toBeInstanceOf(SessionClosedError)
    await expect(session.sendMessage('main', 'more')).rejects.toBeInstanceOf(SessionClosedError)
    await expect(session.resumeInterrupted()).rejects.toBeInstanceOf(SessionClosedError)
    expect(server!.requests).toEqual([])
  })
})
