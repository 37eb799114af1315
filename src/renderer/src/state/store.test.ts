import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AgentEvent, AgentStartEvent } from '../../../shared/events'
import type { CallName, HostNotice, SessionSummary } from '../../../shared/ipc-contract'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { applyEvents } from '../../../shared/view/reducer'
import { splitSession, type OlderPage } from '../../../shared/view/session-pages'
import { emptyEventsState, emptySession } from '../../../shared/view/session-state'
import { CallError, type ConnectionState, type FanoutApi } from '../transport/types'
import { pendingPermissions } from './selectors'
import { boot, flushEvents, openSession, receiveEvents, receiveNotice, resetStore, startSession, useApp } from './store'

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
  // As the host answers: the history folded, then cut into a head and older pages (small, to page often).
  let pages: OlderPage[] = []
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
        case 'sessions.open': {
          await new Promise<void>((r) => (releaseOpen = r))
          const split = splitSession(applyEvents(emptyEventsState(), history).sessions.old ?? emptySession('old'), { headItems: 3, pageItems: 4 })
          pages = split.pages
          return { session: summary('old'), view: split.head, olderItems: split.olderItems, more: pages.length ? 'p0' : null } as never
        }
        case 'sessions.page': {
          const i = Number((request as { cursor: string }).cursor.slice(1))
          return { page: pages[i], more: i + 1 < pages.length ? `p${i + 1}` : null } as never
        }
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
  return {
    api,
    calls,
    history,
    push: (e: AgentEvent[]) => events(e),
    connect: () => connection('open'),
    connection: (s: ConnectionState) => connection(s),
    release: () => releaseOpen?.()
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0))

/** The store booted on a fake transport that has connected and answered the first calls. */
async function connected() {
  const f = fakeApi()
  boot(f.api)
  f.connect()
  await settle()
  return f
}

/**
 * Session 'old' being opened (its history 'hi', 'Hel' held on its way) while live events come: a duplicate
 * of the history's last event, then a fresh one ('lo').
 */
async function openingWhileLive() {
  const f = await connected()
  const clock = manualClock()
  const main = agentEvents('old', 'main', clock)
  f.history.push(main.start(), main.user('hi'), main.text('Hel'))
  const opening = openSession('old')
  await settle()
  f.push([f.history[2]])
  clock.advance(10)
  f.push([main.text('lo')])
  return { f, opening }
}

/** A finished session 'old' whose main agent answered 'Go' in twelve steps: longer than the first part sent. */
function recordTwelveSteps(history: AgentEvent[]): void {
  const main = agentEvents('old', 'main', manualClock())
  history.push(main.start(), main.user('Go'))
  for (let t = 1; t <= 12; t++) history.push(main.assistant(`Step ${t}.`))
  history.push(main.end('completed'))
}
afterEach(() => resetStore())

