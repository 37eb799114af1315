// Agent teams through a session, with the real SDK against the scripted server: members defined by agent
// files race over a shared task list, requests travel as messages, one team per session and no nesting.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, TeamEvent, ToolEndEvent } from '../../../../shared/events'
import { reply, scriptByAgent, type ParsedRequest, type Turn } from '../../model/scripted'
import { sessionDir } from '../../store'
import { closeFixtures, ends, makeFixture, starts } from '../testing/session-fixture'
import { TeamBoard } from './team-board'
import { scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const WORKER = `---
name: careful-worker
description: Does one task at a time
tools: Read, Glob
model: haiku
color: green
---
You are a careful worker. Never guess.`

const teamEvents = (events: AgentEvent[]) => events.filter((e): e is TeamEvent => e.type === 'team')
const lastTeam = (events: AgentEvent[]) => teamEvents(events).at(-1)!.team
const toolEnds = (events: AgentEvent[], name: string) => events.filter((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === name)

/** The tool the agent called in its previous turn, if any. */
function previousCall(req: ParsedRequest): string | undefined {
  const last = [...req.messages].reverse().find((m) => m.role === 'assistant')
  const uses = Array.isArray(last?.content) ? last.content.filter((b: { type: string }) => b.type === 'tool_use') : []
  return uses.at(-1)?.name
}

const many = (turn: Turn, n = 80): Turn[] => Array.from({ length: n }, () => turn)

describe('agent teams', () => {
  it('members from an agent definition race over 24 tasks: each is claimed and completed once, and the team board follows live', async () => {
    const workerTurn: Turn = (req) => {
      const prev = previousCall(req)
      const out = req.toolResults[0]
      const claimed = prev === 'TaskClaim' ? /You claimed task (\d+)/.exec(out.content) : null
      if (claimed) return reply.toolUse('TaskUpdate', { taskId: claimed[1], status: 'completed', result: 'done' })
      // Nothing left to take is an answer, not a failed call.
      if (prev === 'TaskClaim') return out.isError ? reply.text(`claim failed: ${out.content}`) : reply.text(`No tasks left: ${out.content}`)
      return reply.toolUse('TaskClaim', {})
    }
    const f = await makeFixture(
      [
        { name: 'worker', match: 'You are a careful worker', turns: many(workerTurn) },
        scriptedAgent('lead', 'lead agent in Fanout', [
          reply.toolUse('TeamCreate', {
            team_name: 'crew',
            description: 'clears the backlog',
            members: Array.from({ length: 6 }, (_, i) => ({ name: `w${i}`, agent_type: 'careful-worker', prompt: 'Clear the backlog.' })),
            tasks: Array.from({ length: 24 }, (_, i) => ({ subject: `item ${i + 1}` }))
          }),
          ...many(reply.text('Noted.'))
        ])
      ],
      { teams: true, files: { '.claude/agents/careful-worker.md': WORKER } }
    )
    await f.session.run('Clear the backlog with a team.')
    await f.session.idle()
    await f.session.flush()

    const team = lastTeam(f.events)
    expect(team.tasks).toHaveLength(24)
    expect(team.tasks.every((t) => t.status === 'completed' && t.owner && t.result === 'done')).toBe(true)
    // Each task completed exactly once, by the member that claimed it; several members did work.
    const completions = toolEnds(f.events, 'TaskUpdate').filter((e) => !e.isError)
    const completedIds = completions.map((e) => (e.details as { task: { id: string } }).task.id)
    expect(completedIds.sort()).toEqual(team.tasks.map((t) => t.id).sort())
    const byAgent = new Map(starts(f.events).map((s) => [s.agentId, s.name]))
    for (const c of completions) expect(team.tasks.find((t) => t.id === (c.details as { task: { id: string } }).task.id)!.owner).toBe(byAgent.get(c.agentId))
    expect(new Set(team.tasks.map((t) => t.owner)).size).toBeGreaterThan(1)
    expect(team.members.map((m) => [m.name, m.agentType, m.status])).toEqual(Array.from({ length: 6 }, (_, i) => [`w${i}`, 'careful-worker', 'idle']))

    // Members ran as their definition: its model and tools plus the member tools, its body after the team prompt.
    const req = f.model.server.requests.find((r) => r.system.includes('You are a careful worker'))!
    expect(req.model).toMatch(/haiku/)
    expect([...req.toolNames].sort()).toEqual([
      'Glob',
      'Read',
      'RequestPlanApproval',
      'RespondToRequest',
      'SendMessage',
      'TaskClaim',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate'
    ])
    expect(req.system.indexOf('a member of the agent team "crew"')).toBeLessThan(req.system.indexOf('You are a careful worker'))
    const memberStart = starts(f.events).find((s) => s.name === 'w0')!
    expect(memberStart).toMatchObject({ parentAgentId: f.session.mainAgentId, agentType: 'careful-worker', color: 'green', depth: 1 })

    // The lead heard from every member as it went idle.
    const notes = f.events.filter((e) => e.type === 'message_received' && e.agentId === f.session.mainAgentId)
    expect(new Set(notes.map((n) => (n as { from: string }).from)).size).toBe(6)

    // The team's board is durable: a fresh reader of the session's team log sees the same team.
    const file = join(sessionDir(f.dataDir, f.session.sessionId), 'team', 'log.jsonl')
    const board = new TeamBoard(file)
    await board.refresh()
    expect(board.snapshot()).toEqual(team)
    expect(teamEvents(f.events).length).toBeGreaterThan(24)
    const memberIds = new Set(team.members.map((m) => m.agentId))
    const finals = ends(f.events).filter((e) => memberIds.has(e.agentId))
    expect(finals.length).toBeGreaterThanOrEqual(6)
    expect(finals.every((e) => e.result.startsWith('No tasks left: No task is available'))).toBe(true)
  })

  it('one team per session, and a member cannot create one (no nested teams)', async () => {
    const f = await makeFixture(
      [
        {
          name: 'nester',
          match: 'Try to nest',
          turns: [
            reply.toolUse('TeamCreate', { team_name: 'inner', members: [{ name: 'x', prompt: 'hi' }] }),
            (req) => reply.text(`refused: ${req.toolResults[0].content}`)
          ]
        },
        scriptedAgent('lead', 'lead agent in Fanout', [
          reply.toolUse('TeamCreate', {
            team_name: 'bad',
            members: [
              { name: 'lead', prompt: 'x' },
              { name: 'y', agent_type: 'no-such', prompt: 'x' }
            ]
          }),
          reply.toolUse('TeamCreate', { team_name: 'outer', members: [{ name: 'nester', prompt: 'Try to nest a team.' }] }),
          reply.toolUse('TeamCreate', { team_name: 'second', members: [{ name: 'other', prompt: 'hello' }] }),
          ...many(reply.text('ok'))
        ])
      ],
      { teams: true }
    )
    await f.session.run('go')
    await f.session.idle()
    const creates = toolEnds(f.events, 'TeamCreate')
    // The lead's own calls, in order (the member's attempt runs alongside them).
    const leads = creates.filter((c) => c.agentId === f.session.mainAgentId)
    // A bad member list creates nothing and names every problem.
    expect(leads[0]).toMatchObject({ isError: true })
    expect(leads[0].output).toMatch(/Member name 'lead' is reserved[\s\S]*Member y: there is no agent type 'no-such'/)
    expect(leads[1].isError).toBe(false)
    expect(leads[2]).toMatchObject({ isError: true, output: expect.stringContaining("already has a team, 'outer'") })
    const nested = creates.find((c) => c.agentId !== f.session.mainAgentId)!
    expect(nested).toMatchObject({ isError: true, output: expect.stringContaining('No tool named "TeamCreate"') })
    expect(
      starts(f.events)
        .filter((s) => s.depth > 0)
        .map((s) => s.name)
    ).toEqual(['nester'])
  })

  it('members message each other by name: an idle member wakes with the message and answers', async () => {
    const f = await makeFixture(
      [
        {
          name: 'ping',
          match: 'You are ping, a member',
          turns: [
            reply.toolUse('SendMessage', { to: 'pong', message: 'The schema is ready.', summary: 'schema ready' }),
            reply.text('Told pong.'),
            ...many(reply.text('ok'))
          ]
        },
        {
          name: 'pong',
          match: 'You are pong, a member',
          turns: many((req) => reply.text(req.lastUserText.includes('The schema is ready.') ? 'Got the schema news from ping.' : 'Waiting for the schema.'))
        },
        {
          name: 'lead',
          match: 'lead agent in Fanout',
          turns: [
            reply.toolUse('TeamCreate', {
              team_name: 'pair',
              members: [
                { name: 'ping', prompt: 'Tell pong.' },
                { name: 'pong', prompt: 'Wait for ping.' }
              ]
            }),
            ...many(reply.text('ok'))
          ]
        }
      ],
      { teams: true }
    )
    await f.session.run('go')
    await f.session.idle()
    const team = lastTeam(f.events)
    const [ping, pong] = team.members
    const received = f.events.find((e) => e.type === 'message_received' && e.agentId === pong.agentId)
    expect(received).toMatchObject({ from: ping.agentId, summary: 'schema ready' })
    const pongEnds = ends(f.events).filter((e) => e.agentId === pong.agentId)
    expect(pongEnds.map((e) => e.result)).toContain('Got the schema news from ping.')
    expect(toolEnds(f.events, 'SendMessage')[0]).toMatchObject({ agentId: ping.agentId, isError: false })
  })

  it('plan approval and shutdown travel as messages; the member acts only on an approved plan, then the team is deleted', async () => {
    const answered = new Set<string>()
    const lead: Turn = (req) => {
      if (req.turn === 0) return reply.toolUse('TeamCreate', { team_name: 'docs', members: [{ name: 'bee', prompt: 'Write the two notes files.' }] })
      const plan = /<team-request id="(plan-[0-9a-f]+)" type="plan_approval"/.exec(req.lastUserText)
      if (plan && !answered.has(plan[1])) {
        answered.add(plan[1])
        const first = answered.size === 1
        return reply.toolUse('RespondToRequest', { request_id: plan[1], approve: !first, ...(first ? { response: 'Also write b.txt.' } : {}) })
      }
      if (/<summary>[^<]*completed/.test(req.lastUserText) && /files written/.test(req.lastUserText))
        return reply.toolUse('RequestShutdown', { to: 'bee', reason: 'Thanks, all done.' })
      if (/<summary>[^<]*completed/.test(req.lastUserText) && /bye/.test(req.lastUserText)) return reply.toolUse('TeamDelete', {})
      if (previousCall(req) === 'TeamDelete') return reply.text(`Closed: ${req.toolResults[0].content}`)
      return reply.text('Waiting.')
    }
    const bee: Turn = (req) => {
      const prev = previousCall(req)
      if (req.turn === 0) return reply.toolUse('RequestPlanApproval', { plan: '1. write a.txt' })
      if (/type="plan_approval" approved="false"/.test(req.lastUserText))
        return reply.toolUse('RequestPlanApproval', { plan: '1. write a.txt\n2. write b.txt' })
      if (/type="plan_approval" approved="true"/.test(req.lastUserText))
        return reply.toolUses([
          { name: 'Write', input: { file_path: 'a.txt', content: 'a\n' } },
          { name: 'Write', input: { file_path: 'b.txt', content: 'b\n' } }
        ])
      const shutdown = /<team-request id="(shutdown-[0-9a-f]+)" type="shutdown"/.exec(req.lastUserText)
      if (shutdown) return reply.toolUse('RespondToRequest', { request_id: shutdown[1], approve: true })
      if (prev === 'RespondToRequest') return reply.text('Shutting down, bye.')
      if (prev === 'Write') return reply.text('Both files written.')
      return reply.text('Waiting for the lead to approve my plan.')
    }
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { name: 'bee', match: 'You are bee, a member', turns: many(bee) },
          { name: 'lead', match: 'lead agent in Fanout', turns: many(lead) }
        ])
      },
      { teams: true, permissionMode: 'acceptEdits' }
    )
    await f.session.run('Write the notes with a team.')
    await f.session.idle()
    expect(readFileSync(join(f.cwd, 'a.txt'), 'utf8')).toBe('a\n')
    expect(existsSync(join(f.cwd, 'b.txt'))).toBe(true) // the revised plan, not the first one
    const team = lastTeam(f.events)
    expect(team.status).toBe('deleted')
    expect(team.members).toEqual([expect.objectContaining({ name: 'bee', status: 'shutdown' })])
    expect(team.requests.map((r) => [r.type, r.from, r.to, r.status])).toEqual([
      ['plan_approval', 'bee', 'lead', 'rejected'],
      ['plan_approval', 'bee', 'lead', 'approved'],
      ['shutdown', 'lead', 'bee', 'approved']
    ])
    expect(team.requests[0].response).toBe('Also write b.txt.')
    // Requests and answers arrived as messages, on both sides.
    const received = f.events
      .filter((e) => e.type === 'message_received')
      .map((e) => `${e.agentId === f.session.mainAgentId ? 'lead' : 'bee'}: ${(e as { summary?: string }).summary}`)
    expect(received).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^lead: plan for approval plan-/),
        'bee: plan rejected',
        'bee: plan approved',
        expect.stringMatching(/^bee: shutdown request shutdown-/),
        'lead: shutdown approved'
      ])
    )
    expect(toolEnds(f.events, 'TeamDelete').at(-1)).toMatchObject({ isError: false })
    expect(f.session.lastResult?.result).toMatch(/^Closed: The team is deleted/)
  })
})
