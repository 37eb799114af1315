// A TeamCreate call a crash cut off (its tool_run written, its result never recorded) is answered on resume
// from the team log, which records the team with the call's id in one line: made (the lead is told so, with the
// team, and does not make it again) or not made (told it did not finish, the lead makes it again, and the team
// runs). Never "it may have done part of its work", which leaves the lead to guess.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { reply, type ParsedRequest } from '../../model/scripted'
import { agentStatePath, sessionDir, sessionIndexPath, transcriptPath } from '../../store'
import { waitUntil } from '../../tools/test-kit'
import { closeFixtures, latch, makeFixture } from '../testing/session-fixture'
import { TeamBoard } from './team-board'

afterEach(closeFixtures)

/** The results of the lead's TeamCreate calls, as its request carried them. */
function teamCreateResults(req: ParsedRequest): string[] {
  const ids = new Set<string>()
  const out: string[] = []
  for (const m of req.messages)
    if (Array.isArray(m.content))
      for (const b of m.content as Array<Record<string, any>>) {
        if (b.type === 'tool_use' && b.name === 'TeamCreate') ids.add(b.id)
        if (b.type === 'tool_result' && ids.has(b.tool_use_id)) out.push(typeof b.content === 'string' ? b.content : JSON.stringify(b.content))
      }
  return out
}

const TEAM_CREATE = {
  team_name: 'crew',
  members: [{ name: 'm1', agent_type: 'general-purpose', prompt: 'MEMBER TASK: write the notes' }],
  tasks: [{ subject: 'write the notes' }, { subject: 'check the notes' }]
}

/**
 * The lead creates a team whose member is held; the crash copy is cut back to the TeamCreate's tool_run. `recorded`:
 * whether the kill came after TeamCreate's line in the team log, or between the log's creation and that line.
 */
async function cutOffTeamCreate(recorded: boolean) {
  const hold = latch()
  let restarted = false
  const lead: ParsedRequest[] = []
  const f = await makeFixture(
    {
      respond: async (req) => {
        if (req.firstUserText.startsWith('MEMBER TASK')) {
          if (!restarted) await hold.wait
          return reply.text('member m1 finished')
        }
        lead.push(req)
        const results = teamCreateResults(req)
        if (!restarted && results.length) await hold.wait
        // A sensible lead makes the team again only when told it was not made.
        if (!results.length || results.every((r) => /did not finish: Fanout stopped/.test(r))) return reply.toolUse('TeamCreate', TEAM_CREATE)
        return reply.text('The team is on it.')
      }
    },
    { teams: true, permissionMode: 'bypassPermissions' }
  )
  const s1 = f.session
  const running = s1.run('Make a team.')
  await waitUntil(() => lead.some((r) => teamCreateResults(r).length > 0), 'the lead to call the model after TeamCreate')
  const member = s1.registry.all().find((h) => h.name === 'm1')!
  const copy = await f.crashCopy(s1)
  s1.stop()
  hold.open()
  await running.catch(() => undefined)
  const sid = s1.sessionId
  const main = transcriptPath(copy, sid, s1.mainAgentId)
  const lines = readFileSync(main, 'utf8').split('\n')
  const at = lines.findIndex((l) => l.includes('"type":"tool_run"') && l.includes('"name":"TeamCreate"'))
  expect(at).toBeGreaterThan(0)
  writeFileSync(main, lines.slice(0, at + 1).join('\n') + '\n')
  if (!recorded) {
    // appendFile had made the log and not yet written to it; nothing after it happened: no member was launched.
    writeFileSync(join(sessionDir(copy, sid), 'team', 'log.jsonl'), '')
    rmSync(agentStatePath(copy, sid, member.id), { force: true })
    rmSync(transcriptPath(copy, sid, member.id), { force: true })
    const index = JSON.parse(readFileSync(sessionIndexPath(copy, sid), 'utf8'))
    delete index.agents[member.id]
    writeFileSync(sessionIndexPath(copy, sid), JSON.stringify(index))
  }
  restarted = true
  lead.length = 0
  // Reopened as `fanout run --resume` without --teams: a session whose log holds a team keeps its lead's team tools.
  const { session: s2 } = await f.openSession(sid, copy, { permissionMode: 'bypassPermissions', ...(recorded ? {} : { teams: true }) })
  await s2.resumeInterrupted()
  await s2.idle()
  const board = new TeamBoard(join(sessionDir(copy, sid), 'team', 'log.jsonl'))
  await board.refresh()
  return { s2, lead, board, model: f.model }
}

describe('a TeamCreate a crash cut off', () => {
  it('after the team was recorded: the lead is told the team was made, does not make it again, keeps its team tools without --teams, and the member reports', async () => {
    const { lead, board, model } = await cutOffTeamCreate(true)
    const told = teamCreateResults(lead[0])
    expect(told).toEqual([expect.stringContaining('TeamCreate had finished when Fanout stopped')])
    expect(told[0]).toContain('Team "crew" was created with 1 member (m1) and 2 tasks')
    expect(told[0]).not.toMatch(/may have done part/)
    expect(lead.flatMap(teamCreateResults)).toHaveLength(lead.length)
    expect(board.snapshot()?.name).toBe('crew')
    expect(lead[0].toolNames).toEqual(expect.arrayContaining(['TeamDelete', 'TaskList', 'TaskCreate', 'TaskUpdate', 'RequestShutdown']))
    expect(model.server.messageRequests().filter((r) => r.firstUserText.startsWith('MEMBER TASK')).length).toBeGreaterThanOrEqual(2)
  })

  it('before the team was recorded (an empty log): the lead is told there is no team, makes it again, and it runs', async () => {
    const { lead, board, s2 } = await cutOffTeamCreate(false)
    const told = teamCreateResults(lead[0])
    expect(told).toEqual([expect.stringContaining('TeamCreate did not finish: Fanout stopped')])
    expect(told[0]).toContain('there is no team and none of its members started')
    // Made again: the second call's result is the team at work, not a refusal.
    const last = teamCreateResults(lead.at(-1)!)
    expect(last).toHaveLength(2)
    expect(last[1]).toContain('Team "crew" is working')
    expect(board.snapshot()?.members.map((m) => m.name)).toEqual(['m1'])
    expect(s2.registry.all().find((h) => h.name === 'm1')?.lastResult?.result).toBe('member m1 finished')
  })
})