describe('app store', () => {
  it('a connection it had and lost holds the moment it went (the page freezes there) until it is open again, and reads the host again then', async () => {
    const f = fakeApi()
    boot(f.api)
    f.connection('connecting')
    expect(useApp.getState().connectionLostAt).toBeNull() // never connected: nothing was lost
    f.connect()
    await settle()
    const before = f.calls.filter(([name]) => name === 'workspace.get').length
    f.connection('closed')
    const lostAt = useApp.getState().connectionLostAt
    expect(lostAt).not.toBeNull()
    f.connection('connecting') // trying again: still lost since the same moment
    f.connection('closed')
    expect(useApp.getState().connectionLostAt).toBe(lostAt)
    f.connect()
    await settle()
    expect(useApp.getState().connectionLostAt).toBeNull()
    expect(f.calls.filter(([name]) => name === 'workspace.get').length).toBe(before + 1)
  })

  it('loads workspace, settings and sessions once connected', async () => {
    const f = await connected()
    await settle()
    const s = useApp.getState()
    expect(s.workspace?.cwd).toBe('/work/project')
    expect(s.settings?.hasApiKey).toBe(true)
    expect(s.sessions.map((x) => x.sessionId)).toEqual(['old'])
    expect(f.calls.find(([n]) => n === 'sessions.list')?.[1]).toEqual({ cwd: '/work/project' })
  })

  it('reopens a past session from its events, keeping live events that arrive meanwhile, without duplicates', async () => {
    const { f, opening } = await openingWhileLive()
    expect(useApp.getState().events.sessions.old).toBeUndefined()
    f.release()
    await opening
    const s = useApp.getState()
    expect(s.currentSessionId).toBe('old')
    expect(s.loaded.old).toBe(true)
    expect(s.events.sessions.old.items.main.map((i) => ('text' in i ? i.text : ''))).toEqual(['hi', 'Hello'])
  })

  it('reopens a long session newest part first, then joins the older items above it, nothing lost', async () => {
    const f = await connected()
    recordTwelveSteps(f.history)
    const texts = () => useApp.getState().events.sessions.old.items.main.map((i) => ('text' in i ? i.text : ''))
    const shown: string[][] = []
    const off = useApp.subscribe((s, prev) => void (s.events.sessions.old !== prev.events.sessions.old && shown.push(texts())))
    const opening = openSession('old')
    await settle()
    f.release()
    await opening
    for (let i = 0; i < 10 && useApp.getState().older.old.items.main; i++) await settle()
    off()
    expect(shown[0]).toEqual(['Step 10.', 'Step 11.', 'Step 12.']) // what is on screen, first
    expect(shown[1]).toEqual(['Step 6.', 'Step 7.', 'Step 8.', 'Step 9.', ...shown[0]])
    expect(texts()).toEqual(['Go', ...Array.from({ length: 12 }, (_, i) => `Step ${i + 1}.`)])
    expect(useApp.getState().events.sessions.old).toEqual(applyEvents(emptyEventsState(), f.history).sessions.old)
    expect(useApp.getState().older.old.items).toEqual({})
  })

  it('older items that could not be fetched come when the session is opened again, as the page tells the user', async () => {
    const f = fakeApi()
    // The host let go of the pages (a cursor dropped, the host restarted in browser mode): the first fetch fails.
    const call = f.api.call.bind(f.api)
    let failures = 1
    f.api.call = (async (name: CallName, request: unknown) => {
      if (name === 'sessions.page' && failures-- > 0) throw new CallError('not_found', 'Session old has no page p0 waiting: open the session again.')
      return call(name as never, request as never)
    }) as FanoutApi['call']
    boot(f.api)
    f.connect()
    await settle()
    recordTwelveSteps(f.history)
    const opening = openSession('old')
    await settle()
    f.release()
    await opening
    for (let i = 0; i < 5; i++) await settle()
    expect(useApp.getState().older.old.error).toMatch(/open the session again/)
    // What the row says to do: open it again (a click on it in the list).
    const again = openSession('old')
    await settle()
    f.release()
    await again
    for (let i = 0; i < 10 && useApp.getState().older.old?.items.main; i++) await settle()
    expect(useApp.getState().older.old.error).toBeUndefined()
    expect(useApp.getState().events.sessions.old).toEqual(applyEvents(emptyEventsState(), f.history).sessions.old)
  })

  it('a session started here is live: no replay is requested when it is shown', async () => {
    const f = await connected()
    await startSession({ prompt: 'Fix it' })
    expect(useApp.getState().currentSessionId).toBe('new')
    await openSession('new')
    expect(f.calls.some(([n]) => n === 'sessions.open')).toBe(false)
    expect(f.calls.find(([n]) => n === 'session.start')?.[1]).toEqual({ prompt: 'Fix it', cwd: '/work/project' })
  })

  it('a start pressed before the folder is known asks the host for it; without a connection it says so', async () => {
    const f = fakeApi()
    boot(f.api)
    // Not connected yet: the start says what it could not do, and why.
    await expect(startSession({ prompt: 'Fix it' })).rejects.toThrow('Could not start the session: not connected to Fanout.')
    // Connected, the folder not yet heard (its answer still on the way): asked for, then used.
    useApp.setState({ connection: 'open', workspace: null })
    await startSession({ prompt: 'Fix it' })
    expect(f.calls.find(([n]) => n === 'session.start')?.[1]).toEqual({ prompt: 'Fix it', cwd: '/work/project' })
  })

  it('asks for the session list only on connecting: a main agent’s end and a start bring their rows pushed', async () => {
    const f = await connected()
    receiveEvents([agentEvents('x', 'main', manualClock()).end('completed')])
    await startSession({ prompt: 'Fix it' })
    receiveNotice({ type: 'session_updated', session: { ...summary('new', 'running'), costUsd: 0.75 } })
    await settle()
    expect(f.calls.filter(([n]) => n === 'sessions.list')).toHaveLength(1)
    expect(useApp.getState().sessions.map((x) => [x.sessionId, x.costUsd])).toEqual([
      ['new', 0.75],
      ['old', 0.5]
    ])
  })

  it('lists the requests a pushed row says wait, with who asks, without opening the session; answered elsewhere, they go', async () => {
    const f = await connected()
    const clock = manualClock()
    const main = agentEvents('far', 'main', clock)
    const sub = agentEvents('far', 'tester', clock, { agentId: 'main', toolUseId: 'tu-t' })
    const ask = sub.permissionRequest('r1', 'Bash', { command: 'npm test' }, { reason: 'runs tests' })
    const asker = sub.start() as AgentStartEvent
    const waiting = {
      ...summary('far', 'waiting_permission'),
      waitingPermissions: 1,
      pendingRequests: { requests: [ask], agents: [main.start(), asker] }
    } as SessionSummary
    receiveNotice({ type: 'session_updated', session: waiting })
    // Pushed again (its time moved on): the same request, once.
    receiveNotice({ type: 'session_updated', session: { ...waiting, updatedAt: 5 } })
    const queued = pendingPermissions(useApp.getState().events)
    expect(queued.map((p) => [p.requestId, p.toolName])).toEqual([['r1', 'Bash']])
    const session = useApp.getState().events.sessions.far
    // The card names the agent that asks, as it would in the opened session.
    expect(session.agents.tester).toMatchObject({ agentType: asker.agentType, description: asker.description, parentId: 'main' })
    expect(session.agents.tester.status).toBe('waiting_permission')
    receiveNotice({ type: 'session_updated', session: { ...summary('far', 'running'), waitingPermissions: 0, updatedAt: 9 } })
    expect(pendingPermissions(useApp.getState().events)).toEqual([])
    expect(useApp.getState().events.sessions.far.permissions.r1.decision).toBe('expired')
    expect(useApp.getState().events.sessions.far.agents.tester.status).toBe('running')
    expect(f.calls.some(([n]) => n === 'sessions.open')).toBe(false)
  })

  it('leaves a session whose history is here to its own events', async () => {
    await connected()
    await startSession({ prompt: 'Fix it' })
    const ask = agentEvents('new', 'main', manualClock()).permissionRequest('r2', 'Bash', { command: 'ls' })
    receiveNotice({
      type: 'session_updated',
      session: { ...summary('new', 'waiting_permission'), waitingPermissions: 1, pendingRequests: { requests: [ask], agents: [] } } as SessionSummary
    })
    expect(useApp.getState().events.sessions.new).toBeUndefined()
  })
})

