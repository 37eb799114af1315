import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { transcriptLines } from '../../../shared/testing/transcript-lines'
import { expireWaitingRequests } from '../../../shared/view/permission-reducer'
import { applyEvents } from '../../../shared/view/reducer'
import { agentCounts, countAgents } from './agent-counts'
import { pendingLike, pendingPermissions, subtreeUsage, timelineRows, treeOrder } from './selectors'
import { emptyEventsState, type EventsState, type SessionState } from '../../../shared/view/session-state'

const S = 'sess-1'

function setup() {
  const clock = manualClock()
  const main = agentEvents(S, 'main', clock)
  const sub = (id: string, toolUseId: string, parent = 'main') => agentEvents(S, id, clock, { agentId: parent, toolUseId })
  let state: EventsState = emptyEventsState()
  const apply = (...events: AgentEvent[]) => {
    state = applyEvents(state, events)
    return session()
  }
  const session = (): SessionState => state.sessions[S]
  return {
    clock,
    main,
    sub,
    apply,
    session,
    get state() {
      return state
    }
  }
}

const transcript = transcriptLines

describe('applyEvents: agents and tree', () => {
  it('builds the agent tree from agent_start events, any depth, with the main agent as root', () => {
    const t = setup()
    const a = t.sub('a', 'tu-a')
    const b = t.sub('b', 'tu-b')
    const a1 = t.sub('a1', 'tu-a1', 'a')
    const s = t.apply(
      t.main.start({ description: 'Refactor the parser' }),
      t.main.toolStart('tu-a', 'Agent'),
      t.main.toolStart('tu-b', 'Agent'),
      a.start({ agentType: 'Explore', description: 'Find callers', depth: 1, color: 'blue', maxTurns: 20 }),
      b.start({ agentType: 'code-reviewer', description: 'Review', depth: 1 }),
      a1.start({ agentType: 'general-purpose', description: 'Nested', depth: 2 })
    )
    expect(s.rootAgentId).toBe('main')
    expect(s.agents.main.children).toEqual(['a', 'b'])
    expect(s.agents.a.children).toEqual(['a1'])
    expect(treeOrder(s)).toEqual([
      { id: 'main', depth: 0 },
      { id: 'a', depth: 1 },
      { id: 'a1', depth: 2 },
      { id: 'b', depth: 1 }
    ])
    expect(s.tools['tu-a'].childAgentId).toBe('a')
    expect(s.agents.a).toMatchObject({ agentType: 'Explore', color: 'blue', maxTurns: 20, status: 'running', parentToolUseId: 'tu-a' })
  })

  it('links an Agent call to a child that was recorded before the call (replay order)', () => {
    const t = setup()
    const a = t.sub('a', 'tu-a')
    const s = t.apply(t.main.start(), a.start(), t.main.toolRun('tu-a', 'Agent', { description: 'x' }))
    expect(s.tools['tu-a'].childAgentId).toBe('a')
  })

  it('shows an agent whose start was not recorded instead of dropping its events', () => {
    const t = setup()
    const ghost = agentEvents(S, 'ghost', t.clock)
    const s = t.apply(ghost.text('hello'))
    expect(s.agents.ghost).toMatchObject({ unknown: true, status: 'running' })
    expect(transcript(s, 'ghost')).toEqual(['text~:hello'])
  })

  it('never mutates the state it was given', () => {
    const t = setup()
    t.apply(t.main.start(), t.main.text('Hel'))
    const before = t.state
    const snapshot = JSON.stringify(before)
    t.apply(t.main.text('lo'), t.main.toolStart('tu1', 'Read'), t.main.usage({ outputTokens: 5, costUsd: 0.01 }))
    expect(JSON.stringify(before)).toBe(snapshot)
    expect(t.state).not.toBe(before)
  })

  it('keeps other sessions untouched (same object)', () => {
    const t = setup()
    t.apply(t.main.start())
    const other = agentEvents('sess-2', 'm2', t.clock)
    const before = t.state.sessions[S]
    t.apply(other.start(), other.text('x'))
    expect(t.state.sessions[S]).toBe(before)
    expect(Object.keys(t.state.sessions).sort()).toEqual([S, 'sess-2'])
  })
})

