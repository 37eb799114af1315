import { appendFile, readFile, rm, writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import { applyEvents } from '../../../shared/view/reducer'
import { emptyEventsState, type TranscriptItem } from '../../../shared/view/session-state'
import { transcriptPath } from './data-dir'
import { openSession } from './open-session'
import { foldSession, replaySession } from './session-fold'
import { recordClosed, sessionAgents, useTempDataDir } from './test-fixtures'
import { readViewCheckpoint, viewCheckpointPath } from './view-checkpoint'

let dataDir: string
useTempDataDir((dir) => (dataDir = dir))

const { sessionId, main, child } = sessionAgents('sess-cp', { child: ['child-1', 't-agent'] })

const record = (events: AgentEvent[]) => recordClosed({ dataDir, sessionId, cwd: '/repo' }, events)

const finished = (): AgentEvent[] => [
  main.start({ cwd: '/repo' }),
  main.message({ role: 'user', content: 'Look around' }),
  main.text('Asking a '),
  main.text('helper.'),
  main.message({
    role: 'assistant',
    content: [
      { type: 'text', text: 'Asking a helper.' },
      { type: 'tool_use', id: 't-agent', name: 'Agent', input: { description: 'Look' } }
    ]
  }),
  main.ev({ type: 'tool_run', toolUseId: 't-agent', name: 'Agent', input: { description: 'Look' } }),
  child.start({ description: 'Look' }),
  child.message({ role: 'assistant', content: 'Found it.' }),
  child.end('completed', { costUsd: 0.01 }),
  main.ev({ type: 'tool_end', toolUseId: 't-agent', name: 'Agent', isError: false, output: 'Found it.', durationMs: 4 }),
  main.usage({ inputTokens: 10, outputTokens: 2, costUsd: 0.02 }),
  main.message({ role: 'assistant', content: 'Done: found it.' }),
  main.end('completed')
]

describe('the view checkpoint', () => {
  it('is written when the recorder closes, and a reopen reads it: the same index and state as a replay', async () => {
    await record(finished())
    expect(await readViewCheckpoint(dataDir, sessionId)).not.toBeNull()
    const replay = await openSession(dataDir, sessionId, { skipSettledDeltas: true })
    const opened = await replaySession(dataDir, sessionId)
    expect(opened.state).toEqual(foldSession(replay))
    expect(opened.index).toEqual(replay.index)
    expect(opened.index.status).toBe('completed')
    expect(opened.state.toolCount).toBe(1)
  })

  it('is not used once a transcript changed, an agent was added or lost, or its format is another', async () => {
    await record(finished())
    const mainFile = transcriptPath(dataDir, sessionId, 'main')
    const extra = main.message({ role: 'user', content: 'A follow-up written after the checkpoint' })
    await appendFile(mainFile, JSON.stringify(extra) + '\n')
    expect(await readViewCheckpoint(dataDir, sessionId)).toBeNull()
    const grown = await replaySession(dataDir, sessionId, { refresh: true })
    expect(grown.state.items.main.at(-1)).toMatchObject({ kind: 'user', text: 'A follow-up written after the checkpoint' })
    expect(await readViewCheckpoint(dataDir, sessionId)).not.toBeNull() // rewritten by that replay

    await writeFile(transcriptPath(dataDir, sessionId, 'late-1'), '')
    expect(await readViewCheckpoint(dataDir, sessionId)).toBeNull()
    await rm(transcriptPath(dataDir, sessionId, 'late-1'))
    expect(await readViewCheckpoint(dataDir, sessionId)).not.toBeNull()
    await rm(transcriptPath(dataDir, sessionId, 'child-1'))
    expect(await readViewCheckpoint(dataDir, sessionId)).toBeNull()

    await replaySession(dataDir, sessionId, { refresh: true })
    const cp = JSON.parse(await readFile(viewCheckpointPath(dataDir, sessionId), 'utf8'))
    await writeFile(viewCheckpointPath(dataDir, sessionId), JSON.stringify({ ...cp, format: cp.format + 1 }))
    expect(await readViewCheckpoint(dataDir, sessionId)).toBeNull()
  })

  it('says a session is interrupted when its writer went away, whatever the checkpoint said', async () => {
    // A main agent that never ended; the recorder closed (the writer is gone).
    await record(finished().filter((e) => !(e.type === 'agent_end' && e.agentId === 'main')))
    const opened = await replaySession(dataDir, sessionId)
    expect(await readViewCheckpoint(dataDir, sessionId)).not.toBeNull()
    expect(opened.index.status).toBe('interrupted')
  })

  it('shows the text a reply streamed before it failed, after the agent answered again, as the live view did', async () => {
    // The model call failed for good half-way (retries used up): its text was streamed but no assistant
    // message repeats it. The user sent a follow-up and the agent answered. The partial text is what
    // the live view kept on screen (turn_end settles it), and all there is of that reply.
    const events: AgentEvent[] = [
      main.start({ cwd: '/repo' }),
      main.message({ role: 'user', content: 'Write the report' }),
      main.turn(1),
      main.text('The report, part one: '),
      main.text('everything checked out so far.'),
      main.ev({ type: 'error', message: 'Overloaded (gave up after 9 attempts)', retrying: false }),
      main.ev({ type: 'turn_end', turn: 1, stopReason: 'error' }),
      main.end('failed'),
      main.start({ cwd: '/repo' }),
      main.message({ role: 'user', content: 'Go on' }),
      main.turn(1),
      main.text('Part two.'),
      main.message({ role: 'assistant', content: 'Part two.' }),
      main.ev({ type: 'turn_end', turn: 1, stopReason: 'end_turn' }),
      main.end('completed')
    ]
    const shown = (items: TranscriptItem[]) => items.map((i) => `${i.kind}: ${'text' in i ? i.text : 'message' in i ? i.message : ''}`)
    const live = shown(applyEvents(emptyEventsState(), events).sessions[sessionId].items.main)
    expect(live).toContain('text: The report, part one: everything checked out so far.')
    await record(events)
    expect(shown((await replaySession(dataDir, sessionId)).state.items.main)).toEqual(live) // the checkpoint
    expect(shown((await replaySession(dataDir, sessionId, { checkpoint: false })).state.items.main)).toEqual(live) // the transcripts
  })
})