describe('live events in a page with animation frames', () => {
  let frames: Array<() => void> = []
  const runFrame = () => {
    const due = frames
    frames = []
    for (const f of due) f()
  }
  const withFrames = () => {
    frames = []
    vi.stubGlobal('requestAnimationFrame', (cb: () => void) => frames.push(cb))
    vi.stubGlobal('cancelAnimationFrame', (id: number) => {
      frames[id - 1] = () => {}
    })
  }
  afterEach(() => {
    resetStore()
    vi.unstubAllGlobals()
  })

  it('folds every batch that arrived before a frame into one store update, in order', async () => {
    withFrames()
    await connected()
    const clock = manualClock()
    const a = agentEvents('s', 'main', clock)
    let updates = 0
    const off = useApp.subscribe((s, prev) => void (s.events !== prev.events && updates++))
    receiveEvents([a.start(), a.text('Hel')])
    receiveEvents([a.text('lo')])
    receiveEvents([a.status('waiting_permission')])
    expect(useApp.getState().events.sessions.s).toBeUndefined()
    runFrame()
    off()
    expect(updates).toBe(1)
    const session = useApp.getState().events.sessions.s
    expect(session.items.main.map((i) => ('text' in i ? i.text : ''))).toEqual(['Hello'])
    expect(session.agents.main.status).toBe('waiting_permission')
  })

  it('keeps up without frames (a hidden window): a timer applies the events', async () => {
    withFrames()
    vi.useFakeTimers()
    try {
      const a = agentEvents('s', 'main', manualClock())
      receiveEvents([a.start(), a.text('still counted')])
      vi.advanceTimersByTime(150)
      expect(useApp.getState().events.sessions.s.items.main).toHaveLength(1)
    } finally {
      vi.useRealTimers()
    }
  })

  it("a session's rows sent at every change show at the frame: one store update per session, with its newest row", async () => {
    withFrames()
    await connected()
    let updates = 0
    const off = useApp.subscribe((s, prev) => void (s.sessions !== prev.sessions && updates++))
    // 64 agents' model calls end together: the host sends the row again at each.
    for (let i = 1; i <= 64; i++) receiveNotice({ type: 'session_updated', session: { ...summary('busy', 'running'), costUsd: i / 100, updatedAt: 10 + i } })
    receiveNotice({ type: 'session_updated', session: { ...summary('other', 'running'), updatedAt: 5 } })
    expect(useApp.getState().sessions.find((x) => x.sessionId === 'busy')).toBeUndefined()
    runFrame()
    off()
    expect(updates).toBe(2)
    expect(useApp.getState().sessions.find((x) => x.sessionId === 'busy')?.costUsd).toBe(0.64)
    expect(useApp.getState().sessions.find((x) => x.sessionId === 'other')?.status).toBe('running')
  })

  it('a row sent before its session was deleted does not bring it back; rows keep up in a hidden window', async () => {
    withFrames()
    await connected()
    receiveNotice({ type: 'session_updated', session: summary('gone', 'running') })
    runFrame()
    expect(useApp.getState().sessions.some((x) => x.sessionId === 'gone')).toBe(true)
    receiveNotice({ type: 'session_updated', session: { ...summary('gone'), updatedAt: 9 } })
    receiveNotice({ type: 'session_deleted', sessionId: 'gone' })
    runFrame()
    expect(useApp.getState().sessions.some((x) => x.sessionId === 'gone')).toBe(false)
    vi.useFakeTimers()
    try {
      receiveNotice({ type: 'session_updated', session: summary('hidden', 'running') })
      vi.advanceTimersByTime(150)
      expect(useApp.getState().sessions.some((x) => x.sessionId === 'hidden')).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  it('a replay that lands before the frame gets the waiting live events once, not twice', async () => {
    withFrames()
    const { f, opening } = await openingWhileLive()
    f.release()
    await opening
    runFrame()
    flushEvents()
    expect(useApp.getState().events.sessions.old.items.main.map((i) => ('text' in i ? i.text : ''))).toEqual(['hi', 'Hello'])
  })
})
