// How a reopened session answers each tool call a crash cut off, from what the transcripts say of it: a
// permission the person refused stays refused, one never answered is asked again, a message already
// delivered is not sent again, a call that never started says so, a Write is done or not as its file says,
// one that was running may have partly run.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { RecordedEvent } from '../../store'
import { DeliveryLedger } from './delivery-ledger'
import { sendDeliveryId } from './send-message'

const base = { agentId: 'a', parentAgentId: null, parentToolUseId: null, sessionId: 's', ts: 1, seq: 1000 }
const run = (toolUseId: string, name: string): RecordedEvent => ({ ...base, type: 'tool_run', toolUseId, name, input: {} })
const ask = (toolUseId: string, requestId: string): RecordedEvent => ({
  ...base,
  type: 'permission_request',
  requestId,
  toolName: 'Bash',
  input: {},
  reason: 'asks',
  requestingAgentId: 'a',
  toolUseId
})
const answer = (requestId: string, decision: 'allow' | 'deny', feedback?: string): RecordedEvent => ({
  ...base,
  type: 'permission_response',
  requestId,
  decision,
  ...(feedback ? { feedback } : {})
})

/** A subagent's run as its transcript records it: its start, and its end with `status`. */
const agentStart = (id: string, extra: Partial<RecordedEvent> = {}): RecordedEvent =>
  ({
    ...base,
    agentId: id,
    parentAgentId: 'a',
    type: 'agent_start',
    agentType: 'general-purpose',
    description: 'd',
    prompt: 'p',
    model: 'm',
    cwd: '/',
    depth: 1,
    tools: [],
    ...extra
  }) as RecordedEvent
const agentEnd = (id: string, status: string, extra: Partial<RecordedEvent> = {}): RecordedEvent =>
  ({
    ...base,
    agentId: id,
    parentAgentId: 'a',
    type: 'agent_end',
    status,
    result: 'r',
    numTurns: 1,
    toolUses: 0,
    durationMs: 1,
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    ...extra
  }) as RecordedEvent

