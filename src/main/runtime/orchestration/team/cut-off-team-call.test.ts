// Each team tool's call a crash cut off is answered from the team log, read by another process after the
// kill: what it did (in the tool's own words, the task as it stands now), that it was refused and why, that
// nothing of it was recorded, or — for a log written before calls carried ids — no answer here (the general one).
import { appendFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempFolders } from '../../../../../test/support/temp-folders'
import { cutOffTeamCall } from './cut-off-team-call'
import { TeamBoard } from './team-board'
import { LEAD } from './team-ops'

const tempFolder = tempFolders('fanout-team-cut-')
const member = (name: string, i: number) => ({ name, agentId: `a${String(i).padStart(16, '0')}`, agentType: 'general-purpose' })

/** A team worked by one process; what a second process (the resume) reads of it. */
async function afterKill(write: (b: TeamBoard) => Promise<void>): Promise<(tool: string, id: string) => ReturnType<typeof cutOffTeamCall>> {
  const file = join(tempFolder(), 'team', 'log.jsonl')
  const writer = new TeamBoard(file)
  await writer.run({
    op: 'team_create',
    actor: LEAD,
    name: 'crew',
    description: '',
    leadAgentId: 'main-1',
    members: [member('ada', 1), member('bo', 2)],
    tasks: [{ subject: 'write the notes', description: '', blockedBy: [] }],
    toolUseId: 'toolu_create'
  })
  await write(writer)
  const reader = new TeamBoard(file)
  await reader.refresh()
  return (tool, id) => cutOffTeamCall(tool, reader.callOf(id), reader.snapshot())
}

describe('a team tool call a crash cut off', () => {
  it('that took effect: said in the tool’s own words, with the task as it stands, and not to be run again', async () => {
    const answer = await afterKill(async (b) => {
      await b.run({ op: 'task_create', actor: LEAD, subject: 'check the notes', description: '', blockedBy: ['1'], toolUseId: 'toolu_tc' })
      await b.run({ op: 'task_claim', actor: 'ada', toolUseId: 'toolu_claim' })
      await b.run({ op: 'task_update', actor: 'ada', taskId: '1', status: 'completed', result: 'written', toolUseId: 'toolu_done' })
    })
    expect(answer('TeamCreate', 'toolu_create')).toEqual({
      content: expect.stringMatching(
        /^TeamCreate had finished when Fanout stopped .*do not create the team again\.\nTeam "crew" was created with 2 members \(ada, bo\) and 1 task\./
      ),
      isError: false
    })
    expect(answer('TaskCreate', 'toolu_tc')?.content).toMatch(
      /^TaskCreate had finished .*do not run it again\.\nCreated task 2\.\n#2 \[pending\] check the notes/
    )
    // The claim's task has moved on since (completed by the same member): the answer says where it stands now.
    expect(answer('TaskClaim', 'toolu_claim')?.content).toMatch(/\nYou claimed task 1\.\n#1 \[completed\] write the notes — ada/)
    expect(answer('TaskUpdate', 'toolu_done')).toMatchObject({ content: expect.stringContaining('Updated task 1.'), isError: false })
  })

  it('refused, or nothing left to claim: said so, with the reason', async () => {
    const answer = await afterKill(async (b) => {
      await b.run({ op: 'task_claim', actor: 'ada', taskId: '9', toolUseId: 'toolu_bad' })
      await b.run({ op: 'task_claim', actor: 'ada', toolUseId: 'toolu_a' })
      await b.run({ op: 'task_claim', actor: 'bo', toolUseId: 'toolu_none' })
    })
    expect(answer('TaskClaim', 'toolu_bad')).toEqual({
      content: expect.stringMatching(/^TaskClaim had finished when Fanout stopped .*, and was refused: .*9/),
      isError: true
    })
    expect(answer('TaskClaim', 'toolu_none')).toMatchObject({
      isError: false,
      content: expect.stringMatching(/^TaskClaim had finished when Fanout stopped[^]*: No /)
    })
  })

  it('never recorded: it changed nothing, run it again; an empty log (a kill between its creation and its first line) is no team', async () => {
    const answer = await afterKill(async () => undefined)
    expect(answer('TaskCreate', 'toolu_gone')).toEqual({
      content: expect.stringMatching(/^TaskCreate did not finish: Fanout stopped .*the team and its task list have none of it\. Run it again/),
      isError: true
    })
    const empty = join(tempFolder(), 'team', 'log.jsonl')
    mkdirSync(dirname(empty), { recursive: true })
    writeFileSync(empty, '')
    const board = new TeamBoard(empty)
    await board.refresh()
    expect(cutOffTeamCall('TeamCreate', board.callOf('toolu_x'), board.snapshot())?.content).toMatch(/^TeamCreate did not finish: .*there is no team/)
  })

  it('in a log written before calls carried ids: no answer here, so the call gets the general one', async () => {
    const file = join(tempFolder(), 'team', 'log.jsonl')
    const old = new TeamBoard(file)
    await old.run({ op: 'team_create', actor: LEAD, name: 'crew', description: '', leadAgentId: 'main-1', members: [member('ada', 1)] })
    await old.run({ op: 'task_create', actor: LEAD, subject: 'a', description: '', blockedBy: [] })
    appendFileSync(file, '')
    const reader = new TeamBoard(file)
    await reader.refresh()
    expect(reader.callOf('toolu_any')).toBeUndefined()
    expect(cutOffTeamCall('TaskCreate', reader.callOf('toolu_any'), reader.snapshot())).toBeUndefined()
  })
})