describe('applyEvents: statuses and turns', () => {
  it('follows status changes and records waits for the timeline', () => {
    const t = setup()
    const a = t.sub('a', 'tu-a')
    t.apply(t.main.start(), a.start(), a.status('queued'))
    t.clock.advance(1000)
    let s = t.apply(a.status('running'), a.turnStart(1), a.turnStart(2))
    expect(s.agents.a.status).toBe('running')
    expect(s.agents.a.turn).toBe(2)
    expect(s.agents.a.waits).toEqual([{ kind: 'queued', start: s.agents.a.startedAt, end: s.agents.a.startedAt + 1000 }])
    t.clock.advance(500)
    s = t.apply(a.end('completed', { numTurns: 3, toolUses: 4, result: 'Found 3 callers' }))
    expect(s.agents.a).toMatchObject({ status: 'completed', turn: 3, toolUses: 4, result: 'Found 3 callers', endedAt: s.agents.a.startedAt + 1500 })
  })

  it.each(['completed', 'failed', 'stopped', 'max_turns', 'interrupted'] as const)(
    'an agent ending as %s is no longer active and cancels its running tools',
    (status) => {
      const t = setup()
      const s = t.apply(
        t.main.start(),
        t.main.toolRun('tu1', 'Bash', { command: 'sleep 100' }),
        t.main.end(status, { error: status === 'failed' ? 'API overloaded' : undefined })
      )
      expect(s.agents.main.status).toBe(status)
      expect(s.tools.tu1.status).toBe('cancelled')
      expect(s.agents.main.currentToolId).toBeNull()
      expect(countAgents(s, ['main']).active).toBe(0)
    }
  )

  it('counts the agents a crash cut off apart, as neither running nor done, until they run again', () => {
    const t = setup()
    const a = t.sub('a', 'tu-a')
    t.apply(t.main.start(), t.main.toolRun('tu-a', 'Agent', {}), a.start(), a.end('interrupted'), t.main.end('interrupted'))
    const counts = countAgents(t.session(), ['main', 'a'])
    expect(counts).toMatchObject({ total: 2, active: 0, done: 0, failed: 0, interrupted: 2 })
    const s = t.apply(a.start())
    expect(countAgents(s, ['main', 'a'])).toMatchObject({ active: 1, interrupted: 1 })
  })

  it('a resumed agent (follow-up prompt) runs again and keeps its transcript', () => {
    const t = setup()
    t.apply(t.main.start({ prompt: 'first' }), t.main.user('first'), t.main.assistant('done 1'), t.main.end('completed'))
    const s = t.apply(t.main.start({ prompt: 'second' }), t.main.user('second'), t.main.text('working'))
    expect(s.agents.main).toMatchObject({ status: 'running', runs: 2, endedAt: null })
    expect(transcript(s, 'main')).toEqual(['user:first', 'text:done 1', 'user:second', 'text~:working'])
  })
})