describe('answers to the calls a crash cut off', () => {
  const events: RecordedEvent[] = [
    ask('t-denied', 'r1'),
    answer('r1', 'deny'),
    ask('t-denied-said', 'r4'),
    answer('r4', 'deny', 'Use the Makefile'),
    ask('t-waiting', 'r2'),
    ask('t-allowed', 'r3'),
    answer('r3', 'allow'),
    run('t-running', 'Bash'),
    run('t-done', 'Read'),
    { ...base, type: 'tool_end', toolUseId: 't-done', name: 'Read', isError: false, output: 'file contents', durationMs: 1 },
    run('t-sent', 'SendMessage'),
    run('t-unsent', 'SendMessage')
  ]
  const receiver: RecordedEvent[] = [{ ...base, agentId: 'b', type: 'message_received', from: 'a', text: 'hi', deliveryId: sendDeliveryId('t-sent') }]
  const answerOf = DeliveryLedger.fromTranscripts({ a: { events }, b: { events: receiver } }).interruptedResult(events)

  it('a refused permission stays refused; one never answered did not run and will be asked again', () => {
    expect(answerOf({ id: 't-denied', name: 'Bash' })).toEqual({
      isError: true,
      content: expect.stringMatching(/^The user denied permission to use Bash for this call \(before Fanout restarted\)\. Do not retry it as is/)
    })
    // The person's words with the denial are still said after the restart.
    expect(answerOf({ id: 't-denied-said', name: 'Bash' })?.content).toMatch(/\(before Fanout restarted\)\..*\nThe user said: Use the Makefile$/s)
    expect(answerOf({ id: 't-waiting', name: 'Bash' })).toEqual({
      isError: true,
      content: expect.stringMatching(/^Bash was waiting for the user's approval when Fanout stopped .* so it did not run\. .*the user will be asked again\.$/)
    })
  })

  it('an allowed call that had not started did not run; one that was running may have partly run', () => {
    expect(answerOf({ id: 't-allowed', name: 'Bash' })).toEqual({ isError: true, content: expect.stringMatching(/^Bash did not run: Fanout stopped/) })
    expect(answerOf({ id: 't-running', name: 'Bash' })).toEqual({
      isError: true,
      content: expect.stringMatching(/was running when Fanout stopped .* it may have done part of its work\. Check what it changed/)
    })
  })

  it('a call that finished keeps its own result; a message already received is not sent again', () => {
    expect(answerOf({ id: 't-done', name: 'Read' })).toEqual({ isError: false, content: 'file contents' })
    expect(answerOf({ id: 't-sent', name: 'SendMessage' })).toEqual({
      isError: false,
      content: expect.stringMatching(/^The message was delivered before Fanout stopped .* it was not sent again\.$/)
    })
    expect(answerOf({ id: 't-unsent', name: 'SendMessage' })).toMatchObject({ isError: true, content: expect.stringMatching(/may have done part of its work/) })
  })

  it('a report recorded in an agent_end and received by nobody is owed, once; one received is not', () => {
    const report = (deliveryId: string) => ({ deliveryId, to: 'a', text: `report ${deliveryId}` })
    const child = (id: string, deliveryId: string, seq: number): RecordedEvent[] => [
      agentStart(id, { seq }),
      agentEnd(id, 'completed', { report: report(deliveryId), seq: seq + 1 } as Partial<RecordedEvent>)
    ]
    const parent: RecordedEvent[] = [{ ...base, type: 'message_received', from: 'c1', text: 'report d1', deliveryId: 'd1' }]
    const ledger = DeliveryLedger.fromTranscripts({ a: { events: parent }, c1: { events: child('c1', 'd1', 10) }, c2: { events: child('c2', 'd2', 20) } })
    expect(ledger.owedReports.map((r) => [r.from, r.report.deliveryId])).toEqual([['c2', 'd2']])
  })
})

describe('a TaskStop a crash cut off', () => {
  // Told by its agent's transcript: the agent's run ended, or it was cut off with the rest and goes on at the resume.
  const started = (id: string, name: string) => agentStart(id, { name } as Partial<RecordedEvent>)
  const ended = (id: string, status: string) => agentEnd(id, status)
  const stop = (toolUseId: string, input: Record<string, unknown>): RecordedEvent => ({ ...base, type: 'tool_run', toolUseId, name: 'TaskStop', input })
  const caller = [
    stop('by-id', { agentId: 'w1' }),
    stop('by-name', { task_id: 'watcher' }),
    stop('still-running', { agentId: 'w3' }),
    stop('unknown', { agentId: 'zz' })
  ]
  const answerOf = DeliveryLedger.fromTranscripts({
    a: { events: caller },
    w1: { events: [started('w1', 'one'), ended('w1', 'stopped')] },
    w2: { events: [started('w2', 'watcher'), ended('w2', 'completed')] },
    w3: { events: [started('w3', 'three')] }
  }).interruptedResult(caller)
  const stopAnswer = (id: string) => answerOf({ id, name: 'TaskStop' })

  it('its agent ended: it had finished, whether the stop or the agent ended it', () => {
    expect(stopAnswer('by-id')).toEqual({
      isError: false,
      content:
        "TaskStop had finished when Fanout stopped (it was closed or crashed): agent w1 is not running (its run ended: stopped). Only this call's result was lost."
    })
    expect(stopAnswer('by-name')?.content).toContain('agent w2 is not running (its run ended: completed)')
  })

  it('its agent was still running: the stop did not happen, and the agent goes on at the resume', () => {
    expect(stopAnswer('still-running')).toEqual({
      isError: true,
      content: expect.stringMatching(
        /^TaskStop did not finish: Fanout stopped .* before agent w3 stopped\. .*goes on.*Call TaskStop again if it is still to be stopped\.$/
      )
    })
    expect(stopAnswer('unknown')?.content).toMatch(/may have done part of its work/)
  })
})

describe('a Write a crash cut off', () => {
  // Write replaces its file whole, in one step: the file tells whether the call's content got there.
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-cut-write-')))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const start = (cwd: string): RecordedEvent => ({
    ...base,
    type: 'agent_start',
    agentType: 'general-purpose',
    description: 'd',
    prompt: 'p',
    model: 'm',
    cwd,
    depth: 1,
    tools: []
  })
  const write = (toolUseId: string, file_path: string, content: string): RecordedEvent => ({
    ...base,
    type: 'tool_run',
    toolUseId,
    name: 'Write',
    input: { file_path, content }
  })
  const answerOf = (events: RecordedEvent[], id: string) => DeliveryLedger.fromTranscripts({ a: { events } }).interruptedResult(events)({ id, name: 'Write' })

  it('finished when its file holds the content it gave (a relative path is read in the folder its run worked in)', () => {
    mkdirSync(join(dir, 'run2'))
    writeFileSync(join(dir, 'run2', 'done.txt'), 'all of it\n')
    const events = [start(join(dir, 'run1')), start(join(dir, 'run2')), write('w1', 'done.txt', 'all of it\n')]
    expect(answerOf(events, 'w1')).toEqual({
      isError: false,
      content: 'Write had finished when Fanout stopped (it was closed or crashed): done.txt holds the content this call gave. Only its result was lost.'
    })
  })

  it('did not finish when the file is missing, holds something else, or more, or is not a regular file', () => {
    writeFileSync(join(dir, 'old.txt'), 'what was there before\n')
    writeFileSync(join(dir, 'longer.txt'), 'all of it\nand more\n')
    mkfifo(join(dir, 'pipe'))
    for (const [id, path] of [
      ['missing', 'missing.txt'],
      ['old', 'old.txt'],
      ['longer', 'longer.txt'],
      ['pipe', join(dir, 'pipe')]
    ]) {
      const events = [start(dir), write(id, path, 'all of it\n')]
      expect(answerOf(events, id), path).toEqual({
        isError: true,
        content: `Write did not finish: Fanout stopped (it was closed or crashed) before ${path.startsWith('/') ? 'pipe' : path} held the content this call gave, so what this call was to write is not there. Run it again if it is still needed.`
      })
    }
  })

  it('removes the temp file the killed Write left beside its file (its writer gone), not one in flight or a look-alike', () => {
    mkdirSync(join(dir, 'temps'))
    const dead = `.notes.md.${spawnSync(process.execPath, ['-e', '']).pid}.0badc0de.tmp`
    const live = `.notes.md.${process.pid}.feedface.tmp`
    const others = ['.notes.md.bak', `.other.md.${spawnSync(process.execPath, ['-e', '']).pid}.0badc0de.tmp`]
    for (const name of [dead, live, ...others]) writeFileSync(join(dir, 'temps', name), 'all of')
    const events = [start(join(dir, 'temps')), write('t1', 'notes.md', 'all of it\n')]
    expect(answerOf(events, 't1')?.content).toMatch(/^Write did not finish/)
    expect(readdirSync(join(dir, 'temps')).sort()).toEqual([live, ...others].sort())
  })

  it('an Edit: in the file when it has new_string and not old_string, not in it for the reverse; else the file cannot tell', () => {
    writeFileSync(join(dir, 'edited.ts'), 'export const answer = 43\n')
    const edit = (toolUseId: string, old_string: string, new_string: string): RecordedEvent => ({
      ...base,
      type: 'tool_run',
      toolUseId,
      name: 'Edit',
      input: { file_path: 'edited.ts', old_string, new_string }
    })
    const events = [start(dir), edit('in', '= 42', '= 43'), edit('out', '= 43', '= 44'), edit('both', 'answer', 'answer = 4'), edit('gone', '= 43', '')]
    const ledger = DeliveryLedger.fromTranscripts({ a: { events } }).interruptedResult(events)
    expect(ledger({ id: 'in', name: 'Edit' })).toEqual({
      isError: false,
      content:
        "Edit was cut off when Fanout stopped (it was closed or crashed), and edited.ts does not have this call's old_string and has its new_string, as the edit leaves it. Only its result was lost."
    })
    expect(ledger({ id: 'out', name: 'Edit' })).toEqual({
      isError: true,
      content:
        "Edit did not finish: Fanout stopped (it was closed or crashed) before it changed edited.ts, which still has this call's old_string and not its new_string. Run it again if it is still needed."
    })
    expect(ledger({ id: 'both', name: 'Edit' })?.content).toMatch(/may have done part of its work/)
    expect(ledger({ id: 'gone', name: 'Edit' })?.content).toMatch(/^Edit did not finish: .* which still has this call's old_string\. Run it again/)
  })

  it('a NotebookEdit: a replaced cell holds the new source or not; a cell deleted by id is gone or not; an insert cannot tell', () => {
    const nb = (cells: Array<{ id: string; source: string[] }>) =>
      `${JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: cells.map((c) => ({ cell_type: 'code', metadata: {}, outputs: [], execution_count: null, ...c })) }, null, 1)}\n`
    writeFileSync(
      join(dir, 'a.ipynb'),
      nb([
        { id: 'c1', source: ['x = 2\n', 'print(x)'] },
        { id: 'c2', source: ['y = 1'] }
      ])
    )
    const call = (toolUseId: string, input: Record<string, unknown>): RecordedEvent => ({
      ...base,
      type: 'tool_run',
      toolUseId,
      name: 'NotebookEdit',
      input: { notebook_path: 'a.ipynb', ...input }
    })
    const events = [
      start(dir),
      call('replaced', { cell_id: 'c1', new_source: 'x = 2\nprint(x)' }),
      call('by-place', { cell_id: 'cell-1', new_source: 'y = 1' }),
      call('not-yet', { cell_id: 'c2', new_source: 'y = 2' }),
      call('deleted', { cell_id: 'c9', edit_mode: 'delete', new_source: '' }),
      call('still-there', { cell_id: 'c2', edit_mode: 'delete', new_source: '' }),
      call('delete-by-place', { cell_id: 'cell-0', edit_mode: 'delete', new_source: '' }),
      call('inserted', { cell_id: 'c1', edit_mode: 'insert', cell_type: 'code', new_source: 'z = 3' })
    ]
    const ledger = DeliveryLedger.fromTranscripts({ a: { events } }).interruptedResult(events)
    const answer = (id: string) => ledger({ id, name: 'NotebookEdit' })
    expect(answer('replaced')).toEqual({
      isError: false,
      content:
        'NotebookEdit had finished when Fanout stopped (it was closed or crashed): cell c1 of a.ipynb holds the source this call gave. Only its result was lost.'
    })
    expect(answer('by-place')).toMatchObject({ isError: false, content: expect.stringContaining('cell cell-1 of a.ipynb holds the source') })
    expect(answer('not-yet')).toEqual({
      isError: true,
      content:
        'NotebookEdit did not finish: Fanout stopped (it was closed or crashed) before cell c2 of a.ipynb held the source this call gave, so this edit is not there. Run it again if it is still needed.'
    })
    expect(answer('deleted')).toMatchObject({ isError: false, content: expect.stringContaining('a.ipynb has no cell c9, as the deletion leaves it') })
    expect(answer('still-there')).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^NotebookEdit did not finish: .* deleted cell c2 of a\.ipynb, which is still there\. Run it again/)
    })
    expect(answer('delete-by-place')?.content).toMatch(/may have done part of its work/)
    expect(answer('inserted')?.content).toMatch(/may have done part of its work/)
  })

  it('with an input it cannot read a path from is answered like any call cut off while running', () => {
    const events = [start(dir), { ...base, type: 'tool_run', toolUseId: 'bad', name: 'Write', input: { content: 'x' } } as RecordedEvent]
    expect(answerOf(events, 'bad')?.content).toMatch(/may have done part of its work/)
  })
})

/** A named pipe: reading one must not hang the resume (mkfifo is there on Linux and macOS). */
function mkfifo(path: string): void {
  execFileSync('mkfifo', [path])
}
