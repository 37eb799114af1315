// The session list: newest activity first, and a session's time is when something last happened in it —
// not when the list was asked for (every session this process ran used to read "just now" for ever).
import { describe, expect, it } from 'vitest'
import { folders, host, mainEnded, until } from '../../../../test/support/host'
import type { AgentEvent } from '../../../shared/events'
import { reply, scriptByAgent } from '../model/scripted'

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))
const lastEventTs = (events: AgentEvent[], sessionId: string) => Math.max(...events.filter((e) => e.sessionId === sessionId).map((e) => e.ts))

describe('listing sessions', () => {
  it('lists the sessions this process ran newest activity first, each at its last event', async () => {
    const { h, events, dirs } = await host(() => reply.text('Done.'))
    const first = await h.handlers['session.start']({ prompt: 'first', cwd: dirs.cwd })
    await until(() => mainEnded(events, first.sessionId), 'the first session')
    await pause(30)
    const second = await h.handlers['session.start']({ prompt: 'second', cwd: dirs.cwd })
    await until(() => mainEnded(events, second.sessionId), 'the second session')
    await pause(30)

    const { sessions } = await h.handlers['sessions.list']({})
    expect(sessions.map((s) => s.title)).toEqual(['second', 'first'])
    expect(sessions[0].updatedAt).toBe(lastEventTs(events, second.sessionId))
    expect(sessions[1].updatedAt).toBe(lastEventTs(events, first.sessionId))
    // Asking again later does not make them newer.
    await pause(30)
    expect((await h.handlers['sessions.list']({})).sessions.map((s) => s.updatedAt)).toEqual(sessions.map((s) => s.updatedAt))

    // A follow-up to the older session is new activity: it moves to the top.
    await h.handlers['session.sendPrompt']({ sessionId: first.sessionId, prompt: 'again' })
    await until(() => events.filter((e) => e.type === 'agent_end' && e.sessionId === first.sessionId && e.parentAgentId === null).length === 2, 'the follow-up')
    const after = (await h.handlers['sessions.list']({})).sessions
    expect(after.map((s) => s.title)).toEqual(['first', 'second'])
    expect(after[0].updatedAt).toBe(lastEventTs(events, first.sessionId))
  })

  it('sends a working session’s row again now and then, so its time in the list keeps up', async () => {
    // ~120 deltas over 0.6 s at least, a row at most every 200 ms: the rows stay fewer than the deltas unless a
    // delta takes 200 ms to come (with a row every 40 ms and 60 deltas, a loaded machine's 40 ms per delta made
    // a row of each).
    const words = Array.from({ length: 120 }, (_, i) => `w${i}`).join(' ')
    const { h, events, notices, dirs } = await host(
      () => reply.shaped({ textChunk: 4, chunkDelayMs: 5 }, reply.text(words)),
      folders(),
      {},
      { activityNoticeMs: 200 }
    )
    const { sessionId } = await h.handlers['session.start']({ prompt: 'stream a while', cwd: dirs.cwd })
    await until(() => mainEnded(events, sessionId), 'the session')
    const rows = notices.flatMap((n) => (n.type === 'session_updated' && n.session.sessionId === sessionId ? [n.session] : []))
    const mid = rows.filter((r) => r.status === 'running' && r.updatedAt > rows[0].updatedAt)
    expect(mid.length).toBeGreaterThan(0)
    // Not one per event: at most one per 200 ms of activity (plus the start and end of the agent).
    const deltas = events.filter((e) => e.sessionId === sessionId && e.type === 'text_delta').length
    expect(rows.length).toBeLessThan(deltas)
    expect(rows.at(-1)!.updatedAt).toBe(lastEventTs(events, sessionId))
  })

  it('sends a session’s row again as its cost grows: the one figure every window shows', async () => {
    const { h, events, notices, dirs } = await host(() => reply.text('Done.'), folders())
    const { sessionId } = await h.handlers['session.start']({ prompt: 'cost me', cwd: dirs.cwd })
    await until(() => mainEnded(events, sessionId), 'the session')
    const costs = events.filter((e) => e.type === 'usage' && e.sessionId === sessionId).map((e) => (e as { usage: { costUsd: number } }).usage.costUsd)
    expect(costs.length).toBeGreaterThan(0)
    expect(Math.min(...costs)).toBeGreaterThan(0)
    const total = costs.reduce((a, b) => a + b, 0)
    const rows = notices.flatMap((n) => (n.type === 'session_updated' && n.session.sessionId === sessionId ? [n.session] : []))
    // Pushed when the usage came, not only when the agent ended.
    expect(rows.some((r) => r.costUsd > 0 && r.status === 'running')).toBe(true)
    expect(rows.at(-1)!.costUsd).toBeCloseTo(total, 10)
  })

  it('keeps a reopened session’s own times until something happens in it', async () => {
    const dirs = folders()
    const before = await host(() => reply.text('Done.'), dirs)
    const older = await before.h.handlers['session.start']({ prompt: 'older', cwd: dirs.cwd })
    await until(() => mainEnded(before.events, older.sessionId), 'the older session')
    await pause(30)
    const newer = await before.h.handlers['session.start']({ prompt: 'newer', cwd: dirs.cwd })
    await until(() => mainEnded(before.events, newer.sessionId), 'the newer session')
    const stored = (await before.h.handlers['sessions.list']({})).sessions
    await before.h.close()

    const after = await host(() => reply.text('Done again.'), dirs)
    const reread = (await after.h.handlers['sessions.list']({})).sessions
    expect(reread.map((s) => [s.title, s.updatedAt])).toEqual(stored.map((s) => [s.title, s.updatedAt]))
    // Reopened to resume it: created when it was created, and newer only from its new events on.
    await after.h.handlers['session.sendPrompt']({ sessionId: older.sessionId, prompt: 'more' })
    await until(() => mainEnded(after.events, older.sessionId), 'the follow-up')
    const [top, next] = (await after.h.handlers['sessions.list']({})).sessions
    expect(top).toMatchObject({ title: 'older', createdAt: reread[1].createdAt, updatedAt: lastEventTs(after.events, older.sessionId) })
    expect(next).toMatchObject({ title: 'newer', updatedAt: stored[0].updatedAt })
  })

  it('says in a session’s row how many permission requests wait, and sends the row again as that changes', async () => {
    // A subagent asks to write a file while the main agent waits for it: the main agent is "running",
    // yet the session waits for the person, and a page that has not opened it must still learn so.
    const { h, events, notices, dirs } = await host(
      scriptByAgent([
        { name: 'child', match: 'Write the notes', turns: [reply.toolUse('Write', { file_path: 'notes.txt', content: 'hello' }), reply.text('Written.')] },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [reply.toolUse('Agent', { description: 'Write notes', prompt: 'Write the notes', subagent_type: 'general-purpose' }), reply.text('Done.')]
        }
      ])
    )
    const { sessionId } = await h.handlers['session.start']({ prompt: 'Write notes.txt', cwd: dirs.cwd })
    const rows = () => notices.flatMap((n) => (n.type === 'session_updated' && n.session.sessionId === sessionId ? [n.session] : []))
    await until(() => rows().some((r) => r.waitingPermissions === 1), 'a row saying one request waits')
    expect(rows().find((r) => r.waitingPermissions === 1)).toMatchObject({ status: 'waiting_permission' })
    expect((await h.handlers['sessions.list']({})).sessions.find((s) => s.sessionId === sessionId)).toMatchObject({
      status: 'waiting_permission',
      waitingPermissions: 1
    })

    const request = events.find((e) => e.type === 'permission_request' && e.sessionId === sessionId)!
    // The row brings the request as its event said it, and who asks: a page lists it without opening the session.
    const waiting = rows().find((r) => r.waitingPermissions === 1)!
    expect(waiting.pendingRequests?.requests).toEqual([request])
    const starts = events.filter((e) => e.type === 'agent_start' && e.sessionId === sessionId)
    expect(waiting.pendingRequests?.agents.map((a) => a.agentId)).toContain((request as { requestingAgentId: string }).requestingAgentId)
    for (const a of waiting.pendingRequests!.agents) expect(starts).toContainEqual(a)
    await h.handlers['permission.respond']({ requestId: (request as { requestId: string }).requestId, decision: 'allow' })
    await until(() => mainEnded(events, sessionId), 'the session')
    await until(() => rows().at(-1)?.status === 'completed', 'the final row')
    expect(rows().at(-1)).toMatchObject({ waitingPermissions: 0 })
    expect(rows().at(-1)!.pendingRequests).toBeUndefined()
    // The row went back to plain work as soon as the answer came, before the session ended.
    const answeredAt = rows().findIndex((r) => r.waitingPermissions === 1)
    expect(
      rows()
        .slice(answeredAt + 1)
        .some((r) => r.status === 'running' && r.waitingPermissions === 0)
    ).toBe(true)
  })
})