describe('applyEvents: streaming text and messages', () => {
  it('streams text deltas into one item, then the final message settles it without duplicating', () => {
    const t = setup()
    t.apply(t.main.start(), t.main.turnStart(1), t.main.user('Fix the bug'))
    let s = t.apply(t.main.thinking('Let me '), t.main.thinking('look.'), t.main.text('I will '), t.main.text('read the file.'))
    expect(transcript(s, 'main')).toEqual(['user:Fix the bug', 'thinking~:Let me look.', 'text~:I will read the file.'])
    const keys = s.items.main.map((i) => i.key)
    s = t.apply(
      t.main.assistant([
        { type: 'thinking', thinking: 'Let me look.', signature: 'sig' },
        { type: 'text', text: 'I will read the file.' }
      ])
    )
    expect(transcript(s, 'main')).toEqual(['user:Fix the bug', 'thinking:Let me look.', 'text:I will read the file.'])
    expect(s.items.main.map((i) => i.key)).toEqual(keys) // same rows: no remount, no scroll jump
  })

  it('leaves the agent, its siblings and the counts as they were while a delta extends its text', () => {
    const t = setup()
    const a = t.sub('a', 'tu-a')
    t.apply(t.main.start(), t.main.toolStart('tu-a', 'Agent'), a.start({ depth: 1 }), a.turnStart(1), a.text('The parser '))
    const before = t.session()
    const s = t.apply(a.text('reads '), a.text('tokens.'))
    expect(transcript(s, 'a')).toEqual(['text~:The parser reads tokens.'])
    // Views of an agent (panel header, card, tree) select the agent object: a delta must not replace it.
    expect(s.agents).toBe(before.agents)
    expect(agentCounts(s)).toBe(agentCounts(before))
  })

  it('builds the transcript from messages alone (a replay without deltas)', () => {
    const t = setup()
    const s = t.apply(
      t.main.start(),
      t.main.user('Fix it'),
      t.main.assistant([
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'tu1', name: 'Read', input: { file_path: '/a.ts' } }
      ]),
      t.main.user([{ type: 'tool_result', tool_use_id: 'tu1', content: 'const a = 1' }]),
      t.main.assistant('Done.')
    )
    expect(transcript(s, 'main')).toEqual(['user:Fix it', 'text:Reading.', 'tool:Read:done', 'text:Done.'])
    expect(s.tools.tu1).toMatchObject({ input: { file_path: '/a.ts' }, output: 'const a = 1' })
  })

  it('hides system reminders and keeps the inbox text of user messages', () => {
    const t = setup()
    const s = t.apply(
      t.main.start(),
      t.main.user([
        { type: 'text', text: 'Go' },
        { type: 'text', text: '<system-reminder>\nbe brief\n</system-reminder>' }
      ])
    )
    expect(transcript(s, 'main')).toEqual(['user:Go'])
  })

  it('drops the deltas of a failed attempt when the model call is retried', () => {
    const t = setup()
    t.apply(t.main.start(), t.main.user('Go'), t.main.text('Half an ans'), t.main.toolStart('tu-x', 'Read'))
    let s = t.apply(t.main.error('Overloaded. Retrying in 2 s (attempt 2 of 5).', true))
    expect(transcript(s, 'main')).toEqual(['user:Go', 'error(retrying):Overloaded. Retrying in 2 s (attempt 2 of 5).'])
    expect(s.tools['tu-x']).toBeUndefined()
    expect(s.toolCount).toBe(0)
    s = t.apply(t.main.error('Overloaded. Retrying in 4 s (attempt 3 of 5).', true), t.main.text('Full answer'))
    expect(transcript(s, 'main')).toEqual(['user:Go', 'error(retrying):Overloaded. Retrying in 4 s (attempt 3 of 5).', 'text~:Full answer'])
  })

  it('drops the retry notice once the call it was about succeeds', () => {
    const t = setup()
    t.apply(t.main.start(), t.main.user('Go'), t.main.error('Overloaded. Retrying in 2 s (attempt 2 of 9).', true), t.main.text('Full '))
    // Still streaming: the call may yet fail again.
    expect(transcript(t.session(), 'main')).toEqual(['user:Go', 'error(retrying):Overloaded. Retrying in 2 s (attempt 2 of 9).', 'text~:Full '])
    const s = t.apply(t.main.text('answer'), t.main.usage({ outputTokens: 5 }), t.main.end('completed', { result: 'Full answer' }))
    expect(transcript(s, 'main')).toEqual(['user:Go', 'text:Full answer'])
    // The agent streams on normally afterwards (its stream start moved with the removed notice).
    const next = t.apply(t.main.start(), t.main.user('More'), t.main.text('Again'))
    expect(transcript(next, 'main')).toEqual(['user:Go', 'text:Full answer', 'user:More', 'text~:Again'])
  })

  it('replaces the retry notice by the final failure, once', () => {
    const t = setup()
    const s = t.apply(
      t.main.start(),
      t.main.user('Go'),
      t.main.error('Overloaded. Retrying in 2 s (attempt 2 of 9).', true),
      t.main.error('Overloaded. Retrying in 4 s (attempt 3 of 9).', true),
      t.main.error('Overloaded (gave up after 9 attempts)'),
      t.main.end('failed', { error: 'Overloaded (gave up after 9 attempts)' })
    )
    expect(transcript(s, 'main')).toEqual(['user:Go', 'error:Overloaded (gave up after 9 attempts)'])
  })

  it('drops a retry notice when the agent ends while waiting to retry', () => {
    const t = setup()
    const stopped = t.apply(t.main.start(), t.main.user('Go'), t.main.error('Overloaded. Retrying in 8 s (attempt 4 of 9).', true), t.main.end('stopped'))
    expect(transcript(stopped, 'main')).toEqual(['user:Go'])
    const u = setup()
    const failed = u.apply(
      u.main.start(),
      u.main.user('Go'),
      u.main.error('Overloaded. Retrying in 8 s (attempt 4 of 9).', true),
      u.main.end('failed', { error: 'Budget reached' })
    )
    expect(transcript(failed, 'main')).toEqual(['user:Go', 'error:Budget reached'])
  })

  it('shows a fatal error where it happened and keeps it on the agent', () => {
    const t = setup()
    const s = t.apply(t.main.start(), t.main.error('Invalid API key'), t.main.end('failed', { error: 'Invalid API key' }))
    expect(transcript(s, 'main')).toEqual(['error:Invalid API key'])
    expect(s.agents.main.error).toBe('Invalid API key')
  })

  it('settles streaming text when an agent is stopped mid-stream', () => {
    const t = setup()
    const s = t.apply(t.main.start(), t.main.user('Go'), t.main.text('partial'), t.main.end('stopped'))
    expect(transcript(s, 'main')).toEqual(['user:Go', 'text:partial'])
  })
})

