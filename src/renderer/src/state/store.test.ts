import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import type { CallName, HostNotice, SessionSummary } from '../../../shared/ipc-contract'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { CallError, type ConnectionState, type FanoutApi } from '../transport/types'
import { boot, openSession, receiveEvents, resetStore, startSession, useApp } from './store'

const summary = (id: string, status: SessionSummary['status'] = 'completed'): SessionSummary => ({
  sessionId: id,
  title: `Session ${id}`,
  cwd: '/work/project',
  status,
  createdAt: 1,
  updatedAt: 2,
  costUsd: 0.5,
  agentCount: 2
})

/** A transport whose answers the test controls; `open` can be held to interleave live events. */
function fakeApi() {
  const calls: Array<[CallName, unknown]> = []
  let events: (e: AgentEvent[]) => void = () => {}
  let connection: (s: ConnectionState) => void = () => {}
  let releaseOpen: (() => void) | null = null
  const history: AgentEvent[] = []
  const api: FanoutApi = {
    mode: 'browser',
    async call(name, request) {
      calls.push([name, request])
      switch (name) {
        case 'workspace.get':
          return { workspace: { cwd: '/work/project', name: 'project', isGitRepo: true } } as never
        case 'settings.get':
          return { settings: { hasApiKey: true } } as never
        case 'sessions.list':
          return { sessions: [summary('old')] } as never
        case 'agents.list':
          return { agents: [], errors: [] } as never
        case 'sessions.open':
          await new Promise<void>((r) => (releaseOpen = r))
          return { session: summary('old'), events: history } as never
        case 'session.start':
          return { sessionId: 'new' } as never
        default:
          throw new CallError('unsupported', `${name} is not faked`)
      }
    },
    onEvents: (l) => ((events = l), () => {}),
    onNotice: (_l: (n: HostNotice) => void) => () => {},
    onConnection: (l) => ((connection = l), () => {})
  }
  return { api, calls, history, push: (e: AgentEvent[]) => events(e), connect: () => connection('open'), release: () => releaseOpen?.() }
}

const settle = () => new Promise((r) => setTimeout(r, 0))
afterEach(() => resetStore())

describe('app store', () => {
  it('loads workspace, settings and sessions once connected', async () => {
    const f = fakeApi()
    boot(f.api)
    f.connect()
    await settle()
    await settle()
    const s = useApp.getState()
    expect(s.workspace?.cwd).toBe('/work/project')
    expect(s.settings?.hasApiKey).toBe(true)
    expect(s.sessions.map((x) => x.sessionId)).toEqual(['old'])
    expect(f.calls.find(([n]) => n === 'sessions.list')?.[1]).toEqual({ cwd: '/work/project' })
  })

  it('reopens a past session from its events, keeping live events that arrive meanwhile, without duplicates', async () => {
    const f = fakeApi()
    boot(f.api)
    f.connect()
    await settle()
    const clock = manualClock()
    const main = agentEvents('old', 'main', clock)
    f.history.push(main.start(), main.user('hi'), main.text('Hel'))
    const opening = openSession('old')
    await settle()
    // While the history is on its way: a duplicate of its last event, then a fresh one.
    f.push([f.history[2]])
    clock.advance(10)
    f.push([main.text('lo')])
    expect(useApp.getState().events.sessions.old).toBeUndefined()
    f.release()
    await opening
    const s = useApp.getState()
    expect(s.currentSessionId).toBe('old')
    expect(s.loaded.old).toBe(true)
    expect(s.events.sessions.old.items.main.map((i) => ('text' in i ? i.text : ''))).toEqual(['hi', 'Hello'])
  })

  it('a session started here is live: no replay is requested when it is shown', async () => {
    const f = fakeApi()
    boot(f.api)
    f.connect()
    await settle()
    await startSession({ prompt: 'Fix it' })
    expect(useApp.getState().currentSessionId).toBe('new')
    await openSession('new')
    expect(f.calls.some(([n]) => n === 'sessions.open')).toBe(false)
    expect(f.calls.find(([n]) => n === 'session.start')?.[1]).toEqual({ prompt: 'Fix it', cwd: '/work/project' })
  })

  it('refreshes the session list when a main agent ends', async () => {
    const f = fakeApi()
    boot(f.api)
    f.connect()
    await settle()
    const before = f.calls.filter(([n]) => n === 'sessions.list').length
    receiveEvents([agentEvents('x', 'main', manualClock()).end('completed')])
    await settle()
    expect(f.calls.filter(([n]) => n === 'sessions.list').length).toBe(before + 1)
  })
})
