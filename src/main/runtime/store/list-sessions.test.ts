import { spawnSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listSessions } from './list-sessions'
import { readSessionIndex, writeSessionIndex } from './session-index-file'
import { createSessionRecorder } from './session-recorder'
import { eventsFor, tempDataDir } from './test-fixtures'

let dataDir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())

async function recordSession(sessionId: string, prompt: string, cost: number, finish = true): Promise<void> {
  const f = eventsFor({ sessionId, agentId: 'main', parentAgentId: null, parentToolUseId: null })
  const rec = createSessionRecorder({ dataDir, sessionId, cwd: `/p/${sessionId}` })
  rec.record(f.start({ prompt }))
  rec.record(f.usage({ inputTokens: 10, costUsd: cost }))
  if (finish) rec.record(f.end('completed'))
  await rec.close()
}

describe('listSessions', () => {
  it('is empty when nothing was ever recorded', async () => {
    expect(await listSessions(join(dataDir, 'fresh'))).toEqual({ sessions: [], problems: [] })
  })

  it('lists sessions newest first with title, status, cost and agent count', async () => {
    await recordSession('old', 'First task', 0.1)
    await recordSession('new', 'Second task\nmore', 0.25)
    const { sessions, problems } = await listSessions(dataDir)
    expect(problems).toEqual([])
    expect(sessions.map((s) => [s.sessionId, s.title, s.status, s.costUsd, s.agentCount, s.agentType])).toEqual([
      ['new', 'Second task', 'completed', 0.25, 1, 'general-purpose'],
      ['old', 'First task', 'completed', 0.1, 1, 'general-purpose']
    ])
    expect(sessions[0].cwd).toBe('/p/new')
    expect(sessions[0].dir).toBe(join(dataDir, 'sessions', 'new'))
  })

  it('rebuilds a session whose session.json is corrupt, and reports a folder with nothing readable', async () => {
    await recordSession('good', 'Good one', 0.1)
    await recordSession('hurt', 'Hurt one', 0.2)
    await writeFile(join(dataDir, 'sessions', 'hurt', 'session.json'), '{"version": 1, "sess')
    await mkdir(join(dataDir, 'sessions', 'empty'))
    await mkdir(join(dataDir, 'sessions', 'bad name'))
    const { sessions, problems } = await listSessions(dataDir)
    expect(sessions.map((s) => [s.sessionId, s.title, s.costUsd]).sort()).toEqual([
      ['good', 'Good one', 0.1],
      ['hurt', 'Hurt one', 0.2]
    ])
    expect(problems.map((p) => p.sessionId)).toEqual(['bad name', 'empty'])
    expect(problems[1].message).toBe(`Session empty skipped: No session empty in ${join(dataDir, 'sessions')}`)
    expect(problems[0].message).toMatch(/Invalid session id "bad name"/)
  })

  it('says a session ended on a question to the person from what it stored, also when session.json is rebuilt, until the next run', async () => {
    const f = eventsFor({ sessionId: 'ask', agentId: 'main', parentAgentId: null, parentToolUseId: null })
    const asking = { ...f.end('completed'), result: 'I found two parsers.\n\nWhich one should I keep?' }
    const rec = createSessionRecorder({ dataDir, sessionId: 'ask', cwd: '/p' })
    rec.record(f.start({ prompt: 'Tidy the parsers' }))
    rec.record(asking)
    await rec.close()
    await recordSession('plain', 'Plain task', 0)
    const asks = async () => Object.fromEntries((await listSessions(dataDir)).sessions.map((s) => [s.sessionId, s.asksYou]))
    expect(await asks()).toEqual({ ask: true, plain: false })
    await writeFile(join(dataDir, 'sessions', 'ask', 'session.json'), '{ torn')
    expect(await asks()).toEqual({ ask: true, plain: false })

    // Answered: the next run's end decides again.
    const next = createSessionRecorder({ dataDir, sessionId: 'ask', cwd: '/p' })
    next.record(f.start({ prompt: 'Keep the new one' }))
    await next.flush()
    expect(await asks()).toEqual({ ask: false, plain: false })
    next.record(f.end('completed'))
    await next.close()
    expect(await asks()).toEqual({ ask: false, plain: false })
  })

  it('shows a session whose writer died mid-run as interrupted, and a live one as running', async () => {
    await recordSession('crashed', 'Crashed task', 0, false)
    const idx = (await readSessionIndex(dataDir, 'crashed'))!
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number // a pid that has exited
    await writeSessionIndex(dataDir, { ...idx, writer: { ...idx.writer!, pid: dead, hostname: (await import('node:os')).hostname() } })

    await recordSession('closed', 'Closed mid-run', 0, false) // close() without agent_end: the app quit
    const live = createSessionRecorder({ dataDir, sessionId: 'live', cwd: '/p' })
    live.record(eventsFor({ sessionId: 'live', agentId: 'main', parentAgentId: null, parentToolUseId: null }).start())
    await live.flush()

    const byId = Object.fromEntries((await listSessions(dataDir)).sessions.map((s) => [s.sessionId, s.status]))
    expect(byId).toEqual({ crashed: 'interrupted', closed: 'interrupted', live: 'running' })
    await live.close()
  })
})