describe('applyEvents: tools', () => {
  it('tracks a tool from streamed input to its result with its duration', () => {
    const t = setup()
    t.apply(t.main.start(), t.main.toolStart('tu1', 'Grep'), t.main.toolInput('tu1', '{"pattern":'), t.main.toolInput('tu1', '"TODO"}'))
    let s = t.session()
    expect(s.tools.tu1).toMatchObject({ status: 'streaming', inputJson: '{"pattern":"TODO"}' })
    s = t.apply(t.main.assistant([{ type: 'tool_use', id: 'tu1', name: 'Grep', input: { pattern: 'TODO' } }]))
    expect(s.tools.tu1.status).toBe('pending')
    s = t.apply(t.main.toolRun('tu1', 'Grep', { pattern: 'TODO' }))
    expect(s.tools.tu1.status).toBe('running')
    expect(s.agents.main.currentToolId).toBe('tu1')
    t.clock.advance(250)
    s = t.apply(t.main.toolUpdate('tu1', { matches: 3 }), t.main.toolEnd('tu1', 'Grep', '3 matches', { durationMs: 250 }))
    expect(s.tools.tu1).toMatchObject({ status: 'done', output: '3 matches', durationMs: 250, progress: { matches: 3 } })
    expect(s.agents.main.currentToolId).toBeNull()
    expect(transcript(s, 'main')).toEqual(['tool:Grep:done'])
    expect(s.toolCount).toBe(1) // counted once, however many events touched it
  })

  it('marks failing tools as errors and keeps the current tool on the one still running', () => {
    const t = setup()
    const s = t.apply(
      t.main.start(),
      t.main.toolRun('t1', 'Read', {}),
      t.main.toolRun('t2', 'Glob', {}),
      t.main.toolEnd('t2', 'Glob', 'no such dir', { isError: true, durationMs: 3 })
    )
    expect(s.tools.t2.status).toBe('error')
    expect(s.agents.main.currentToolId).toBe('t1')
  })

  it('takes the subagent id from an Agent call result when the child was not linked', () => {
    const t = setup()
    const s = t.apply(
      t.main.start(),
      t.main.toolRun('tu-bg', 'Agent', {}),
      t.main.toolEnd('tu-bg', 'Agent', 'Launched in background', { details: { agentId: 'bg-1' } })
    )
    expect(s.tools['tu-bg'].childAgentId).toBe('bg-1')
  })
})

describe('applyEvents: usage and cost', () => {
  it('adds usage per agent and per session, rolls up subtrees, and trusts agent_end totals', () => {
    const t = setup()
    const a = t.sub('a', 'tu-a')
    const a1 = t.sub('a1', 'tu-a1', 'a')
    let s = t.apply(
      t.main.start(),
      a.start(),
      a1.start(),
      t.main.usage({ inputTokens: 100, outputTokens: 10, costUsd: 0.01 }),
      a.usage({ inputTokens: 200, outputTokens: 20, costUsd: 0.02 }),
      a.usage({ inputTokens: 50, outputTokens: 5, costUsd: 0.005 }),
      a1.usage({ inputTokens: 10, outputTokens: 1, costUsd: 0.001 })
    )
    expect(s.agents.a.usage).toMatchObject({ inputTokens: 250, outputTokens: 25 })
    expect(s.agents.a.usage.costUsd).toBeCloseTo(0.025)
    expect(subtreeUsage(s, 'a').inputTokens).toBe(260)
    expect(subtreeUsage(s, 'main').costUsd).toBeCloseTo(0.036)
    expect(s.usage.costUsd).toBeCloseTo(0.036)
    // The end event's total wins (a usage event was missed); the session total follows.
    s = t.apply(a.end('completed', { usage: { inputTokens: 300, outputTokens: 30, costUsd: 0.03 } }))
    expect(s.agents.a.usage.inputTokens).toBe(300)
    expect(s.usage.costUsd).toBeCloseTo(0.041)
  })

  it('counts a resumed run on top of the earlier runs', () => {
    const t = setup()
    t.apply(t.main.start(), t.main.usage({ costUsd: 0.1 }), t.main.end('completed', { usage: { costUsd: 0.1 } }))
    const s = t.apply(t.main.start(), t.main.usage({ costUsd: 0.05 }), t.main.end('completed', { usage: { costUsd: 0.05 } }))
    expect(s.agents.main.usage.costUsd).toBeCloseTo(0.15)
    expect(s.usage.costUsd).toBeCloseTo(0.15)
  })
})

