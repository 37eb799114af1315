// Coordinator phases and the team board in the reducer: which phase each agent belongs to, the phase strip,
// the team snapshot, team messages (and only team messages), and live batches agreeing with a replay.
import { describe, expect, it } from 'vitest'
import type { AgentEvent, EventBase } from '../../../shared/events'
import type { CoordinatorPhase, TeamSnapshot } from '../../../shared/team'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { groupByPhase, isBlocked, memberWork, phaseProgress, taskColumns } from './phase-selectors'
import { applyEvents } from '../../../shared/view/reducer'
import { emptyEventsState, type SessionState } from '../../../shared/view/session-state'
import { inboxPreview, parseInbox } from '../../../shared/view/inbox-message'
import { TEAM_MESSAGE_LIMIT } from '../../../shared/view/team-reducer'

const S = 'sess-t'

function setup() {
  const clock = manualClock()
  const main = agentEvents(S, 'main', clock)
  const sub = (id: string, toolUseId: string) => agentEvents(S, id, clock, { agentId: 'main', toolUseId })
  const base = (): EventBase => ({ agentId: 'main', parentAgentId: null, parentToolUseId: null, sessionId: S, ts: clock.now() })
  const phase = (p: CoordinatorPhase, note?: string): AgentEvent => {
    clock.advance(10)
    return { ...base(), type: 'phase', phase: p, ...(note ? { note } : {}) }
  }
  const team = (t: TeamSnapshot): AgentEvent => {
    clock.advance(10)
    return { ...base(), type: 'team', team: t }
  }
  return { clock, main, sub, phase, team }
}

const fold = (events: AgentEvent[]): SessionState => applyEvents(emptyEventsState(), events).sessions[S]

function crew(over: Partial<TeamSnapshot> = {}): TeamSnapshot {
  return {
    name: 'crew',
    description: 'docs',
    leadAgentId: 'main',
    members: [
      { name: 'ada', agentId: 'w1', agentType: 'general-purpose', status: 'working' },
      { name: 'bo', agentId: 'w2', agentType: 'general-purpose', status: 'idle' }
    ],
    tasks: [
      { id: '1', subject: 'schema', description: '', status: 'completed', owner: 'ada', blockedBy: [], createdBy: 'lead', createdAt: 1, updatedAt: 2 },
      { id: '2', subject: 'api', description: '', status: 'in_progress', owner: 'ada', blockedBy: ['1'], createdBy: 'lead', createdAt: 1, updatedAt: 3 },
      { id: '3', subject: 'docs', description: '', status: 'pending', blockedBy: ['2'], createdBy: 'lead', createdAt: 1, updatedAt: 1 }
    ],
    requests: [],
    status: 'active',
    createdAt: 1,
    ...over
  }
}

describe('coordinator phases', () => {
  it('puts each subagent in the phase in force when it (last) started, and shows the strip', () => {
    const t = setup()
    const [e1, e2, w, v] = [t.sub('e1', 'tu1'), t.sub('e2', 'tu2'), t.sub('w', 'tu3'), t.sub('v', 'tu4')]
    const events = [
      t.main.start({ agentType: 'coordinator' }),
      t.phase('research', 'map the code'),
      e1.start({ agentType: 'Explore' }),
      e2.start({ agentType: 'Explore' }),
      t.phase('implementation'),
      w.start({ name: 'worker' }),
      w.end('completed'),
      t.phase('verification'),
      v.start({ agentType: 'verifier' }),
      // The worker continued to fix what verification found: it now works in the verification phase.
      w.start({ name: 'worker' })
    ]
    const s = fold(events)
    expect(s.agents.main.phase).toBeUndefined()
    expect(groupByPhase(s, ['e1', 'e2', 'w', 'v'])).toEqual([
      { phase: 'research', ids: ['e1', 'e2'] },
      { phase: 'verification', ids: ['w', 'v'] }
    ])
    expect(phaseProgress(s)).toEqual([
      { phase: 'research', progress: 'done', note: 'map the code' },
      { phase: 'synthesis', progress: 'skipped' },
      { phase: 'implementation', progress: 'done' },
      { phase: 'verification', progress: 'current' }
    ])
    // Once nothing runs, the last phase is done, not still under way.
    expect(phaseProgress(s, { over: true }).map((p) => p.progress)).toEqual(['done', 'skipped', 'done', 'done'])
    // One event at a time (live) gives the same state as the whole replay.
    let live = emptyEventsState()
    for (const e of events) live = applyEvents(live, [e])
    expect(live.sessions[S].phases).toEqual(s.phases)
    expect(Object.values(live.sessions[S].agents).map((a) => [a.id, a.phase])).toEqual(Object.values(s.agents).map((a) => [a.id, a.phase]))
  })

  it('leaves sessions without phases ungrouped, and never mutates the input state', () => {
    const t = setup()
    const a = t.sub('a', 'tu')
    const before = applyEvents(emptyEventsState(), [t.main.start(), a.start()])
    const frozen = JSON.stringify(before)
    const after = applyEvents(before, [t.phase('research')])
    expect(JSON.stringify(before)).toBe(frozen)
    expect(groupByPhase(before.sessions[S], ['a'])).toEqual([{ phase: null, ids: ['a'] }])
    expect(after.sessions[S].phases).toHaveLength(1)
    expect(phaseProgress(before.sessions[S]).every((p) => p.progress === 'upcoming')).toBe(true)
  })
})

