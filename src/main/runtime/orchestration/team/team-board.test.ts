// The team's durable task list: the rules of the fold (one team, dependencies, claims, ownership,
// requests), reopening from disk, and races — many workers in this process and several processes on one
// file — where no task is ever taken twice and none is lost.
import { execFile } from 'node:child_process'
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { TeamBoard } from './team-board'
import { LEAD, type TeamOp } from './team-ops'
import { tempFolders } from '../../../../../test/support/temp-folders'

const tempFolder = tempFolders('fanout-team-')

function logFile(): string {
  return join(tempFolder(), 'team', 'log.jsonl')
}

const member = (name: string, i = 0) => ({ name, agentId: `a${String(i).padStart(16, '0')}`, agentType: 'general-purpose' })

async function teamWith(file: string, names: string[]): Promise<TeamBoard> {
  const board = new TeamBoard(file)
  const made = await board.run({ op: 'team_create', actor: LEAD, name: 'crew', description: 'test team', leadAgentId: 'main-1', members: names.map(member) })
  expect(made).toEqual({ ok: true })
  return board
}

const ok = (id?: string) => (id === undefined ? { ok: true } : { ok: true, taskId: id })

describe('team board rules', () => {
  it('holds one team at a time, with unique member names that are not "lead"', async () => {
    const board = await teamWith(logFile(), ['ada', 'bo'])
    const again = await board.run({ op: 'team_create', actor: LEAD, name: 'other', description: '', leadAgentId: 'main-1', members: [] })
    expect(again).toMatchObject({ ok: false, error: expect.stringContaining("already has a team, 'crew'") })
    const file2 = logFile()
    const b2 = new TeamBoard(file2)
    expect(await b2.run({ op: 'team_create', actor: LEAD, name: 'x', description: '', leadAgentId: 'm', members: [member('a'), member('a')] })).toMatchObject({
      ok: false,
      error: expect.stringContaining("Two members are named 'a'")
    })
    expect(await b2.run({ op: 'team_create', actor: LEAD, name: 'x', description: '', leadAgentId: 'm', members: [member('lead')] })).toMatchObject({
      ok: false
    })
    // Tasks need a team, and strangers cannot act on one.
    expect(await b2.run({ op: 'task_create', actor: LEAD, subject: 's', description: '', blockedBy: [] })).toMatchObject({
      ok: false,
      error: expect.stringContaining('no active team')
    })
    expect(await board.run({ op: 'task_create', actor: 'mallory', subject: 's', description: '', blockedBy: [] })).toMatchObject({
      ok: false,
      error: expect.stringContaining("'mallory' is not a member")
    })
  })

  it('claims respect dependencies, one task per worker at a time, and ownership', async () => {
    const board = await teamWith(logFile(), ['ada', 'bo'])
    expect(await board.run({ op: 'task_create', actor: LEAD, subject: 'schema', description: 'write the schema', blockedBy: [] })).toEqual(ok('1'))
    expect(await board.run({ op: 'task_create', actor: LEAD, subject: 'api', description: 'needs the schema', blockedBy: ['1'] })).toEqual(ok('2'))
    expect(await board.run({ op: 'task_create', actor: LEAD, subject: 'bad', description: '', blockedBy: ['9'] })).toMatchObject({
      ok: false,
      error: expect.stringContaining('do not exist: 9')
    })

    expect(await board.run({ op: 'task_claim', actor: 'ada', taskId: '2' })).toMatchObject({ ok: false, error: 'Task 2 is blocked by unfinished task 1.' })
    expect(await board.run({ op: 'task_claim', actor: 'ada' })).toEqual(ok('1'))
    expect(await board.run({ op: 'task_claim', actor: 'bo', taskId: '1' })).toMatchObject({ ok: false, error: 'Task 1 was already claimed by ada.' })
    expect(await board.run({ op: 'task_claim', actor: 'bo' })).toMatchObject({ ok: false, error: expect.stringContaining('1 pending task is blocked') })
    expect(await board.run({ op: 'task_claim', actor: 'ada', taskId: '2' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('You are working on task 1')
    })
    // Without a task id, the task ada holds comes back to her (a claim whose answer a crash cut off, asked again).
    expect(await board.run({ op: 'task_claim', actor: 'ada' })).toEqual(ok('1'))
    expect(board.snapshot()!.tasks.find((x) => x.id === '1')).toMatchObject({ owner: 'ada', status: 'in_progress' })
    expect(await board.run({ op: 'task_update', actor: 'bo', taskId: '1', status: 'completed' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('only its owner or the lead')
    })
    expect(await board.run({ op: 'task_update', actor: 'ada', taskId: '1', status: 'completed', result: 'schema.sql written' })).toEqual(ok('1'))
    expect(await board.run({ op: 'task_claim', actor: 'bo' })).toEqual(ok('2'))
    const t = board.snapshot()!.tasks
    expect(t.map((x) => [x.id, x.status, x.owner ?? null])).toEqual([
      ['1', 'completed', 'ada'],
      ['2', 'in_progress', 'bo']
    ])
    expect(t[0].result).toBe('schema.sql written')
  })

  it('refuses a dependency cycle, lets only the lead assign, and a release frees the task', async () => {
    const board = await teamWith(logFile(), ['ada', 'bo'])
    await board.run({ op: 'task_create', actor: LEAD, subject: 'a', description: '', blockedBy: [] })
    await board.run({ op: 'task_create', actor: 'ada', subject: 'b', description: '', blockedBy: ['1'] })
    expect(await board.run({ op: 'task_update', actor: LEAD, taskId: '1', addBlockedBy: ['2'] })).toMatchObject({
      ok: false,
      error: expect.stringContaining('wait for itself')
    })
    expect(await board.run({ op: 'task_update', actor: 'ada', taskId: '1', owner: 'bo' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('Only the team lead assigns')
    })
    expect(await board.run({ op: 'task_update', actor: LEAD, taskId: '1', owner: 'bo' })).toEqual(ok('1'))
    // Assigned to bo: ada cannot take it, bo can.
    expect(await board.run({ op: 'task_claim', actor: 'ada' })).toMatchObject({ ok: false })
    expect(await board.run({ op: 'task_claim', actor: 'bo' })).toEqual(ok('1'))
    expect(await board.run({ op: 'task_update', actor: 'bo', taskId: '1', status: 'pending' })).toEqual(ok('1'))
    expect(board.snapshot()!.tasks[0]).toMatchObject({ status: 'pending' })
    expect(board.snapshot()!.tasks[0].owner).toBeUndefined()
    expect(await board.run({ op: 'task_claim', actor: 'ada' })).toEqual(ok('1'))
  })

  it('shutdown and plan-approval requests go the right way and are answered once; a shut-down member stays so', async () => {
    const board = await teamWith(logFile(), ['ada'])
    expect(await board.run({ op: 'request', actor: 'ada', requestId: 'r1', type: 'shutdown', to: LEAD, content: 'x' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('Only the team lead asks')
    })
    expect(await board.run({ op: 'request', actor: 'ada', requestId: 'p1', type: 'plan_approval', to: LEAD, content: '1. do it' })).toEqual({
      ok: true,
      requestId: 'p1'
    })
    expect(await board.run({ op: 'respond', actor: 'ada', requestId: 'p1', approve: true })).toMatchObject({
      ok: false,
      error: expect.stringContaining('only lead can answer')
    })
    expect(await board.run({ op: 'respond', actor: LEAD, requestId: 'p1', approve: false, response: 'add tests' })).toEqual({ ok: true, requestId: 'p1' })
    expect(await board.run({ op: 'respond', actor: LEAD, requestId: 'p1', approve: true })).toMatchObject({
      ok: false,
      error: expect.stringContaining('already answered (rejected)')
    })
    await board.run({ op: 'member', actor: 'ada', name: 'ada', status: 'working' })
    expect(await board.run({ op: 'team_delete', actor: LEAD })).toMatchObject({ ok: false, error: expect.stringContaining('still working: ada') })
    await board.run({ op: 'request', actor: LEAD, requestId: 's1', type: 'shutdown', to: 'ada', content: 'all done' })
    expect(await board.run({ op: 'respond', actor: 'ada', requestId: 's1', approve: true })).toEqual({ ok: true, requestId: 's1' })
    await board.run({ op: 'member', actor: 'ada', name: 'ada', status: 'idle' })
    const team = board.snapshot()!
    expect(team.members[0].status).toBe('shutdown')
    expect(team.requests.map((r) => [r.id, r.type, r.status, r.response ?? null])).toEqual([
      ['p1', 'plan_approval', 'rejected', 'add tests'],
      ['s1', 'shutdown', 'approved', null]
    ])
    expect(await board.run({ op: 'team_delete', actor: LEAD })).toEqual({ ok: true })
    expect(await board.run({ op: 'team_create', actor: LEAD, name: 'next', description: '', leadAgentId: 'main-1', members: [] })).toEqual({ ok: true })
  })

  it('reopens from disk to the same state, skipping a torn line a crash left', async () => {
    const file = logFile()
    const board = await teamWith(file, ['ada'])
    await board.run({ op: 'task_create', actor: LEAD, subject: 'one', description: '', blockedBy: [] })
    appendFileSync(file, '{"op":"task_create","actor":"lead","sub') // a writer died mid-line
    await board.run({ op: 'task_create', actor: LEAD, subject: 'two', description: '', blockedBy: [] })
    await board.run({ op: 'task_claim', actor: 'ada' })
    const problems: string[] = []
    const reopened = new TeamBoard(file, { onProblem: (p) => problems.push(p) })
    await reopened.refresh()
    expect(reopened.snapshot()).toEqual(board.snapshot())
    expect(reopened.snapshot()!.tasks.map((t) => t.subject)).toEqual(['one', 'two'])
    expect(problems).toEqual([expect.stringContaining('skipped a line that is not a record')])
  })
})

/** Every claim and completion in the log, folded by a fresh reader: who got each task. */
function auditLog(file: string) {
  const ops = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as TeamOp)
  return ops
}

async function work(board: TeamBoard, name: string): Promise<string[]> {
  const done: string[] = []
  for (;;) {
    const claim = await board.run({ op: 'task_claim', actor: name })
    if (!claim.ok) return done
    const out = await board.run({ op: 'task_update', actor: name, taskId: claim.taskId!, status: 'completed', result: `done by ${name}` })
    if (!out.ok) throw new Error(`${name} could not complete its own task ${claim.taskId}: ${out.error}`)
    done.push(claim.taskId!)
  }
}

describe('team board races', () => {
  it('32 workers, each with its own reader, race over 200 tasks: each task is taken and completed exactly once', async () => {
    const file = logFile()
    const names = Array.from({ length: 32 }, (_, i) => `w${i}`)
    const lead = await teamWith(file, names)
    await Promise.all(Array.from({ length: 200 }, (_, i) => lead.run({ op: 'task_create', actor: LEAD, subject: `task ${i}`, description: '', blockedBy: [] })))
    const results = await Promise.all(names.map((n) => work(new TeamBoard(file), n)))
    const all = results.flat()
    expect(all).toHaveLength(200)
    expect(new Set(all).size).toBe(200)
    await lead.refresh()
    const tasks = lead.snapshot()!.tasks
    expect(tasks.every((t) => t.status === 'completed' && t.result === `done by ${t.owner}`)).toBe(true)
    // More than one worker got work: the race was real.
    expect(results.filter((r) => r.length > 0).length).toBeGreaterThan(1)
    // The log holds losing claims too, but a fresh fold of it agrees with what the workers were told.
    const fresh = new TeamBoard(file)
    await fresh.refresh()
    for (const [i, n] of names.entries()) for (const id of results[i]) expect(fresh.snapshot()!.tasks.find((t) => t.id === id)!.owner).toBe(n)
    expect(auditLog(file).filter((o) => o.op === 'task_claim').length).toBeGreaterThanOrEqual(200)
  })

  it('several processes race on one log file and never take the same task', async () => {
    const file = logFile()
    const names = Array.from({ length: 6 }, (_, p) => Array.from({ length: 4 }, (_, w) => `p${p}w${w}`)).flat()
    const lead = await teamWith(file, names)
    for (let i = 0; i < 120; i++) await lead.run({ op: 'task_create', actor: LEAD, subject: `task ${i}`, description: '', blockedBy: [] })
    // A small worker program around the real TeamBoard, bundled for plain node.
    const dir = join(file, '..')
    const entry = join(dir, 'worker-entry.ts')
    writeFileSync(
      entry,
      `import { TeamBoard } from ${JSON.stringify(join(__dirname, 'team-board.ts'))}
const [file, ...names] = process.argv.slice(2)
async function work(name) {
  const board = new TeamBoard(file)
  const done = []
  for (;;) {
    const c = await board.run({ op: 'task_claim', actor: name })
    if (!c.ok) return done
    const u = await board.run({ op: 'task_update', actor: name, taskId: c.taskId, status: 'completed' })
    if (!u.ok) throw new Error(u.error)
    done.push(c.taskId)
  }
}
Promise.all(names.map(work)).then((r) => process.stdout.write(JSON.stringify(Object.fromEntries(names.map((n, i) => [n, r[i]])))))
`
    )
    const bundle = join(dir, 'worker.mjs')
    await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent' })
    const run = promisify(execFile)
    const outputs = await Promise.all(Array.from({ length: 6 }, (_, p) => run(process.execPath, [bundle, file, ...names.slice(p * 4, p * 4 + 4)])))
    const byName: Record<string, string[]> = Object.assign({}, ...outputs.map((o) => JSON.parse(o.stdout)))
    const all = Object.values(byName).flat()
    expect(all).toHaveLength(120)
    expect(new Set(all).size).toBe(120)
    await lead.refresh()
    const tasks = lead.snapshot()!.tasks
    expect(tasks.every((t) => t.status === 'completed')).toBe(true)
    for (const [n, ids] of Object.entries(byName)) for (const id of ids) expect(tasks.find((t) => t.id === id)!.owner).toBe(n)
    expect(Object.keys(byName).filter((n) => byName[n].length > 0).length).toBeGreaterThan(1)
  })
})
