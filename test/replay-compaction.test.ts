// Reopening a session replays its events into the UI. The host leaves out streamed deltas that a later
// assistant message repeats in full; the UI must end up showing exactly the same transcripts, tools and
// totals as from the full stream, with far fewer events to send.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { reply, scriptByAgent, startScriptedModel } from '../src/main/runtime/model/scripted'
import { AgentSession } from '../src/main/runtime/orchestration'
import { openSession } from '../src/main/runtime/store'
import { mergedEvents } from '../src/main/runtime/store/session-fold'
import { applyEvents } from '../src/shared/view/reducer'
import { emptyEventsState } from '../src/shared/view/session-state'

describe('session replay', () => {
  it('shows the same transcripts without the deltas that finished messages repeat', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fanout-replay-'))
    const cwd = join(root, 'project')
    mkdirSync(cwd)
    writeFileSync(join(cwd, 'notes.md'), '# Notes\nThe answer is 42.\n')
    const shape = { textChunk: 3 }
    const model = await startScriptedModel({
      respond: scriptByAgent([
        {
          name: 'child',
          match: 'Read the notes',
          turns: [
            reply.shaped(shape, reply.toolUse('Read', { file_path: 'notes.md' }, { text: 'Reading the notes file now.' })),
            reply.shaped(shape, reply.text('The notes say the answer is **42**.'))
          ]
        },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [
            reply.shaped(shape, reply.toolUse('Agent', { description: 'Read notes', prompt: 'Read the notes' }, { text: 'Let me delegate that.' })),
            reply.shaped(shape, reply.text('All done: the answer is 42, per the notes.'))
          ]
        }
      ])
    })
    const dataDir = join(root, 'data')
    const session = await AgentSession.create({
      cwd,
      home: root,
      client: model.client,
      dataDir,
      ripgrep: false,
      managedSettingsFile: null,
      permissionMode: 'bypassPermissions'
    })
    await session.run('What do the notes say?')
    await session.close()
    await model.close()

    const opened = await openSession(dataDir, session.sessionId)
    const full = Object.values(opened.agents)
      .flatMap((t) => t.events)
      .sort((a, b) => a.ts - b.ts)
    const compact = mergedEvents(await openSession(dataDir, session.sessionId, { skipSettledDeltas: true }))
    expect(compact.length).toBeLessThan(full.length)
    expect(compact.some((e) => e.type === 'text_delta')).toBe(false)

    const a = applyEvents(emptyEventsState(), full).sessions[session.sessionId]
    const b = applyEvents(emptyEventsState(), compact).sessions[session.sessionId]
    const view = (s: typeof a) => ({
      agents: s.agentOrder.map((id) => [s.agents[id].agentType, s.agents[id].status]),
      items: Object.fromEntries(
        Object.entries(s.items).map(([id, items]) => [
          id,
          items.map((i) => ('text' in i ? `${i.kind}:${i.text}` : 'toolUseId' in i ? `tool:${s.tools[i.toolUseId]?.name}` : i.kind))
        ])
      ),
      tools: Object.values(s.tools).map((t) => [t.name, t.status]),
      cost: s.usage.costUsd
    })
    expect(view(b)).toEqual(view(a))
    expect(JSON.stringify(view(b).items)).toContain('text:All done: the answer is 42, per the notes.')
  })
})