describe('team board', () => {
  it('keeps the latest team snapshot and derives columns, blocked tasks and each member’s work', () => {
    const t = setup()
    const s = fold([t.main.start(), t.team(crew({ tasks: [] })), t.team(crew())])
    const team = s.team!
    expect(team.members.map((m) => m.name)).toEqual(['ada', 'bo'])
    const cols = taskColumns(team)
    expect([cols.pending, cols.in_progress, cols.completed].map((c) => c.map((x) => x.id))).toEqual([['3'], ['2'], ['1']])
    expect(isBlocked(team, team.tasks[2])).toBe(true)
    expect(memberWork(team, 'ada')).toEqual({ current: team.tasks[1], completed: 1 })
    expect(memberWork(team, 'bo')).toEqual({ current: undefined, completed: 0 })
  })

  it('lists messages among the lead and members with their envelope removed, and nothing else', () => {
    const t = setup()
    const w1 = t.sub('w1', 'tu1')
    const w2 = t.sub('w2', 'tu2')
    const other = t.sub('x', 'tu3')
    const s = fold([
      t.main.start(),
      t.team(crew()),
      w1.start({ name: 'ada' }),
      w2.start({ name: 'bo' }),
      other.start(),
      w2.received('w1', '<agent-message from="ada" summary="schema ready">\nThe schema is in db/schema.sql.\n</agent-message>', 'schema ready'),
      t.main.received(
        'w2',
        '<task-notification>\n<task-id>w2</task-id>\n<status>completed</status>\n<summary>Agent "bo" completed</summary>\n<result>\nNo tasks left.\nmore\n</result>\n</task-notification>',
        'bo: completed'
      ),
      // Not team talk: the person writing to a member, a non-member writing to the lead.
      w1.received('user', 'hello'),
      t.main.received('x', 'report')
    ])
    expect(s.teamMessages.map((m) => [m.from, m.to, m.summary ?? null, m.text])).toEqual([
      ['ada', 'bo', 'schema ready', 'The schema is in db/schema.sql.'],
      ['bo', 'lead', null, 'Finished — No tasks left.']
    ])
    expect(new Set(s.teamMessages.map((m) => m.key)).size).toBe(2)
  })

  it(`keeps the newest ${TEAM_MESSAGE_LIMIT} messages with unique keys`, () => {
    const t = setup()
    const w1 = t.sub('w1', 'tu1')
    const many = Array.from({ length: TEAM_MESSAGE_LIMIT + 20 }, (_, i) => w1.received('main', `note ${i}`))
    const s = fold([t.main.start(), t.team(crew()), w1.start({ name: 'ada' }), ...many])
    expect(s.teamMessages).toHaveLength(TEAM_MESSAGE_LIMIT)
    expect(s.teamMessages[0].text).toBe('note 20')
    expect(s.teamMessages.at(-1)!.text).toBe(`note ${TEAM_MESSAGE_LIMIT + 19}`)
    expect(new Set(s.teamMessages.map((m) => m.key)).size).toBe(TEAM_MESSAGE_LIMIT)
  })

  it('shortens long messages and strips tags', () => {
    const preview = (text: string) => inboxPreview(parseInbox(text, 'w1'))
    expect(
      preview(
        '<agent-message from="ada" summary="plan">\n<team-request id="plan-1" type="plan_approval" from="ada">\n1. do it\n</team-request>\nRead the plan and answer with RespondToRequest.\n</agent-message>'
      )
    ).toBe('Plan for approval: 1. do it')
    expect(preview('x'.repeat(400))).toHaveLength(280)
  })
})
