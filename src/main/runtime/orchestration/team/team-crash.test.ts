// A team in a crash: TeamCreate writes the team, its members with their tasks and its first tasks in one
// record, so a kill right after it leaves the whole team; a member the kill caught before its launch was
// recorded (no state, no transcript) is started on resume from the task the team log keeps.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { reply } from '../../model/scripted'
import { agentStatePath, sessionDir, transcriptPath } from '../../store'
import { closeFixtures, latch, makeFixture } from '../testing/session-fixture'
import { scriptedAgent } from '../testing/scripted-agents'
import { TeamBoard } from './team-board'

afterEach(closeFixtures)

describe('a team after a crash', () => {
  it('a member never recorded as launched starts on resume with its task, and the team keeps its tasks', async () => {
    const hold = latch()
    let restarted = false
    const f = await makeFixture(
      [
        {
          name: 'member',
          match: 'MEMBER TASK',
          turns: [
            async () => {
              if (restarted) return reply.text('member finished after the restart')
              await hold.wait
              return reply.text('unreachable')
            }
          ]
        },
        scriptedAgent('lead', 'lead agent in Fanout', [
          reply.toolUse('TeamCreate', {
            team_name: 'crew',
            members: [{ name: 'm1', agent_type: 'general-purpose', prompt: 'MEMBER TASK: write the notes' }],
            tasks: [{ subject: 'write the notes' }, { subject: 'check the notes', blockedBy: ['1'] }]
          }),
          reply.text('The team is on it.'),
          reply.text('Heard from the team.'),
          reply.text('Heard again.')
        ])
      ],
      { teams: true }
    )
    const s1 = f.session
    await s1.run('Make a team.')
    const member = s1.registry.all().find((h) => h.name === 'm1')!
    const crashed = await f.crashCopy(s1)
    s1.stop()
    hold.open()
    // The kill came after TeamCreate's one write and before the member's launch record: nothing of it is on disk.
    rmSync(agentStatePath(crashed, s1.sessionId, member.id), { force: true })
    rmSync(transcriptPath(crashed, s1.sessionId, member.id), { force: true })

    restarted = true
    const { session: s2 } = await f.openSession(s1.sessionId, crashed)
    const board = new TeamBoard(join(sessionDir(crashed, s1.sessionId), 'team', 'log.jsonl'))
    await board.refresh()
    const team = board.snapshot()
    expect(team?.tasks.map((t) => [t.id, t.subject, t.blockedBy])).toEqual([
      ['1', 'write the notes', []],
      ['2', 'check the notes', ['1']]
    ])
    const report = await s2.resumeInterrupted()
    expect(report.resumed).toContain(member.id)
    await s2.idle()
    const memberRequests = f.model.server.messageRequests().filter((r) => r.firstUserText.startsWith('MEMBER TASK'))
    expect(memberRequests.length).toBeGreaterThanOrEqual(2)
    expect(s2.registry.get(member.id)?.lastResult?.result).toBe('member finished after the restart')
    // It runs as the team's member: the team prompt is in its system prompt.
    expect(memberRequests.at(-1)!.system).toContain('a member of the agent team "crew"')
  })
})
