// An index another process holds, or held when it was killed. node-sqlite3-wasm locks a database with a
// folder (`<file>.lock`) that a kill -9 leaves behind: every open after it used to fail with "database is
// locked", the search answered "Could not create the search index" for good, and a read that met a live
// holder's lock threw the index file away as unreadable. Real processes here, holding real locks.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, utimesSync } from 'node:fs'
import { createRequire } from 'node:module'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { recordClosed, tempDataDir } from '../store/test-fixtures'
import { allSessionsDbPath } from './all-sessions-search'
import { STALE_LOCK_MS } from './search-db'
import { SearchService } from './search-service'
import { searchDbPath } from './session-search'

let dataDir: string
let cleanup: () => Promise<void>
const children: ChildProcess[] = []
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL')
  await cleanup()
})

const SID = 'sess-lock'
const describeSession = async () => ({ title: 'Lock test', cwd: '/work/project', updatedAt: 1 })
const sqlite = createRequire(import.meta.url).resolve('node-sqlite3-wasm')

async function recordSession(word: string): Promise<void> {
  const main = agentEvents(SID, 'main', manualClock())
  let seq = 1_700_000_000_000_000
  const events: AgentEvent[] = [
    main.start({ prompt: 'Check the build' }),
    main.toolEnd('t1', 'Bash', `the ${word} line`),
    main.end('completed', { result: 'done' })
  ]
  await recordClosed(
    { dataDir, sessionId: SID, cwd: '/work/project' },
    events.map((e) => ({ ...e, seq: ++seq }))
  )
}

const service = (onError?: (e: Error) => void) => new SearchService({ dataDir, describe: describeSession, waitMs: 10_000, onError })

/** A session whose index a first service built and closed: the index file and its bytes then. */
async function indexedSession(word: string): Promise<{ db: string; bytes: Buffer }> {
  await recordSession(word)
  const first = service()
  expect((await first.inSession(SID, word, 10)).hits).toHaveLength(1)
  await first.close()
  const db = searchDbPath(dataDir, SID)
  return { db, bytes: readFileSync(db) }
}

/** Another process that takes the database's write lock and keeps it until it is killed, or told to let go. */
async function holder(file: string): Promise<ChildProcess> {
  const code = `const { Database } = require(${JSON.stringify(sqlite)}); const db = new Database(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE'); console.log('held');
    process.stdin.on('data', () => { db.exec('ROLLBACK'); db.close(); process.exit(0) })`
  const child = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'inherit'] })
  children.push(child)
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('held') && resolve())
    child.on('exit', (code) => reject(new Error(`the holder exited (${code}) before it held the lock`)))
  })
  return child
}

async function killed(child: ChildProcess): Promise<void> {
  const gone = new Promise((r) => child.once('exit', r))
  child.kill('SIGKILL')
  await gone
}

/** The lock folder as a dead process leaves it, made to look older than any live holder keeps one. */
function ageLock(file: string): void {
  const then = (Date.now() - STALE_LOCK_MS - 1000) / 1000
  utimesSync(`${file}.lock`, then, then)
}

it('a process killed while it held a session’s index: the search says it is indexing, keeps the file, and answers once the lock is old enough to be a dead one’s', async () => {
  const { db, bytes } = await indexedSession('pelican')

  await killed(await holder(db))
  expect(existsSync(`${db}.lock`)).toBe(true) // left behind by the kill

  const errors: string[] = []
  const second = service((e) => errors.push(e.message))
  // While the lock could still be a live process's: no hits yet, no failure, and the page is told to ask again.
  const early = await second.inSession(SID, 'pelican', 10)
  expect(early.hits).toEqual([])
  expect(early.indexing).toBeDefined()
  expect(readFileSync(db).equals(bytes)).toBe(true) // not thrown away as unreadable
  expect(errors.join('\n')).not.toMatch(/rebuilt/)

  ageLock(db)
  const late = await second.inSession(SID, 'pelican', 10)
  expect(late.hits.map((h) => h.kind)).toEqual(['tool_output'])
  expect(late.indexing).toBeUndefined()
  expect(existsSync(`${db}.lock`)).toBe(false)
  await second.close()
})

it('a live process holding the index: its lock is left alone and its file kept; the search answers once it lets go', async () => {
  const { db, bytes } = await indexedSession('heron')

  const child = await holder(db)
  const second = service()
  const held = await second.inSession(SID, 'heron', 10)
  expect(held).toMatchObject({ hits: [], indexing: expect.anything() })
  expect(existsSync(`${db}.lock`)).toBe(true)
  expect(readFileSync(db).equals(bytes)).toBe(true)

  // It lets go: its transaction ends and its VFS removes the lock folder.
  const gone = new Promise((r) => child.once('exit', r))
  child.stdin!.write('release\n')
  await gone
  expect(existsSync(`${db}.lock`)).toBe(false)
  expect((await second.inSession(SID, 'heron', 10)).hits).toHaveLength(1)
  await second.close()
})

it('a process killed while it held the index across sessions: the search across sessions says it is indexing, then answers', async () => {
  await recordSession('cormorant')
  const first = service()
  expect((await first.acrossSessions([SID], '/work/project', 'cormorant', 10)).hits.length).toBeGreaterThan(0)
  await first.close()
  const across = allSessionsDbPath(dataDir)

  await killed(await holder(across))
  const second = service()
  const early = await second.acrossSessions([SID], '/work/project', 'cormorant', 10)
  expect(early).toMatchObject({ hits: [], indexing: { done: 0, total: 1 } })

  ageLock(across)
  const late = await second.acrossSessions([SID], '/work/project', 'cormorant', 10)
  expect(late.hits.map((h) => h.kind)).toContain('tool_output')
  expect(existsSync(`${across}.lock`)).toBe(false)
  await second.close()
})
