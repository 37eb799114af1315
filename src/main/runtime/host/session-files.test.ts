// Renaming and deleting one session look at that session's folder alone (never the whole list), say
// plainly when there is no such session, and never delete one that runs.
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSessionRecorder, type SessionRecorder } from '../store'
import { readSessionIndex } from '../store/session-index-file'
import { eventsFor, tempDataDir } from '../store/test-fixtures'
import { deleteSessionFolder, storedSession } from './session-files'

// Records which sessions' session.json was read; every call still reads it.
vi.mock('../store/session-index-file', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../store/session-index-file')>()
  return { ...mod, readSessionIndex: vi.fn(mod.readSessionIndex) }
})
const indexReads = vi.mocked(readSessionIndex)
const sessionsRead = () => [...new Set(indexReads.mock.calls.map(([, id]) => id))]

let dataDir: string
let cleanup: () => Promise<void>
const open: SessionRecorder[] = []
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(async () => {
  for (const r of open.splice(0)) await r.close()
  await cleanup()
})

async function recordSession(sessionId: string, finish = true): Promise<void> {
  const f = eventsFor({ sessionId, agentId: 'main', parentAgentId: null, parentToolUseId: null })
  const rec = createSessionRecorder({ dataDir, sessionId, cwd: '/p' })
  rec.record(f.start({ prompt: `Task ${sessionId}` }))
  if (!finish) {
    await rec.flush() // still being written by this process: it runs
    open.push(rec)
    return
  }
  rec.record(f.end('completed'))
  await rec.close()
}

// The folder goes for good (no trash here), as the person confirmed.
const noTrash = { live: null, home: '/nonexistent', env: {}, trash: () => Promise.reject(new Error('no trash')) }

describe('one session of many', () => {
  beforeEach(async () => {
    for (const id of ['first', 'second', 'third']) await recordSession(id)
    indexReads.mockClear()
  })

  it('is deleted after reading its own session.json only', async () => {
    expect(await deleteSessionFolder(dataDir, 'second', noTrash)).toBe(false)
    expect(existsSync(join(dataDir, 'sessions', 'second'))).toBe(false)
    expect(existsSync(join(dataDir, 'sessions', 'first'))).toBe(true)
    expect(sessionsRead()).toEqual(['second'])
  })

  it('is summarized (for a rename) from its own folder only', async () => {
    expect(await storedSession(dataDir, 'third')).toMatchObject({ sessionId: 'third', title: 'Task third', status: 'completed' })
    expect(sessionsRead()).toEqual(['third'])
  })
})

describe('a session that is not there', () => {
  it('is not_found, by its id, whether no folder has it or no folder could', async () => {
    for (const id of ['gone', 'not:a-folder-name']) {
      await expect(deleteSessionFolder(dataDir, id, noTrash)).rejects.toMatchObject({ code: 'not_found', message: `There is no session ${id}.` })
      await expect(storedSession(dataDir, id)).rejects.toMatchObject({ code: 'not_found', message: `There is no session ${id}.` })
    }
  })

  it('is not_found for a rename when its folder holds nothing of a session; such a folder can still be deleted', async () => {
    await mkdir(join(dataDir, 'sessions', 'stray'), { recursive: true })
    await expect(storedSession(dataDir, 'stray')).rejects.toMatchObject({ code: 'not_found' })
    await deleteSessionFolder(dataDir, 'stray', noTrash)
    expect(existsSync(join(dataDir, 'sessions', 'stray'))).toBe(false)
  })
})

describe('a running session', () => {
  it('is never deleted: not while this window runs it, nor while another process does', async () => {
    await recordSession('busy', false)
    const close = vi.fn(async () => undefined)
    await expect(deleteSessionFolder(dataDir, 'busy', { ...noTrash, live: { busy: true, close } })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/stop it before deleting/)
    })
    await expect(deleteSessionFolder(dataDir, 'busy', noTrash)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/another Fanout window/)
    })
    expect(close).not.toHaveBeenCalled()
    expect(existsSync(join(dataDir, 'sessions', 'busy'))).toBe(true)
  })
})