describe('applyEvents: permissions', () => {
  it('keeps the rule "Always allow" adds, and finds the waiting requests the same rule covers', () => {
    const t = setup()
    const a = t.sub('a', 'tu-a')
    const b = t.sub('b', 'tu-b')
    const npm = { suggestedRules: ['Bash(npm test:*)'] }
    t.apply(t.main.start(), a.start(), b.start())
    const s = t.apply(
      a.permissionRequest('r1', 'Bash', { command: 'npm test' }, npm),
      b.permissionRequest('r2', 'Bash', { command: 'npm test -- --watch' }, npm),
      b.permissionRequest('r3', 'Bash', { command: 'rm -f x' }, { suggestedRules: ['Bash(rm -f x)'] }),
      t.main.permissionRequest('r4', 'Bash', { command: 'npm test' })
    )
    expect(s.permissions.r1.suggestedRules).toEqual(['Bash(npm test:*)'])
    expect(s.permissions.r4.suggestedRules).toEqual([])
    expect(pendingLike(t.state, s.permissions.r1).map((p) => p.requestId)).toEqual(['r1', 'r2'])
    expect(pendingLike(t.state, s.permissions.r3).map((p) => p.requestId)).toEqual(['r3'])
    expect(pendingLike(t.state, s.permissions.r4)).toEqual([])
    const after = t.apply(t.main.permissionResponse('r2', 'allow'))
    expect(pendingLike(t.state, after.permissions.r1).map((p) => p.requestId)).toEqual(['r1'])
  })

  it('queues requests from any agent (bubbled too), marks the requester waiting, and clears on response', () => {
    const t = setup()
    const a = t.sub('a', 'tu-a')
    const b = t.sub('b', 'tu-b')
    t.apply(t.main.start(), a.start(), b.start(), a.toolStart('tu-bash', 'Bash'))
    let s = t.apply(
      t.main.permissionRequest('r1', 'Bash', { command: 'rm -rf build' }, { requestingAgentId: 'a', toolUseId: 'tu-bash' }),
      b.permissionRequest('r2', 'Write', { file_path: '/x' })
    )
    expect(s.permissionQueue).toEqual(['r1', 'r2'])
    expect(s.agents.a.status).toBe('waiting_permission')
    expect(s.agents.b.status).toBe('waiting_permission')
    expect(s.tools['tu-bash'].permissionRequestId).toBe('r1')
    expect(pendingPermissions(t.state).map((p) => p.requestId)).toEqual(['r1', 'r2'])
    expect(countAgents(s).waiting).toBe(2)

    t.clock.advance(3000)
    s = t.apply(t.main.permissionResponse('r1', 'allow'))
    expect(s.permissionQueue).toEqual(['r2'])
    expect(s.permissions.r1).toMatchObject({ decision: 'allow' })
    expect(s.agents.a.status).toBe('running')
    expect(s.agents.a.waits).toEqual([{ kind: 'permission', start: expect.any(Number), end: expect.any(Number) }])
    expect(s.agents.a.waits[0].end! - s.agents.a.waits[0].start).toBe(3000)
    expect(s.tools['tu-bash'].permissionRequestId).toBeUndefined()

    s = t.apply(b.permissionResponse('r2', 'deny'))
    expect(s.permissionQueue).toEqual([])
    expect(transcript(s, 'b')).toContain('notice:Denied Write')
  })

  it('drops the requests of an agent that ended before anyone answered', () => {
    const t = setup()
    const a = t.sub('a', 'tu-a')
    const s = t.apply(t.main.start(), a.start(), a.permissionRequest('r1', 'Bash', {}), a.end('stopped'))
    expect(s.permissionQueue).toEqual([])
    expect(s.permissions.r1.decision).toBe('expired')
  })

  it('expires requests left waiting in a session that is no longer running (replayed after a restart)', () => {
    const t = setup()
    const a = t.sub('a', 'tu-a')
    t.apply(t.main.start(), a.start(), a.permissionRequest('r1', 'Bash', {}))
    const s = expireWaitingRequests(t.state, S, t.clock.now()).sessions[S]
    expect(s.permissionQueue).toEqual([])
    expect(s.permissions.r1.decision).toBe('expired')
    expect(s.agents.a.status).toBe('running')
    expect(t.session().permissionQueue).toEqual(['r1']) // the input state is untouched
  })

  it('ignores a duplicate request and a response to an unknown request', () => {
    const t = setup()
    const s = t.apply(
      t.main.start(),
      t.main.permissionRequest('r1', 'Bash', {}),
      t.main.permissionRequest('r1', 'Bash', {}),
      t.main.permissionResponse('nope', 'allow')
    )
    expect(s.permissionQueue).toEqual(['r1'])
  })
})

