// A session another process runs, seen from the app: listed and opened read-only, followed live (each event
// once), every action refused naming the owner; once the owner lets it go, the app can continue it.
import { describe, expect, it } from 'vitest'
import { folders, host, until } from '../../../../test/support/host'
import type { AgentEvent } from '../../../shared/events'
import { createModelClient } from '../model/client'
import { reply, scriptByAgent, startScriptedServer } from '../model/scripted'
import { AgentSession } from '../orchestration'
import { latch } from '../orchestration/testing/session-fixture'
import { heldUntil, mainAgent } from '../orchestration/testing/scripted-agents'

describe('a session run by another process', () => {
  it('opens read-only, follows live without a repeat, refuses actions naming the owner, and is free once let go', async () => {
    const dirs = folders()
    const step = latch()
    const server = await startScriptedServer({
      respond: scriptByAgent([
        mainAgent([reply.toolUse('Glob', { pattern: '*' }, { text: 'Looking around.' }), heldUntil(step, reply.text('Found the readme.'))], (req) =>
          reply.text(`follow-up: ${req.lastUserText}`)
        )
      ])
    })
    // "fanout run" in another process: here a session of its own that holds the lock.
    const other = await AgentSession.create({
      cwd: dirs.cwd,
      home: dirs.home,
      dataDir: dirs.dataDir,
      owner: 'fanout run',
      client: createModelClient({ apiKey: 'k', baseURL: server.url, maxRetries: 0, env: {} }),
      ripgrep: false,
      managedSettingsFile: null
    })
    const otherEvents: AgentEvent[] = []
    other.subscribe((e) => otherEvents.push(e))
    const running = other.run('What is in this folder?')
    // Its second model request waits for `step`: once it is sent, the other process emits nothing more until then,
    // so what is flushed now is all the view can have (after only the tool call, the turn's end and the next
    // request's events could come between the flush and `inView`, be in neither, and be followed with a lower seq).
    await until(() => otherEvents.filter((e) => e.type === 'model_request').length >= 2, 'the second model request')
    await other.flush()

    const { h, events, notices } = await host(
      null,
      dirs,
      {},
      { createClient: () => createModelClient({ apiKey: 'k', baseURL: server.url, maxRetries: 0, env: {} }) }
    )
    const { sessions } = await h.handlers['sessions.list']({})
    expect(sessions[0]).toMatchObject({ sessionId: other.sessionId, runningElsewhere: { app: 'fanout run', pid: process.pid } })
    const inView = other.lastSeq // nothing happens in the other process until `step` opens
    const opened = await h.handlers['sessions.open']({ sessionId: other.sessionId })
    expect(opened.session.runningElsewhere).toMatchObject({ app: 'fanout run' })
    expect(opened.upTo).toBe(0)
    expect(opened.view.agents[other.mainAgentId].status).toBe('running')

    // Acting on it here is refused, naming the process that runs it.
    await expect(h.handlers['session.sendPrompt']({ sessionId: other.sessionId, prompt: 'Hello?' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(
        /^Session .* is being run by fanout run \(pid \d+ in this process\) since .*Here it is read-only and followed as it runs\.$/
      )
    })
    await expect(h.handlers['agent.stop']({ sessionId: other.sessionId, agentId: other.mainAgentId })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('is being run by fanout run')
    })
    await expect(h.handlers['sessions.delete']({ sessionId: other.sessionId })).rejects.toMatchObject({ code: 'conflict' })

    // What the other process does next reaches the app, each event once.
    step.open()
    await running
    await other.flush()
    await until(() => events.some((e) => e.type === 'agent_end' && e.agentId === other.mainAgentId), 'the followed run to end')
    const followed = events.filter((e) => e.sessionId === other.sessionId)
    const seqs = followed.map((e) => e.seq)
    expect(new Set(seqs).size).toBe(seqs.length)
    expect(
      followed.some((e) => e.type === 'message' && e.message.role === 'assistant' && JSON.stringify(e.message.content).includes('Found the readme.'))
    ).toBe(true)
    // Nothing the view had already is sent again; everything after it is.
    expect(followed.every((e) => (e.seq ?? 0) > inView)).toBe(true)
    expect(followed.filter((e) => e.type !== 'text_delta').map((e) => e.seq)).toEqual(
      otherEvents.filter((e) => (e.seq ?? 0) > inView && e.type !== 'text_delta').map((e) => e.seq)
    )

    // The other process is done and lets the session go: its row says so, and the app can continue it.
    await other.close()
    await until(
      () => notices.some((n) => n.type === 'session_updated' && n.session.sessionId === other.sessionId && !n.session.runningElsewhere),
      'the row without an owner'
    )
    await h.handlers['session.sendPrompt']({ sessionId: other.sessionId, prompt: 'Anything else?' })
    await until(
      () => events.some((e) => e.type === 'agent_end' && e.agentId === other.mainAgentId && e.result === 'follow-up: Anything else?'),
      'the follow-up here'
    )
    await server.close()
  })
})