describe('applyEvents: messages between agents and timeline', () => {
  it('shows a message received in the agent transcript, under its sender', () => {
    const t = setup()
    const r = t.sub('reviewer', 'tu-r')
    const s = t.apply(
      t.main.start(),
      r.start({ agentType: 'code-reviewer' }),
      t.main.received('reviewer', '<agent-message from="reviewer" summary="check tests">\nPlease also check tests\n</agent-message>', 'check tests')
    )
    expect(transcript(s, 'main')).toEqual(['message:code-reviewer:Please also check tests'])
  })

  it('lays out lifetimes, tool calls and waits on one time axis', () => {
    const t = setup()
    const a = t.sub('a', 'tu-a')
    const t0 = t.clock.now()
    t.apply(t.main.start(), t.main.toolRun('tu-a', 'Agent', {}))
    t.clock.advance(100)
    t.apply(a.start(), a.status('queued'))
    t.clock.advance(400)
    t.apply(a.status('running'), a.toolRun('g1', 'Grep', {}))
    t.clock.advance(200)
    t.apply(a.toolEnd('g1', 'Grep', 'ok', { durationMs: 200 }), a.end('completed'))
    t.clock.advance(50)
    const s = t.apply(t.main.toolEnd('tu-a', 'Agent', 'result', { durationMs: 750 }), t.main.end('completed'))
    const tl = timelineRows(s)
    expect(tl.start).toBe(t0)
    expect(tl.end).toBe(t0 + 750)
    expect(tl.rows.map((r) => [r.id, r.depth, r.start - t0, r.end! - t0])).toEqual([
      ['main', 0, 0, 750],
      ['a', 1, 100, 700]
    ])
    expect(tl.rows[1].waits).toEqual([{ kind: 'queued', start: t0 + 100, end: t0 + 500 }])
    expect(tl.rows[1].tools).toEqual([{ id: 'g1', name: 'Grep', start: t0 + 500, end: t0 + 700, status: 'done' }])
    // The Agent call is drawn as its child's row, not as a mark on the parent's bar.
    expect(tl.rows[0].tools).toEqual([])
  })
})

describe('applyEvents: scale', () => {
  it('folds a 100,000-event transcript', () => {
    const t = setup()
    const events: AgentEvent[] = [t.main.start()]
    for (let turn = 1; events.length < 100_000; turn++) {
      events.push(t.main.turnStart(turn), t.main.user(`step ${turn}`))
      for (let i = 0; i < 20; i++) events.push(t.main.text(`word${i} `))
      events.push(
        t.main.toolRun(`tu${turn}`, 'Read', { file_path: `/f${turn}` }),
        t.main.toolEnd(`tu${turn}`, 'Read', 'x', { durationMs: 1 }),
        t.main.turnEnd(turn)
      )
    }
    const s = applyEvents(emptyEventsState(), events).sessions[S]
    expect(s.eventCount).toBe(events.length)
    expect(s.items.main.length).toBeGreaterThan(10_000)
  })
})
